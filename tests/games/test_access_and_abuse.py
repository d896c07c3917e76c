"""Who may move, see and join; malformed input never causes a 500; errors read the same in HTML and JSON."""

from __future__ import annotations

import json
import uuid

import pytest
from django.urls import reverse
from game_helpers import awaited_human, start_game

from games import signals, tables
from games.models import Game, GameStatus, Invitation, Move, Seat


def post_move(client, game, move, *, version=None, key=None):
    data = {"move": json.dumps(move), "version": game.version if version is None else version}
    if key:
        data["idempotency_key"] = key
    return client.post(reverse("game-move", args=[game.pk]), data)


def api_move(client, game, payload):
    return client.post(reverse("api-game-move", args=[game.pk]), data=payload, content_type="application/json")


@pytest.fixture
def game(players, db):
    return start_game("mamma-mia", players[:3])


def not_awaited_seat(game):
    return Seat.objects.filter(game=game, awaited=False).select_related("user").first()


def test_only_the_awaited_seated_player_may_move(game, players, client, user_factory):
    seat, view = awaited_human(game)
    move = view.legal_moves[0]
    stranger = user_factory(username="stranger")
    client.force_login(stranger)
    assert post_move(client, game, move).status_code == 403
    other = not_awaited_seat(game)
    client.force_login(other.user)
    response = post_move(client, game, move)
    assert response.status_code == 403
    assert "not your move" in response.content.decode()
    assert Move.objects.count() == 0
    client.logout()
    assert post_move(client, game, move).status_code == 302  # to the login page
    assert Move.objects.count() == 0
    client.force_login(seat.user)
    assert post_move(client, game, move).status_code == 302
    assert Move.objects.count() == 1


def test_a_stale_form_is_refused_with_the_moved_on_message(game, client):
    seat, view = awaited_human(game)
    client.force_login(seat.user)
    assert post_move(client, game, view.legal_moves[0]).status_code == 302
    # The same player's old form for the same turn, another key: refused, nothing changes.
    response = post_move(client, game, view.legal_moves[-1], version=0, key=str(uuid.uuid4()))
    if response.status_code == 403:  # no longer their turn is checked after staleness
        raise AssertionError(response.content)
    assert response.status_code == 409
    assert "The game has moved on since you loaded the page." in response.content.decode()
    assert Move.objects.count() == 1


def test_a_repeated_post_of_the_same_form_is_harmless(game, client):
    seat, view = awaited_human(game)
    client.force_login(seat.user)
    key = str(uuid.uuid4())
    first = post_move(client, game, view.legal_moves[0], key=key)
    second = post_move(client, game, view.legal_moves[0], version=0, key=key)
    assert first.status_code == second.status_code == 302
    assert second["Location"] == reverse("game", args=[game.pk])
    assert Move.objects.count() == 1


BAD_FORMS = [
    {},
    {"move": "not json"},
    {"move": "[]", "version": "0"},
    {"move": "null", "version": "0"},
    {"move": '{"type": "turn"}', "version": "0"},
    {"move": '{"type": "turn", "topping": "salami", "count": 99, "recipe": null, "draw": "kitchen"}', "version": "0"},
    {"move": "{}", "version": "-1"},
    {"move": "{}", "version": "1e9999"},
    {"move": "{}", "version": "abc"},
    {"move": "{}", "version": "0", "idempotency_key": "not-a-uuid"},
    {"move": "x" * 100_000, "version": "0"},
    {"move": '{"type": "turn", "count": true}', "version": "0"},
    {"topping": "salami", "count": "x", "version": "0"},
]


@pytest.mark.parametrize("data", BAD_FORMS)
def test_malformed_move_forms_never_500(game, client, data):
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    response = client.post(reverse("game-move", args=[game.pk]), data)
    assert response.status_code in (400, 403, 409), (data, response.status_code)
    assert Move.objects.count() == 0


BAD_API_BODIES = [
    "",
    "not json",
    "[]",
    "null",
    '{"move": []}',
    '{"move": {}, "expected_version": "x"}',
    '{"move": {}, "expected_version": -1}',
    '{"move": "turn", "expected_version": 0}',
    '{"move": {"type": "turn"}, "expected_version": 0}',
    '{"move": {"type": "turn"}, "expected_version": 0, "idempotency_key": "nope"}',
    '{"move": {"type": "turn"}, "expected_version": 99}',
]


@pytest.mark.parametrize("body", BAD_API_BODIES)
def test_malformed_api_moves_are_json_errors(game, client, body):
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    response = client.post(reverse("api-game-move", args=[game.pk]), data=body, content_type="application/json")
    assert response.status_code in (400, 409), (body, response.status_code, response.content)
    payload = response.json()
    assert {"error", "detail"} <= set(payload) <= {"error", "detail", "fields"}
    assert Move.objects.count() == 0


def test_api_statuses_and_messages(game, client, user_factory):
    seat, view = awaited_human(game)
    move = view.legal_moves[0]
    client.force_login(user_factory(username="outsider"))
    response = api_move(client, game, {"move": move, "expected_version": 0})
    assert response.status_code == 403 and response.json()["error"] == "not_seated"
    client.force_login(not_awaited_seat(game).user)
    response = api_move(client, game, {"move": move, "expected_version": 0})
    assert response.status_code == 403 and response.json()["error"] == "not_your_turn"
    client.force_login(seat.user)
    response = api_move(client, game, {"move": {"type": "nonsense"}, "expected_version": 0})
    assert response.status_code == 400 and response.json()["error"] == "illegal_move"
    key = str(uuid.uuid4())
    ok = api_move(client, game, {"move": move, "expected_version": 0, "idempotency_key": key})
    assert ok.status_code == 200 and ok.json() == {"applied": True, "sequence": 1, "version": 1}
    again = api_move(client, game, {"move": move, "expected_version": 0, "idempotency_key": key})
    assert again.status_code == 200 and again.json()["applied"] is False
    stale = api_move(client, game, {"move": move, "expected_version": 0})
    assert stale.status_code == 409
    assert stale.json() == {"error": "stale", "detail": "The game has moved on since you loaded the page."}
    client.logout()
    assert api_move(client, game, {"move": move, "expected_version": 1}).status_code in (401, 403)


