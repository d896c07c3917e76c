"""Each input that once answered 500 now gets a clear 4xx and changes nothing."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse
from game_helpers import awaited_human, start_game

from games.models import Move, Seat


def api_move(client, game, payload):
    body = payload if isinstance(payload, str) else json.dumps(payload)
    return client.post(reverse("api-game-move", args=[game.pk]), data=body, content_type="application/json")


@pytest.fixture
def game(players, db):
    return start_game("mamma-mia", players[:3])


def test_reusing_another_seats_idempotency_key_is_refused_not_a_crash(game, client):
    seat, view = awaited_human(game)
    key = str(uuid.uuid4())
    client.force_login(seat.user)
    assert api_move(client, game, {"move": view.legal_moves[0], "expected_version": 0, "idempotency_key": key}).json()[
        "applied"
    ]
    game.refresh_from_db()
    nxt, view = awaited_human(game)
    assert nxt.pk != seat.pk
    client.force_login(nxt.user)
    payload = {"move": view.legal_moves[0], "expected_version": game.version, "idempotency_key": key}
    response = api_move(client, game, payload)
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"error", "detail"}
    assert Move.objects.filter(game=game).count() == 1
    # The HTML form with the same reused key: the page again, with the reason, not a 500.
    form = {"move": json.dumps(view.legal_moves[0]), "version": game.version, "idempotency_key": key}
    response = client.post(reverse("game-move", args=[game.pk]), form)
    assert response.status_code == 400
    assert Move.objects.filter(game=game).count() == 1


def test_reusing_ones_own_key_from_an_earlier_turn_is_refused(players, client):
    game = start_game("marumiere", players[:2])
    key = str(uuid.uuid4())
    seat, view = awaited_human(game)
    client.force_login(seat.user)
    api_move(client, game, {"move": view.legal_moves[0], "expected_version": 0, "idempotency_key": key})
    for _ in range(10):
        game.refresh_from_db()
        current, view = awaited_human(game)
        if current.pk == seat.pk:
            break
        client.force_login(current.user)
        api_move(client, game, {"move": view.legal_moves[0], "expected_version": game.version})
    else:
        pytest.fail("the first seat never got a second turn")
    moves = Move.objects.filter(game=game).count()
    client.force_login(seat.user)
    payload = {"move": view.legal_moves[0], "expected_version": game.version, "idempotency_key": key}
    response = api_move(client, game, payload)
    assert response.status_code == 400, response.content
    assert Move.objects.filter(game=game).count() == moves


DEEP = "[" * 50_000 + "]" * 50_000


def test_deeply_nested_json_is_a_400_on_every_api_post(game, client):
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    for url in (
        reverse("api-game-move", args=[game.pk]),
        reverse("api-games"),
        reverse("api-game-join", args=[game.pk]),
        reverse("api-token"),
    ):
        response = client.post(url, data=DEEP, content_type="application/json")
        assert response.status_code == 400, (url, response.status_code)
        assert set(response.json()) == {"error", "detail"}
    nested_move = '{"expected_version": 0, "move": ' + '{"a": ' * 5000 + "1" + "}" * 5000 + "}"
    assert api_move(client, game, nested_move).status_code == 400
    assert Move.objects.count() == 0


def test_deeply_nested_json_in_the_move_form_is_a_400(game, client):
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    response = client.post(reverse("game-move", args=[game.pk]), {"move": DEEP, "version": 0})
    assert response.status_code == 400
    assert Move.objects.count() == 0


@pytest.mark.parametrize("path", ["/u/%00/", "/u/a%00b/", "/lobby/?game=%00", "/games/invite/%00/"])
def test_a_nul_byte_in_the_address_is_a_4xx(client, db, path):
    assert client.get(path).status_code in (400, 404)


def test_options_on_a_view_without_a_serializer(game, client):
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    for name in ("api-game-leave", "api-game-move", "api-game-join", "api-game"):
        response = client.options(reverse(name, args=[game.pk]))
        assert response.status_code == 200, (name, response.status_code)


def test_a_lone_surrogate_in_a_move_type_is_refused_cleanly(players, client):
    game = start_game("marumiere", players[:2])
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    body = '{"expected_version": 0, "move": {"type": "\\ud800"}}'
    response = api_move(client, game, body)
    assert response.status_code == 400, response.content
    assert set(response.json()) == {"error", "detail"}
    assert Move.objects.count() == 0


def test_a_nul_character_in_json_is_refused(game, client):
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    response = client.post(
        reverse("api-game-join", args=[game.pk]), data='{"invite": "a\\u0000b"}', content_type="application/json"
    )
    assert response.status_code == 400
    response = api_move(client, game, '{"expected_version": 0, "move": {"type": "\\u0000"}}')
    assert response.status_code == 400
    assert Seat.objects.filter(game=game).count() == 3


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_non_finite_numbers_are_refused(game, client, number):
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    body = '{"expected_version": 0, "move": {"type": "x", "n": ' + number + "}}"
    response = api_move(client, game, body)
    assert response.status_code == 400
    assert set(response.json()) == {"error", "detail"}
