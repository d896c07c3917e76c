"""Creating a game (issue 19, point 6): only the chosen game's options and its real seat counts, and how long a
game lasts, from the registry and each game folder's own data."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games.engines import all_engines, get_engine
from games.forms import CreateGameForm

pytestmark = pytest.mark.django_db


def _page(client, user, query=""):
    client.force_login(user)
    return client.get(reverse("game-create") + query).content.decode()


def _block(html, slug):
    """The markup of one game's choice: its radio, facts and options."""
    start = html.index(f'value="{slug}"')
    end = html.find('<div class="game-option">', start)
    return html[start : end if end != -1 else None]


def test_each_game_is_offered_with_its_own_seat_counts_and_length_from_its_data(client, user):
    html = _page(client, user)
    for engine in all_engines():
        block = _block(html, engine.slug)
        assert f'data-min="{engine.min_players}"' in block and f'data-max="{engine.max_players}"' in block
    assert "2–5 players · 3 rounds, ~20–35 moves each" in _block(html, "mamma-mia")
    assert "2–4 players · 3–4 rounds, ~30–40 moves each" in _block(html, "marumiere")
    assert re.search(r"2–4 players · ~\d+ rounds, ~\d+–\d+ moves each", _block(html, "konamon"))


def test_the_seat_list_can_follow_the_chosen_game_with_each_counts_length(client, user):
    html = _page(client, user)
    lengths = json.loads(
        re.search(r'value="marumiere"[^>]*data-lengths="([^"]+)"', html).group(1).replace("&quot;", '"')
    )
    assert lengths == {
        "2": "4 rounds, ~40 moves each", "3": "3 rounds, ~30 moves each", "4": "4 rounds, ~40 moves each"
    }
    assert "js/site.js" in html  # which narrows the seat list to the chosen game


def test_options_sit_with_their_own_game_so_only_the_chosen_games_show(client, user):
    html = _page(client, user, "?game=marumiere")
    assert 'value="marumiere" data-min' in html and 'checked' in _block(html, "marumiere").split(">", 1)[0]
    assert 'data-engine="marumiere"' in _block(html, "marumiere")
    assert 'data-engine="mamma-mia"' in _block(html, "mamma-mia")
    assert 'data-engine="mamma-mia"' not in _block(html, "marumiere")
    from django.conf import settings

    css = (settings.BASE_DIR / "static/css/forms.css").read_text(encoding="utf-8")
    assert ".game-option:has(input[name=engine_slug]:not(:checked)) .engine-options { display: none; }" in css


def test_the_first_length_line_is_for_the_chosen_game_and_seat_count(client, user):
    html = _page(client, user, "?game=mamma-mia")
    assert '<span class="helptext" id="seat-length" aria-live="polite">A game: 3 rounds, ~30 moves each.</span>' in html


def test_a_seat_count_the_game_does_not_take_is_refused_naming_the_real_counts(client, user):
    client.force_login(user)
    data = {"engine_slug": "konamon", "players": 5, "bots": 0, "clock": "move", "time_limit_hours": 48,
            "visibility": "public"}
    response = client.post(reverse("game-create"), data)
    assert response.status_code == 400
    engine = get_engine("konamon")
    assert f"{engine.name} takes {engine.min_players} to {engine.max_players} players." in response.content.decode()


def test_the_initial_seat_count_fits_the_chosen_game():
    form = CreateGameForm(initial={"engine_slug": "konamon"})
    engine = get_engine("konamon")
    assert engine.min_players <= form.fields["players"].initial <= engine.max_players
