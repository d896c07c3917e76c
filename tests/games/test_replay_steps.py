"""Issue 19, point 4: the replay jumps to a round or a move, steps in place (htmx swaps only the replay),
draws its step buttons as SVG (no ⏮ ⏭ that an emoji-less font shows as boxes), and, nothing being secret
any more, shows Mamma Mia!'s oven in the order the cards went in."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.history import services as history_services
from tests.games.game_helpers import play_out, start_game


@pytest.fixture
def finished(players):
    return play_out(start_game("marumiere", players[:3]))


@pytest.mark.django_db(transaction=True)
def test_round_starts_are_the_steps_where_each_round_began(finished):
    starts = history_services.round_starts(finished)
    assert [number for number, _step in starts] == [1, 2, 3]
    assert starts[0] == (1, 0)
    steps = [step for _number, step in starts]
    assert steps == sorted(steps) and steps[-1] < finished.version
    for number, step in starts[1:]:
        state, _last, _total = history_services.replay_step(finished, step)
        before, _last, _total = history_services.replay_step(finished, step - 1)
        assert state["round"] == number and before["round"] == number - 1
    assert history_services.round_starts(finished) == starts  # from the cache, the same


@pytest.mark.django_db(transaction=True)
def test_the_replay_jumps_to_a_round_or_a_move(finished, client):
    client.force_login(finished.created_by)
    starts = dict(history_services.round_starts(finished))
    page = client.get(reverse("game-replay", args=[finished.pk]), {"step": starts[2] + 1}).content.decode()
    assert f'<option value="{starts[3]}">Round 3 (move {starts[3]})</option>' in page
    assert f'<option value="{starts[2]}" selected>Round 2 (move {starts[2]})</option>' in page
    assert f"Move {starts[2] + 1} of {finished.version} · round 2" in page
    assert f'name="step" type="number" inputmode="numeric" min="0" max="{finished.version}"' in page
    last = client.get(reverse("game-replay", args=[finished.pk]), {"step": 10**6}).content.decode()
    assert f"Move {finished.version} of {finished.version}" in last


@pytest.mark.django_db(transaction=True)
def test_the_step_buttons_are_svg_and_step_in_place(finished, client):
    client.force_login(finished.created_by)
    page = client.get(reverse("game-replay", args=[finished.pk]), {"step": 5}).content.decode()
    assert "⏮" not in page and "⏭" not in page and "◀" not in page and "▶" not in page
    buttons = re.findall(r'<a class="btn secondary replay-btn"[^>]*data-replay="(\w+)">.*?</a>', page, re.S)
    assert buttons == ["first", "prev", "next", "last"]
    nav = re.search(r'<p class="replay-buttons">.*?</p>', page, re.S).group(0)
    assert nav.count('<svg class="icon"') == 4
    assert 'hx-boost="true" hx-target="#replay-view" hx-select="#replay-view"' in page and "js/replay" in page
    step = client.get(
        reverse("game-replay", args=[finished.pk]), {"step": 6}, headers={"HX-Request": "true", "HX-Boosted": "true"}
    )
    assert step.status_code == 200 and 'id="replay-view"' in step.content.decode()
    assert 'data-step="6"' in step.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_mamma_mia_replay_shows_the_oven_in_order(players, client):
    game = play_out(start_game("mamma-mia", players[:3]))
    client.force_login(players[0])
    for step in range(1, game.version):
        state, _last, _total = history_services.replay_step(game, step)
        if len(state["oven"]) >= 2:
            break
    page = client.get(reverse("game-replay", args=[game.pk]), {"step": step}).content.decode()
    section = re.search(r'<section class="card gt mm-oven-order".*?</section>', page, re.S).group(0)
    assert "in the order the cards went in" in section
    assert section.count("<li>") == len(state["oven"])
