"""Receivers of the games platform's signals for push and webhooks (e-mail has its own in notifications).

"Your move" by push follows the same quiet rules as the e-mail: ``notifications.receivers`` publishes it to
every channel for people, with the hold, presence, and "once until I visit" for all but "every time" readers
(whatever they chose for e-mail), counted apart from e-mails (``SeatNotice.turn_push_at``). A push
notification of a game replaces the previous one of that game (its tag). Webhooks hear every turn at once: a
bot or a chat relay cannot "visit", and needs each one. The other events (a game started, finished, called off,
an invitation, a time-out) go to both. Each receiver runs in a savepoint and never raises: a bug here costs a
notification, never a move.
"""

from __future__ import annotations

import datetime as dt
import logging
from functools import wraps

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from games import signals
from games.models import GameStatus, MadeBy, Seat, SeatView
from notifications.models import SeatNotice
from notifications.texts import move_types
from reach.fanout import Event, queue_events
from reach.models import Channel, EventKind

logger = logging.getLogger(__name__)


def guarded(func=None, *, savepoint: bool = True):
    """Log and swallow a receiver's errors so the move stands. With ``savepoint``, its queries run in a
    savepoint (a failed query must not abort the move's transaction); without, the receiver promises to
    query only through ``queue_events``, which takes its own savepoint when it has work (the common move
    of players without push or webhooks then costs no statement at all)."""
    if func is None:
        return lambda f: guarded(f, savepoint=savepoint)

    @wraps(func)
    def wrapper(*args, **kwargs):
        try:
            if savepoint:
                with transaction.atomic():
                    func(*args, **kwargs)
            else:
                func(*args, **kwargs)
        except Exception:
            logger.exception("reach: %s failed; the change stands, its push/webhook deliveries are lost",
                             func.__name__)

    return wrapper


def _human(seat) -> bool:
    return not seat.is_bot and seat.user_id is not None


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


@receiver(signals.game_started, dispatch_uid="reach.game_started")
@guarded
def on_game_started(sender, game, seats, **kwargs):
    humans = [seat for seat in seats if _human(seat)]
    legal = dict(
        SeatView.objects.filter(game=game, seat_number__in=[s.number for s in humans if s.awaited])
        .values_list("seat_number", "legal_moves")
    ) if any(s.awaited for s in humans) else {}
    hold = dt.timedelta(seconds=settings.TURN_NOTIFY_HOLD_SECONDS)

    def event(seat, *, push: bool) -> Event:
        payload = {
            "seat_number": seat.number, "awaited": seat.awaited, "version": game.version,
            "move_types": move_types(legal.get(seat.number)), "deadline_at": _iso(seat.deadline_at),
        }
        held = push and seat.awaited and bool(hold)
        if held:
            # The first players' "your move" push: held and dropped like one (notifications.kinds.started_over).
            payload.update(held=True, awaited_since=_iso(seat.awaited_since))
        return Event(seat.user, EventKind.STARTED, f"started:{game.pk}:{seat.number}", game, payload,
                     delay=hold if held else None)

    pushes = [event(seat, push=True) for seat in humans]
    queue_events(pushes, savepoint=False, transports=(Channel.PUSH,))  # @guarded: in a savepoint
    # Webhooks, for programs, hear it at once.
    queue_events([event(seat, push=False) for seat in humans], savepoint=False, transports=(Channel.WEBHOOK,))
    # For the first players, "the game started" was their "your move" push.
    _pushed_turns(game, [e.payload["seat_number"] for e in pushes if e.pushed and e.payload["awaited"]])


def _pushed_turns(game, numbers: list[int]) -> None:
    """Remember when these seats were last pushed "your move" ("once until I visit")."""
    if numbers:
        now = timezone.now()
        SeatNotice.objects.bulk_create(
            [SeatNotice(game=game, seat_number=number, turn_push_at=now) for number in numbers],
            update_conflicts=True, unique_fields=["game", "seat_number"], update_fields=["turn_push_at"],
        )


@receiver(signals.game_advanced, dispatch_uid="reach.game_advanced")
@guarded(savepoint=False)
def on_game_advanced(sender, game, newly_awaited_seats, moves, **kwargs):
    """Webhooks hear every turn at once (a program cannot "visit"); people hear "your move" by e-mail and push
    under the quiet rules, from ``notifications.receivers``."""
    if game.status != GameStatus.ACTIVE or not moves:
        return  # at the start, the "game started" event told the first players
    acted = {move.seat_number for move in moves if move.made_by == MadeBy.PLAYER}
    recipients = [seat for seat in newly_awaited_seats
                  if _human(seat) and seat.number not in acted and seat.user.uses_channels]
    if not recipients:
        return
    fresh = kwargs.get("seat_views") or {}
    legal = {n: view.legal_moves for n, view in fresh.items() if n is not None}
    missing = [s.number for s in recipients if s.number not in legal]
    with transaction.atomic():  # one savepoint for every query of this receiver
        if missing:
            legal.update(SeatView.objects.filter(game=game, seat_number__in=missing)
                         .values_list("seat_number", "legal_moves"))
        events = [
            Event(seat.user, EventKind.TURN, f"turn:{game.pk}:{seat.number}:{game.version}", game, {
                "seat_number": seat.number, "version": game.version, "awaited_since": _iso(seat.awaited_since),
                "deadline_at": _iso(seat.deadline_at), "move_types": move_types(legal.get(seat.number)),
            }, push=False)
            for seat in recipients
        ]
        queue_events(events, savepoint=False, transports=(Channel.WEBHOOK,))


@receiver(signals.game_finished, dispatch_uid="reach.game_finished")
@guarded
def on_game_finished(sender, game, **kwargs):
    seats = Seat.objects.filter(game=game, user__isnull=False, is_bot=False).select_related("user")
    queue_events([
        Event(seat.user, EventKind.FINISHED, f"finished:{game.pk}:{seat.number}", game,
              {"seat_number": seat.number, "version": game.version})
        for seat in seats
    ])


@receiver(signals.game_cancelled, dispatch_uid="reach.game_cancelled")
@guarded
def on_game_cancelled(sender, game, **kwargs):
    seats = Seat.objects.filter(game=game, user__isnull=False).exclude(user_id=game.created_by_id) \
        .select_related("user")
    queue_events([Event(seat.user, EventKind.CANCELLED, f"cancelled:{game.pk}:{seat.user_id}", game, {})
                  for seat in seats])


@receiver(signals.invitation_created, dispatch_uid="reach.invitation_created")
@guarded
def on_invitation_created(sender, invitation, **kwargs):
    inviter = invitation.invited_by
    stamp = int(timezone.now().timestamp() * 1000)
    queue_events([Event(invitation.user, EventKind.INVITATION, f"invitation:{invitation.pk}:{stamp}",
                        invitation.game, {"invited_by": inviter.public_name if inviter else ""})])


@receiver(signals.seat_timed_out, dispatch_uid="reach.seat_timed_out")
@guarded
def on_seat_timed_out(sender, game, seat, dropped_out, **kwargs):
    if not seat.user_id:
        return
    queue_events([Event(seat.user, EventKind.TIMEOUT, f"timeout:{game.pk}:{seat.number}:{game.version}", game,
                        {"seat_number": seat.number, "dropped_out": bool(dropped_out)})])
