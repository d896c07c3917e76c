"""Full games of each engine through the Django test client: several users and a bot, to the end."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import call_command
from django.urls import reverse
from game_helpers import SLUGS, awaited_human, start_game

from games.models import Game, GameStatus, Move, Seat


def play_to_the_end(client, game, rng, *, check_every=25):
    """Awaited humans post a random legal move through the page's form until the game ends."""
    for step in range(5000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return step
        seat, seat_view = awaited_human(game)
        assert seat is not None, "no human awaited: the bots must have moved in their task"
        client.force_login(seat.user)
        if step % check_every == 0:
            page = client.get(reverse("game", args=[game.pk]))
            assert page.status_code == 200
            assert "● " in page.content.decode().split("<title>")[1].split("</title>")[0]  # "● Your move"
        move = rng.choice(seat_view.legal_moves)
        response = client.post(
            reverse("game-move", args=[game.pk]),
            {"move": json.dumps(move), "version": game.version, "idempotency_key": f"{rng.getrandbits(128):032x}"},
        )
        assert response.status_code == 302, response.content.decode()[:2000]
    raise AssertionError("the game did not end")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", SLUGS)
def test_full_game_through_the_pages(slug, players, client):
    game = start_game(slug, players[:2], bots=1)
    assert game.status == GameStatus.ACTIVE
    play_to_the_end(client, game, random.Random(slug))
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.revealed_seed and len(game.seed_sha256) == 64
    moves = Move.objects.filter(game=game)
    assert moves.count() == game.version
    assert {"player", "bot"} <= set(moves.values_list("made_by", flat=True))
    assert not Seat.objects.filter(game=game, awaited=True).exists()
    assert sorted(Seat.objects.filter(game=game).values_list("final_rank", flat=True))[0] == 1

    # After the end: ranking, seed, replay at several steps, whole log, match history.
    client.force_login(players[0])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert game.revealed_seed in page and "Final ranking" in page
    for step in (0, 1, game.version // 2, game.version, 10**9, -5, "x"):
        response = client.get(reverse("game-replay", args=[game.pk]), {"step": step, "seat": 1})
        assert response.status_code == 200
    assert client.get(reverse("game-log", args=[game.pk])).status_code == 200
    profile = client.get(reverse("profile", args=[players[1].username])).content.decode()
    assert f"#{game.pk}" in profile and "Match history" in profile

    call_command("check_snapshots")
    call_command("verify_deal", game.pk)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", SLUGS)
def test_full_game_through_the_api_with_a_token(slug, players, client):
    """Two users play with API tokens; a bot fills the third seat."""
    tokens = {}
    for user in players[:2]:
        credentials = {"username": user.username, "password": "correct horse battery staple"}
        response = client.post(reverse("api-token"), credentials)
        assert response.status_code == 200, response.content
        tokens[user.pk] = response.json()["token"]

    def api(user, method, url, data=None):
        headers = {"HTTP_AUTHORIZATION": f"Token {tokens[user.pk]}"}
        if method == "get":
            return client.get(url, **headers)
        return client.post(url, data=json.dumps(data or {}), content_type="application/json", **headers)

    created = api(players[0], "post", reverse("api-games"), {"game": slug, "players": 3, "bots": 1})
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    assert api(players[1], "post", reverse("api-game-join", args=[game_id])).status_code == 200
    rng = random.Random(7)
    for _ in range(5000):
        game = Game.objects.get(pk=game_id)
        if game.status != GameStatus.ACTIVE:
            break
        seat, _view = awaited_human(game)
        detail = api(seat.user, "get", reverse("api-game", args=[game_id])).json()
        assert detail["seat"] == seat.number and detail["legal_moves"]
        response = api(
            seat.user,
            "post",
            reverse("api-game-move", args=[game_id]),
            {"move": rng.choice(detail["legal_moves"]), "expected_version": detail["version"]},
        )
        assert response.status_code == 200, response.content
    assert api(players[0], "get", reverse("api-games")).json()["results"] == []  # nothing in progress
    history = api(players[0], "get", reverse("api-user-history", args=[players[0].username])).json()
    assert history["results"][0]["game"]["status"] == "finished"
    assert history["results"][0]["game"]["seed"]
