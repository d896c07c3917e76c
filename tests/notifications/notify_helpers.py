"""Helpers of the notification tests (imported by the test modules)."""

from __future__ import annotations

import smtplib

from django.core.mail.backends.base import BaseEmailBackend

# The platform tests' game helpers, under the names the notification tests use.
from tests.games.game_helpers import awaited_human as awaited
from tests.games.game_helpers import start_game  # noqa: F401 - re-exported


class ScriptedBackend(BaseEmailBackend):
    """A mail backend that records messages and raises the scripted errors first, one per send.

    ``refused``: address -> (SMTP code, message) the server refuses at RCPT. ``connections``: how many
    times a connection was opened.
    """

    sent: list = []
    errors: list = []
    refused: dict = {}
    connections = 0

    @classmethod
    def reset(cls) -> None:
        cls.sent = []
        cls.errors = []
        cls.refused = {}
        cls.connections = 0

    def open(self):
        if getattr(self, "is_open", False):
            return False
        self.is_open = True
        ScriptedBackend.connections += 1
        return True

    def close(self):
        self.is_open = False

    def send_messages(self, email_messages):
        if ScriptedBackend.errors:
            raise ScriptedBackend.errors.pop(0)
        for message in email_messages:
            refused = {to: ScriptedBackend.refused[to] for to in message.to if to in ScriptedBackend.refused}
            if refused:
                raise smtplib.SMTPRecipientsRefused(refused)
        new = self.open()
        ScriptedBackend.sent.extend(email_messages)
        if new:
            self.close()
        return len(email_messages)


def play(game, *, index=0):
    """The awaited human seat plays its ``index``-th legal move; returns the seat that moved."""
    from games.play import services as play_services

    game.refresh_from_db()
    seat, view = awaited(game)
    assert seat is not None, "no human seat is awaited"
    play_services.check_play_move(
        user=seat.user, game_id=game.pk, move=view.legal_moves[index], expected_version=game.version
    )
    game.refresh_from_db()
    return seat


def visit(seat):
    from games.play import services as play_services

    seat.refresh_from_db()
    play_services.mark_visited(seat_id=seat.pk, version=seat.game.version)
