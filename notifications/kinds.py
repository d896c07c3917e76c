"""The message kinds of the games platform that this app tells players about, registered in ``ready()``.

Your move, the daily digest, deadline reminders, time-outs, invitations, a game started, finished or called
off. Other apps register theirs (together: chat and table news; trust: account mail; reach: a webhook turned
off, the answer to a move by e-mail; competition: league news).
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import NotifyMode
from live import presence
from notifications import emails
from notifications.models import OutboxEmail
from notifications.outbox import MessageKind, register_kind, wants_game_mail


def _seat_of(row):
    """The row's seat (the batch's if the caller loaded them: ``row.game_seats``), or None."""
    from games.models import Seat

    number = row.payload.get("seat_number")
    seats = getattr(row, "game_seats", None)
    if seats is None:
        return Seat.objects.filter(game_id=row.game_id, number=number).first()
    return next((s for s in seats if s.number == number), None)


def turn_over(row, *, quiet: bool = True) -> str | None:
    """Why a "your move" message or a reminder (any channel) is no longer worth sending, or None.

    Held ones (``payload["held"]``, on channels for people) are also dropped when their reader is at the table.
    """
    from games.models import GameStatus

    game = row.game
    if game is None or game.status != GameStatus.ACTIVE:
        return "game no longer active"
    seat = _seat_of(row)
    since = parse_datetime(row.payload.get("awaited_since") or "")
    if seat is None or not seat.awaited or seat.user_id != row.user_id or seat.is_bot:
        return "seat no longer awaited"
    if since is not None and seat.awaited_since != since:
        return "that turn is over"
    if quiet and row.payload.get("held"):
        return at_the_table(seat, version=row.payload.get("version") or 0)
    return None


def at_the_table(seat, *, version: int) -> str | None:
    """Whether ``seat``'s player is at the table by the evidence: a page has shown them ``version`` (or later),
    or a live stream of the game is open in their browser now (any web process: ``live.presence``)."""
    from games.models import Seat

    if seat.last_seen_version >= version:
        return "seen on the open page"  # a page of this version (or later) was shown to the player meanwhile
    if presence.stream_open(game_id=seat.game_id, user_id=seat.user_id):
        # Sitting at the table is a visit: "once until I visit" starts afresh, as when a page is opened.
        Seat.objects.filter(pk=seat.pk).update(last_visited_at=timezone.now())
        return "at the table (live stream open)"
    return None


def started_over(row, *, quiet: bool = True) -> str | None:
    """A "game started" that told a first player "your move" (``payload["held"]``) is dropped like a "your move":
    if by then they moved, the turn is over, or (on a channel for people) they are at the table. The others'
    "game started" (not awaited) always goes."""
    if not row.payload.get("held"):
        return None
    reason = turn_over(row, quiet=False)
    if reason is not None or not quiet:
        return reason
    seat = _seat_of(row)
    # A seat holds version 0 before any page showed it the game, and a waiting game's page shows version 0 too:
    # only a visit since the start shows the started position; else a later one (or the stream) is the evidence.
    seen_since_start = seat.last_visited_at is not None and seat.last_visited_at >= row.created_at
    version = row.payload.get("version") or 0
    return at_the_table(seat, version=version if seen_since_start else version + 1)


def reminder_obsolete(row, *, quiet: bool = True) -> str | None:
    """A reminder keeps its timing (it is about the clock), but is not sent to a player at the table with the
    game open: a live stream of it, or a page that showed the current position within the hold."""
    reason = turn_over(row, quiet=False)
    if reason is not None or not quiet:
        return reason
    seat = _seat_of(row)
    if presence.stream_open(game_id=seat.game_id, user_id=seat.user_id):
        return "at the table (live stream open)"
    recently = timezone.now() - dt.timedelta(seconds=settings.TURN_NOTIFY_HOLD_SECONDS)
    if (
        settings.TURN_NOTIFY_HOLD_SECONDS
        and seat.last_visited_at is not None
        and seat.last_visited_at >= recently
        and seat.last_seen_version >= row.game.version
    ):
        return "at the table (the page showed this position just now)"
    return None


def wants_turn_email(user) -> bool:
    return wants_game_mail(user) and user.notify_mode in (NotifyMode.EVERY_TIME, NotifyMode.ONCE_UNTIL_VISIT)


def register() -> None:
    Kind = OutboxEmail.Kind
    for name, audience, render, prepare in (
        (Kind.TURN, "game", emails.render_turn, turn_over),
        (Kind.DIGEST, "game", emails.render_digest, None),
        (Kind.STARTED, "game", emails.render_started, started_over),
        (Kind.FINISHED, "game", emails.render_finished, None),
        (Kind.CANCELLED, "game", emails.render_cancelled, None),
        (Kind.INVITATION, "game", emails.render_invitation, None),
        (Kind.REMINDER, "deadline", emails.render_reminder, reminder_obsolete),
        (Kind.TIMEOUT, "deadline", emails.render_timeout, None),
    ):
        register_kind(MessageKind(str(name), audience, render_email=render, prepare=prepare,
                                  wants_email=wants_turn_email if name == Kind.TURN else None))
