"""What pages carry for their stream: a grant for what the viewer may see, and the polling fallback."""

from __future__ import annotations

import re

import pytest
from game_helpers import start_game

from live.grants import Grant, read_grant

pytestmark = pytest.mark.django_db


def grants_in(html: str) -> list[Grant]:
    return [read_grant(token) for token in re.findall(r'data-live-grant="([^"]+)"', html)]


def test_the_game_page_grants_its_game_and_the_viewers_own_channel(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert Grant(game_id=game.pk, user_id=players[0].pk) in grants_in(html)
    assert Grant(game_id=None, user_id=players[0].pk) in grants_in(html), "the header's count, on every page"
    assert 'hx-trigger="live:check"' in html and "every 5s" not in html
    assert f'data-live-token="{game.version}.active.2"' in html
    assert "js/live.js" in html


def test_a_visitor_watching_a_public_game_gets_its_channel_only(client, players):
    game = start_game("konamon", players[:2])
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert grants_in(html) == [Grant(game_id=game.pk, user_id=None)]


def test_a_private_game_grants_nothing_to_those_who_cannot_see_it(client, players):
    game = start_game("konamon", players[:2], visibility="private")
    client.force_login(players[3])
    assert client.get(f"/games/{game.pk}/").status_code == 404
    assert client.get(f"/games/{game.pk}/table/?v=x").status_code == 404


def test_the_live_partial_renews_the_grant(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[1])
    html = client.get(f"/games/{game.pk}/table/?v=old", headers={"HX-Request": "true"}).content.decode()
    assert grants_in(html) == [Grant(game_id=game.pk, user_id=players[1].pk)]


def test_with_live_updates_off_pages_poll_as_before(client, players, settings):
    settings.LIVE_UPDATES = False
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    html = client.get(f"/games/{game.pk}/").content.decode()
    assert 'hx-trigger="every 5s"' in html
    assert "data-live-grant" not in html and "js/live.js" not in html


def test_the_my_games_link_shows_the_awaiting_count(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    response = client.get("/live/my-games-link/")
    assert response.status_code == 200 and response["Cache-Control"] == "no-store"
    html = response.content.decode()
    assert 'id="nav-my-games"' in html
    awaited = game.seats.filter(user=players[0], awaited=True).exists()
    assert ('class="badge"' in html) == awaited


def test_the_my_games_link_is_empty_for_visitors(client):
    assert client.get("/live/my-games-link/").status_code == 204