def test_api_schema_and_docs_are_served(client):
    schema = client.get(reverse("api-schema"))
    assert schema.status_code == 200
    text = schema.content.decode()
    assert "/api/games/{game_id}/moves/" in text and "expected_version" in text
    docs = client.get(reverse("api-docs"))
    assert docs.status_code == 200
    html = docs.content.decode()
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html
    assert "<script>" not in html  # CSP: no inline code
    script = client.get(reverse("api-docs") + "?script=")
    assert script.status_code == 200


def test_private_games_are_seen_only_by_their_players_and_link_holders(players, client, user_factory):
    game = start_game("marumiere", players[:2], bots=1, visibility="private")
    stranger = user_factory(username="nosy")
    client.force_login(stranger)
    for name in ("game", "game-table", "game-log"):
        assert client.get(reverse(name, args=[game.pk])).status_code == 404
    assert client.get(reverse("api-game", args=[game.pk])).status_code == 404
    # Links stop working when the game starts (issue 15): a holder who took no seat sees nothing.
    assert client.get(reverse("game-invite-link", args=["forged"])).status_code == 404
    client.logout()
    public = start_game("marumiere", players[2:4], bots=1)
    assert client.get(reverse("game", args=[public.pk])).status_code == 200
    assert client.get(reverse("api-game", args=[public.pk])).json()["seat"] is None


def test_lobby_create_join_leave_cancel_and_invite(players, client):
    sent = []
    signals.invitation_created.connect(lambda sender, invitation, **kw: sent.append(invitation), weak=False)
    creator, friend, other = players[:3]
    client.force_login(creator)
    response = client.post(
        reverse("game-create"),
        {
            "engine_slug": "mamma-mia",
            "players": 3,
            "bots": 0,
            "time_limit_hours": 24,
            "visibility": "public",
            "opt_mamma_mia_memory": "open",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    game = Game.objects.get()
    assert game.options == {"memory": "open"} and game.status == GameStatus.OPEN
    assert client.get(reverse("lobby"), {"game": "mamma-mia"}).content.decode().count(f"#{game.pk}") >= 1
    assert f"#{game.pk}" not in client.get(reverse("lobby"), {"game": "konamon"}).content.decode()
    assert client.post(reverse("game-invite", args=[game.pk]), {"username": friend.username}).status_code == 302
    assert Invitation.objects.filter(game=game, user=friend).exists() and len(sent) == 1
    client.force_login(friend)
    assert f"#{game.pk}" in client.get(reverse("my-games")).content.decode()
    client.force_login(other)
    client.post(reverse("game-join", args=[game.pk]))
    client.post(reverse("game-leave", args=[game.pk]))
    assert not Seat.objects.filter(game=game, user=other).exists()
    client.force_login(friend)
    client.post(reverse("game-join", args=[game.pk]))
    client.force_login(other)
    assert client.post(reverse("game-cancel", args=[game.pk])).status_code == 302  # not the creator: refused
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
    client.post(reverse("game-join", args=[game.pk]))
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert sorted(Seat.objects.filter(game=game).values_list("number", flat=True)) == [0, 1, 2]
    assert list(Seat.objects.filter(game=game).order_by("number").values_list("colour", flat=True)) == [
        "green",
        "red",
        "yellow",
    ]
    # Cancelling an open game.
    client.force_login(creator)
    client.post(
        reverse("game-create"),
        {"engine_slug": "konamon", "players": 2, "bots": 0, "time_limit_hours": 0, "visibility": "private"},
    )
    second = Game.objects.exclude(pk=game.pk).get()
    assert client.post(reverse("game-cancel", args=[second.pk])).status_code == 302
    second.refresh_from_db()
    assert second.status == GameStatus.CANCELLED


@pytest.mark.parametrize(
    "data",
    [
        {"engine_slug": "chess", "players": 2},
        {"engine_slug": "konamon", "players": 9, "bots": 0, "time_limit_hours": 0, "visibility": "public"},
        {"engine_slug": "konamon", "players": 2, "bots": 2, "time_limit_hours": 0, "visibility": "public"},
        {"engine_slug": "konamon", "players": 2, "bots": 0, "time_limit_hours": 5, "visibility": "public"},
        {"engine_slug": "marumiere", "players": 2, "bots": 0, "time_limit_hours": 0, "visibility": "x"},
    ],
)
def test_bad_create_forms_are_refused(players, client, data):
    client.force_login(players[0])
    assert client.post(reverse("game-create"), data).status_code == 400
    assert not Game.objects.exists()


def test_seat_order_is_drawn_from_the_seed(players):
    game = start_game("konamon", players[:4])
    state_seed = int(game.state_row.deal_seed)  # the deal's seed: the secret and the contributions (issue 30)
    order = tables.seat_order(state_seed, 4)
    by_join = {s.join_order: s.number for s in Seat.objects.filter(game=game)}
    assert [order.index(j) for j in range(4)] == [by_join[j] for j in range(4)]


def test_replay_does_not_exist_before_the_end(game, client):
    seat, _ = awaited_human(game)
    client.force_login(seat.user)
    assert client.get(reverse("game-replay", args=[game.pk])).status_code == 404
