"""The UI inside the real game page: people play moves by posting exactly what the rendered forms send."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from django.urls import reverse

from games.models import GameStatus
from tests.games.game_helpers import SLUGS, awaited_human, start_game
from tests.games.ui.support import ROOT, forms_in, possible_posts

TEMPLATES = ROOT / "templates" / "games" / "ui"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", SLUGS)
def test_a_game_played_through_the_rendered_forms(slug, players, client):
    """The first moves through the page's forms, the rest by JSON; then the final page shows every hand."""
    game = start_game(slug, players[:2], bots=1)
    rng = random.Random(slug)
    move_url = reverse("game-move", args=[game.pk])
    for step in range(5000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat, seat_view = awaited_human(game)
        assert seat is not None
        client.force_login(seat.user)
        if step < 30:
            post = post_from_page(client, game, move_url, rng)
        else:
            post = {"move": json.dumps(rng.choice(seat_view.legal_moves)), "version": game.version}
        response = client.post(move_url, post)
        assert response.status_code == 302, response.content.decode()[:500]
    assert game.status == GameStatus.FINISHED
    client.force_login(players[0])
    final = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'class="revealed-hands' in final and 'class="gt gt--' in final
    replay = client.get(reverse("game-replay", args=[game.pk]), {"step": 3, "seat": 1}).content.decode()
    assert 'class="revealed-hands' in replay


def post_from_page(client, game, move_url: str, rng: random.Random) -> dict[str, str]:
    """One of the posts the awaited player's page lets them send."""
    page = client.get(reverse("game", args=[game.pk]))
    assert page.status_code == 200
    forms = [form for form in forms_in_page(page.content.decode()) if form["action"] == move_url]
    assert forms, "the awaited player gets a move form"
    return rng.choice([post for form in forms for post in possible_posts(form)])


def forms_in_page(html: str) -> list[dict]:
    """Move forms of a whole page (the platform's other forms may use inputs we do not simulate)."""
    found = []
    for chunk in re.findall(r"<form[^>]*game-move[^>]*>.*?</form>|<form[^>]*/move/[^>]*>.*?</form>", html, re.S):
        found.extend(forms_in(chunk))
    return found


def test_templates_keep_the_content_security_policy():
    """No style="" attributes and no inline scripts: CSP allows neither."""
    for path in Path(TEMPLATES).rglob("*.html"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\sstyle=", text), path
        assert not re.search(r"<script(?![^>]*\bsrc=)", text), path
        assert not re.search(r"\son[a-z]+=", text), path
