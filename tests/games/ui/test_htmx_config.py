"""Issue 35, item 7: the pages htmx updates in place (the game page, the replay) set htmx up within the CSP, so
a live update or a replay step never applies an inline style."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.urls import reverse

from tests.games.game_helpers import play_out, start_game

pytestmark = pytest.mark.django_db


def _htmx_config(page: str) -> dict:
    found = re.findall(r"<meta name=\"htmx-config\" content='([^']*)'>", page)
    assert len(found) == 1, "one htmx configuration per page"
    return json.loads(html.unescape(found[0]))


@pytest.mark.parametrize("page", ["game", "game-replay"])
def test_htmx_never_settles_an_inline_style_attribute_on_pages_it_updates(page, players, client):
    game = play_out(start_game("konamon", players[:2]))
    client.force_login(players[0])
    config = _htmx_config(client.get(reverse(page, args=[game.pk])).content.decode())
    # Settling "style" copies an old element's style attribute (even an empty one) with setAttribute: refused
    # by style-src 'self', logged as a CSP violation after each swap.
    assert "style" not in config["attributesToSettle"]
    assert config["includeIndicatorStyles"] is False and config["allowEval"] is False
