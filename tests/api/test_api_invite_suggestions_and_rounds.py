"""Two things the pages show that the API now says too: whom the invitation box suggests (the page's selector,
blocks respected both ways) and how far a game has come ("round 2 of 3", from ``Game.round``)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from django.utils import translation

from games import lengths
from games.lobby import services as lobby_services
from games.models import Game
from tests.games.game_helpers import start_game
from together import moderation

pytestmark = pytest.mark.django_db


def _names(response) -> list[str]:
    assert response.status_code == 200, response.content
    body = response.json()
    assert set(body) == {"results", "next", "previous"}
    return [row["username"] for row in body["results"]]


def test_suggestions_are_the_boxs_and_respect_blocks_both_ways(token_client, user_factory):
    alice = user_factory(username="alice")
    user_factory(username="bobby", display_name="Roberto")
    user_factory(username="bobcat")
    user_factory(username="bobsled")
    seated = user_factory(username="bobseat")
    invited = user_factory(username="bobinvited")
    user_factory(username="carol", display_name="Bobbie C")
    moderation.block(user=alice, username="bobcat")  # I blocked them
    moderation.block(user=user_factory(username="bobsled"), username="alice")  # they blocked me
    game = lobby_services.create_game(user=alice, engine_slug="konamon", players=4)
    lobby_services.join_game(user=seated, game_id=game.pk)
    lobby_services.invite_user(user=alice, game_id=game.pk, username=invited.username)
    api = token_client(alice)
    url = reverse("api-game-invite-suggestions", args=[game.pk])
    assert _names(api.get(url, q="bob")) == ["bobby", "carol"]  # username starts with, or display name contains
    assert _names(api.get(url, q="  ROBERTO ")) == ["bobby"]
    [row] = api.get(url, q="rob").json()["results"]
    assert row == {"username": "bobby", "display_name": "Roberto"}
    for hidden in ("bobcat", "bobsled", "bobseat", "bobinvited", "alice"):
        assert hidden not in _names(api.get(url, q=hidden))
    # The box offers what the page's selector does.
    from games.lobby import selectors

    assert _names(api.get(url, q="bo")) == [u.username for u in selectors.invite_suggestions(
        game=game, user=alice, query="bo"
    )]


def test_suggestions_are_for_a_seated_player_of_an_open_game_only(token_client, user_factory):
    alice, bob, carol = (user_factory(username=name) for name in ("alice", "bob", "carol"))
    public = lobby_services.create_game(user=alice, engine_slug="konamon", players=3)
    private = lobby_services.create_game(user=alice, engine_slug="konamon", players=3, visibility="private")
    started = start_game("marumiere", [alice, carol])
    answer = token_client(bob).get(reverse("api-game-invite-suggestions", args=[public.pk]), q="ca")
    assert answer.status_code == 403 and answer.json()["error"] == "not_seated"
    answer = token_client(bob).get(reverse("api-game-invite-suggestions", args=[private.pk]), q="ca")
    assert answer.status_code == 404 and answer.json()["error"] == "not_found"
    answer = token_client(alice).get(reverse("api-game-invite-suggestions", args=[started.pk]), q="bo")
    assert answer.status_code == 409 and answer.json()["error"] == "not_open"
    assert token_client().get(reverse("api-game-invite-suggestions", args=[public.pk])).status_code == 401


def test_games_say_their_round_and_how_many_as_my_games_does(token_client, players):
    me = players[0]
    started = start_game("mamma-mia", players[:2])
    waiting = lobby_services.create_game(user=me, engine_slug="konamon", players=3)
    Game.objects.filter(pk=started.pk).update(round=2)
    api = token_client(me)
    detail = api.get(reverse("api-game", args=[started.pk])).json()["game"]
    assert detail["round"] == 2
    assert detail["length"]["rounds"] == 3 and detail["length"]["rounds_min"] == 3
    assert detail["progress"] == "round 2 of 3"
    listed = {row["game"]["id"]: row["game"] for row in api.get(reverse("api-games")).json()["results"]}
    assert listed[started.pk]["progress"] == "round 2 of 3" and listed[started.pk]["round"] == 2
    assert listed[waiting.pk]["round"] is None and listed[waiting.pk]["progress"] == ""
    assert listed[waiting.pk]["length"]["rounds"] is None  # Konamon!'s rounds vary
    assert listed[waiting.pk]["length"]["rounds_expected"] >= 1
    me.language = "ja"
    me.save(update_fields=["language"])
    said = api.get(reverse("api-game", args=[started.pk])).json()["game"]["progress"]
    started.refresh_from_db()
    with translation.override("ja"):
        assert said == lengths.progress_text(started) != "round 2 of 3"


def test_the_new_fields_and_operations_are_in_the_served_schema(client):
    schema = json.loads(client.get("/api/schema/", {"format": "json"}).content)
    summary = schema["components"]["schemas"]["GameSummary"]["properties"]
    assert {"round", "length", "progress"} <= set(summary)
    responses = schema["paths"]["/api/games/{game_id}/invite-suggestions/"]["get"]["responses"]
    assert set(responses) >= {"200", "400", "401", "403", "404", "409"}
