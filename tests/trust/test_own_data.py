"""Download my data; delete my account."""

from __future__ import annotations

import json

from django.urls import reverse
from game_helpers import awaited_human, start_game

from accounts.models import User
from games.lobby import services as lobby_services
from games.models import Game, GameStatus, Seat
from games.play import services as play_services
from notifications.models import OutboxEmail
from trust.models import ApiToken

PASSWORD = "correct horse battery staple"


def play_to_the_end(game):
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return
        seat, view = awaited_human(game)
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=view.legal_moves[0], expected_version=game.version
        )


def test_the_export_holds_my_account_settings_games_moves_and_only_my_own_view(players, client):
    me, other = players[:2]
    game = start_game("mamma-mia", [me, other, players[2]])
    seat, view = awaited_human(game)
    play_services.check_play_move(user=seat.user, game_id=game.pk, move=view.legal_moves[0], expected_version=0)
    client.force_login(me)
    response = client.get(reverse("account-data-export"))
    assert response.status_code == 200
    assert "attachment" in response["Content-Disposition"]
    assert "no-store" in response["Cache-Control"]
    data = json.loads(response.content)
    assert data["account"]["username"] == me.username and data["account"]["email"] == me.email
    assert data["settings"]["language"] == me.language
    [exported] = data["games"]
    mine = Seat.objects.get(game=game, user=me)
    assert exported["id"] == game.pk and exported["my_seat"] == mine.number
    assert len(exported["players"]) == 3
    from games.models import SeatView

    own = SeatView.objects.get(game=game, seat_number=mine.number).view
    assert {k: v for k, v in exported["my_view"].items() if k not in ("log", "log_size")} == own
    others = SeatView.objects.filter(game=game).exclude(seat_number=mine.number)
    assert all(row.view != own for row in others if row.view != own)  # different seats, different views
    assert all(m["sequence"] for m in exported["my_moves"])
    assert (len(exported["my_moves"]) == 1) == (seat.user == me)


def test_deleting_my_account_keeps_history_hands_running_seats_to_bots_and_stops_email(
    players, client, django_capture_on_commit_callbacks
):
    me = players[0]
    finished = start_game("marumiere", [me, players[1]])
    play_to_the_end(finished)
    running = start_game("mamma-mia", [me, players[1], players[2]])
    mine_open = lobby_services.create_game(user=me, engine_slug="konamon", players=3)
    theirs_open = lobby_services.create_game(user=players[3], engine_slug="konamon", players=3)
    lobby_services.join_game(user=me, game_id=theirs_open.pk)
    client.post(reverse("api-token"), {"username": me.username, "password": PASSWORD})
    assert ApiToken.objects.filter(user=me).exists()
    client.force_login(me)
    assert client.post(reverse("account-delete"), {"password": "wrong"}).status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("account-delete"), {"password": PASSWORD})
    assert response.status_code == 302
    me.refresh_from_db()
    assert not me.is_active and me.email == "" and not me.has_usable_password()
    assert me.public_name == "Deleted player" and me.username.startswith("deleted-")
    assert not ApiToken.objects.filter(user=me).exists()
    assert not OutboxEmail.objects.filter(user=me, status=OutboxEmail.Status.PENDING).exists()
    assert Seat.objects.get(game=finished, user=me).final_rank is not None  # history kept
    running_seat = Seat.objects.get(game=running, user=me)
    assert running_seat.is_bot and running_seat.dropped_out
    running.refresh_from_db()
    # The bot moved for the seat if it was awaited (eager tasks in tests).
    assert not Seat.objects.filter(game=running, user=me, awaited=True).exists()
    assert Game.objects.get(pk=mine_open.pk).status == GameStatus.CANCELLED
    assert not Seat.objects.filter(game=theirs_open, user=me).exists()
    assert client.get(reverse("settings")).status_code == 302  # signed out
    assert client.get(reverse("profile", args=[me.username])).status_code == 404
    assert not client.login(username=me.username, password=PASSWORD)
    assert User.objects.filter(pk=me.pk).exists()


def test_the_export_holds_my_own_notes_and_chat_messages_and_nobody_elses(players, client):
    """Issue 29 item 7: the archive left out what the person wrote themselves at the table."""
    from together import services as together

    me, other = players[:2]
    game = start_game("konamon", [me, other])
    together.save_note(user=me, game_id=game.pk, text="MY-OWN-NOTE")
    together.save_note(user=other, game_id=game.pk, text="THEIR-NOTE")
    together.post_chat_message(user=me, game_id=game.pk, text="MY-OWN-WORDS")
    together.post_chat_message(user=other, game_id=game.pk, text="THEIR-WORDS")
    client.force_login(me)
    data = json.loads(client.get(reverse("account-data-export")).content)
    assert [(n["game"], n["note"]) for n in data["notes"]] == [(game.pk, "MY-OWN-NOTE")]
    assert data["notes"][0]["updated_at"]
    assert [(m["game"], m["text"]) for m in data["chat_messages"]] == [(game.pk, "MY-OWN-WORDS")]
    assert data["chat_messages"][0]["written_at"]
    text = json.dumps(data)
    assert "THEIR-NOTE" not in text and "THEIR-WORDS" not in text
