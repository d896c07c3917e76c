"""Invitation, game-finished (with the ranking) and game-cancelled e-mails."""

from __future__ import annotations

import pytest
from django.core import mail
from notify_helpers import play, start_game

from accounts.models import NotifyMode
from games.lobby import services as lobby_services
from games.models import GameStatus
from notifications.models import OutboxEmail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


def test_an_invitation_by_username_sends_an_email(players, run_on_commit):
    host, guest = players[0], players[1]
    game = lobby_services.create_game(user=host, engine_slug="mamma-mia", players=3, visibility="private")
    with run_on_commit():
        lobby_services.invite_user(user=host, game_id=game.pk, username=guest.username)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [guest.email]
    assert message.subject == "Player 0 invites you to play Mamma Mia!"
    assert f"https://play.example/games/{game.pk}/" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_no_invitation_email_for_someone_who_wants_none(players, run_on_commit):
    players[1].notify_mode = NotifyMode.NEVER
    players[1].save()
    game = lobby_services.create_game(user=players[0], engine_slug="mamma-mia", players=3)
    with run_on_commit():
        lobby_services.invite_user(user=players[0], game_id=game.pk, username=players[1].username)
    assert mail.outbox == []


def test_the_end_of_a_game_sends_everyone_the_ranking(players, run_on_commit):
    with run_on_commit():
        game = start_game("marumiere", players[:2])
    for _ in range(500):
        if game.status != GameStatus.ACTIVE:
            break
        play(game)
    assert game.status == GameStatus.FINISHED
    mail.outbox.clear()
    rows = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.FINISHED)
    assert sorted(rows.values_list("user", flat=True)) == sorted(p.pk for p in players[:2])
    from notifications.tasks import deliver_pending_notifications

    deliver_pending_notifications()
    finished = [m for m in mail.outbox if " is over" in m.subject]
    assert len(finished) == 2
    for message in finished:
        assert message.subject.startswith(f"マルミエール #{game.pk} is over") or " is over" in message.subject
        for player in players[:2]:
            assert player.public_name in message.body
        assert "(you)" in message.body
    # Turn e-mails for a game that ended are not sent.
    assert not OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TURN, status=OutboxEmail.Status.PENDING).exists()


def test_calling_a_game_off_tells_those_who_had_joined(players, run_on_commit):
    game = lobby_services.create_game(user=players[0], engine_slug="mamma-mia", players=3)
    lobby_services.join_game(user=players[1], game_id=game.pk)
    with run_on_commit():
        lobby_services.cancel_game(user=players[0], game_id=game.pk)
    assert [m.to for m in mail.outbox] == [[players[1].email]]
    assert "was called off" in mail.outbox[0].subject
