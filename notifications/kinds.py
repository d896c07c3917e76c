"""The message kinds of the games platform that this app tells players about, registered in ``ready()``.

Your move, the daily digest, deadline reminders, time-outs, invitations, a game started, finished or called
off. Other apps register theirs (together: chat and table news; trust: account mail; reach: a webhook turned
off, the answer to a move by e-mail; competition: league news).
"""

from __future__ import annotations

from django.utils.dateparse import parse_datetime

from notifications import emails
from notifications.models import OutboxEmail
from notifications.outbox import MessageKind, register_kind


def turn_over(row) -> str | None:
    """Why a "your move" message or a reminder (any channel) is no longer worth sending, or None.

    ``row.game_seats``: the game's seats if the caller loaded them (an e-mail batch does, once for its games).
    """
    from games.models import GameStatus, Seat

    game = row.game
    if game is None or game.status != GameStatus.ACTIVE:
        return "game no longer active"
    number = row.payload.get("seat_number")
    seats = getattr(row, "game_seats", None)
    if seats is None:
        seat = Seat.objects.filter(game=game, number=number).first()
    else:
        seat = next((s for s in seats if s.number == number), None)
    since = parse_datetime(row.payload.get("awaited_since") or "")
    if seat is None or not seat.awaited or seat.user_id != row.user_id or seat.is_bot:
        return "seat no longer awaited"
    if since is not None and seat.awaited_since != since:
        return "that turn is over"
    if row.payload.get("held") and seat.last_seen_version >= (row.payload.get("version") or 0):
        return "seen on the open page"  # a page of this version (or later) was shown to the player meanwhile
    return None


def register() -> None:
    Kind = OutboxEmail.Kind
    for name, audience, render, prepare in (
        (Kind.TURN, "game", emails.render_turn, turn_over),
        (Kind.DIGEST, "game", emails.render_digest, None),
        (Kind.STARTED, "game", emails.render_started, None),
        (Kind.FINISHED, "game", emails.render_finished, None),
        (Kind.CANCELLED, "game", emails.render_cancelled, None),
        (Kind.INVITATION, "game", emails.render_invitation, None),
        (Kind.REMINDER, "deadline", emails.render_reminder, turn_over),
        (Kind.TIMEOUT, "deadline", emails.render_timeout, None),
    ):
        register_kind(MessageKind(str(name), audience, render_email=render, prepare=prepare))
