"""Outages cost nothing (account e-mails wait in the outbox, bot turns survive a broker outage); headers that
keep a player's cards out of caches; the deploy check for a per-process cache."""

from __future__ import annotations

import datetime as dt
import socket

import pytest
import time_machine
from aiosmtpd.controller import Controller
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.urls import reverse
from game_helpers import awaited_human, start_game

from games import tasks as game_tasks
from games.models import Move
from notifications.models import OutboxEmail


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Inbox:
    def __init__(self) -> None:
        self.messages: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        self.messages.append(envelope.content)
        return "250 OK"


def smtp_settings(port: int) -> dict:
    return {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 2},
        }
    }


@pytest.mark.django_db(transaction=True)
def test_sign_up_while_the_smtp_server_is_down_loses_no_email(client, settings):
    port = free_port()  # nothing listens there
    settings.MAILERS = smtp_settings(port)
    response = client.post(
        reverse("account_signup"),
        {
            "email": "ada@example.com",
            "username": "ada",
            "password1": "a fine long passphrase",
            "password2": "a fine long passphrase",
        },
    )
    assert response.status_code == 302
    row = OutboxEmail.objects.get(kind=OutboxEmail.Kind.ACCOUNT)
    assert row.status == OutboxEmail.Status.PENDING and row.attempts == 1 and row.last_error
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        OutboxEmail.objects.filter(pk=row.pk).update(next_attempt_at=row.created_at)
        from notifications.delivery import sweep

        assert sweep() == {"sent": 1}
    finally:
        controller.stop()
    assert len(inbox.messages) == 1
    assert b"ada@example.com" in inbox.messages[0] and b"/accounts/confirm-email/" in inbox.messages[0]


@pytest.mark.django_db
def test_a_move_that_hands_the_turn_to_a_bot_survives_a_broker_outage(
    players, client, monkeypatch, django_capture_on_commit_callbacks, settings
):
    from kombu.exceptions import OperationalError

    with django_capture_on_commit_callbacks(execute=True):  # a bot seated first makes its move now
        game = start_game("marumiere", players[:1], bots=1)
    game.refresh_from_db()
    seat, view = awaited_human(game)
    assert seat is not None, "the human is awaited, after the bot's first move if the bot sat first"
    before = Move.objects.filter(game=game).count()

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(game_tasks.play_bot_moves, "apply_async", broker_down)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    client.force_login(seat.user)
    import json

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("game-move", args=[game.pk]), {"move": json.dumps(view.legal_moves[0]), "version": game.version}
        )
    assert response.status_code == 302
    assert Move.objects.filter(game=game).count() == before + 1
    monkeypatch.undo()
    from notifications.deadlines import check_deadlines

    bot_moves = Move.objects.filter(game=game, made_by="bot").count()

    with time_machine.travel(dt.datetime.now(tz=dt.UTC) + dt.timedelta(minutes=3)):
        check_deadlines()
    assert Move.objects.filter(game=game, made_by="bot").count() > bot_moves


def test_pages_with_ones_own_cards_are_not_stored_and_a_permissions_policy_is_sent(players, client):
    game = start_game("mamma-mia", players[:3])
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    for url in (
        reverse("game", args=[game.pk]),
        reverse("api-game", args=[game.pk]),
        reverse("game-log", args=[game.pk]),
    ):
        response = client.get(url)
        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"], url
        assert "camera=()" in response["Permissions-Policy"]
    assert "Permissions-Policy" in client.get(reverse("lobby")).headers


def test_check_deploy_warns_when_the_cache_is_per_process(db):
    from django.test import override_settings

    from trust.checks import shared_cache_check

    per_process = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    with override_settings(CACHES=per_process), pytest.raises(SystemCheckError, match="trust.W001"):
        call_command("check", "--deploy", "--fail-level", "WARNING", "--tag", "security")
    shared = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1"}}
    with override_settings(CACHES=shared):
        assert shared_cache_check() == []


@pytest.mark.django_db
def test_creating_a_game_whose_first_turn_is_a_bots_survives_a_broker_outage(
    players, client, monkeypatch, django_capture_on_commit_callbacks, settings
):
    from kombu.exceptions import OperationalError

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to the broker. Connection refused.")

    monkeypatch.setattr(game_tasks.play_bot_moves, "apply_async", broker_down)
    settings.CELERY_TASK_ALWAYS_EAGER = False
    client.force_login(players[0])
    form = {"engine_slug": "konamon", "players": 4, "bots": 3, "time_limit_hours": 0, "visibility": "public"}
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("game-create"), form)
    assert response.status_code == 302
    from games.models import Game, Seat

    game = Game.objects.get()
    assert game.status == "active"
    monkeypatch.undo()
    if Seat.objects.filter(game=game, awaited=True, is_bot=True).exists():
        from notifications.deadlines import check_deadlines

        with time_machine.travel(dt.datetime.now(tz=dt.UTC) + dt.timedelta(minutes=3)):
            check_deadlines()
        assert not Seat.objects.filter(game=game, awaited=True, is_bot=True).exists()


@pytest.mark.django_db(transaction=True)
def test_a_reset_request_for_an_unknown_address_goes_through_the_outbox_too(client, settings, eager_celery):
    from django.core import mail

    response = client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    assert response.status_code == 302
    row = OutboxEmail.objects.get(kind=OutboxEmail.Kind.ACCOUNT)
    assert row.user is None and row.status == OutboxEmail.Status.SENT
    assert [m.to for m in mail.outbox] == [["nobody@example.com"]]
