"""Deadlines, reminders, time-outs and the daily digest (run from Celery beat).

Every awaited seat of a timed game has a running clock and ``Seat.deadline_at``,
the moment it reaches zero (``clocks``: per move or bank, paused on the player's
quiet days and absence).

Reminders escalate on the clock's own time: when half of what it showed at the
start of the turn is gone, then when 4 hours and 1 hour remain, keeping only the
stages that come after half time (a 6-hour clock: half time at 3 h left, then
1 h). Each stage is sent at most once per turn; if the check runs late and
several stages are due at once, only the most urgent one goes. No reminders
while the clock stands still (a quiet day, an absence), or if the player turned
reminders off (each channel has its own switch: e-mail the reminders switch of
Settings, push and webhooks theirs on the channels page).

When the time is up, ``games.play.services.play_timeout_move`` plays the bot's move
for the seat (it records the timeout, tells everyone, and hands the seat to the
bot after the third). Bot seats that have been awaited for a while (a lost bot
task) are played here as well: games never stall.
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import NotifyMode
from clocks import reminders as clock_reminders
from clocks.arithmetic import reminder_stage
from notifications.models import DeadlineReminder, OutboxEmail
from notifications.outbox import Draft, publish, queue, wants_game_mail, wants_reminders
from notifications.texts import move_types

logger = logging.getLogger(__name__)

STALLED_BOT_AFTER = dt.timedelta(minutes=2)
TIMEOUTS_PER_RUN = 200

# The digest goes once per local day, at the first check from DIGEST_HOUR on
# when a game awaits the user; never at night (DIGEST_LAST_HOUR).
DIGEST_HOUR = 8
DIGEST_LAST_HOUR = 21


def due_stage(*, deadline, limit: dt.timedelta, now) -> int | None:
    """The most urgent reminder stage due now for a clock that never pauses, with this deadline and limit."""
    stage = reminder_stage(left=deadline - now, turn_reading=limit)
    return DeadlineReminder.Stage(stage) if stage is not None else None


def check_deadlines(*, now=None) -> dict[str, int]:
    now = now or timezone.now()
    counts = {"reminders": 0, "timeouts": 0, "bots": 0}
    counts["reminders"] = _send_reminders(now)
    counts["timeouts"] = _play_timeouts(now)
    counts["bots"] = _unstall_bots(now)
    return counts


def _awaited_with_deadline():
    from games.models import GameStatus, Seat

    return Seat.objects.filter(
        awaited=True, is_bot=False, user__isnull=False, deadline_at__isnull=False, game__status=GameStatus.ACTIVE
    )


def _send_reminders(now) -> int:
    from games.models import SeatView

    # Each channel has its own switch: e-mail the reminders switch of Settings, push and webhooks theirs on the
    # channels page (``reach``, which looks them up only for players who use those channels at all).
    seats = list(
        _awaited_with_deadline()
        .filter(deadline_at__gt=now)
        .filter(
            Q(user__deadline_reminders=True, user__email_undeliverable_since__isnull=True)
            | Q(user__uses_channels=True)
        )
        .select_related("user", "game")
    )
    due = []
    for seat in seats:
        if seat.user.is_away(now=now) or not (wants_reminders(seat.user) or seat.user.uses_channels):
            continue
        stage = clock_reminders.due_stage(seat=seat, now=now)
        if stage is not None:
            due.append((seat, stage))
    if not due:
        return 0
    sent_max: dict[tuple, int] = {}
    for seat_id, since, stage in DeadlineReminder.objects.filter(seat__in=[s for s, _ in due]).values_list(
        "seat_id", "awaited_since", "stage"
    ):
        sent_max[(seat_id, since)] = max(stage, sent_max.get((seat_id, since), 0))
    count = 0
    for seat, stage in due:
        if sent_max.get((seat.pk, seat.awaited_since), 0) >= stage:
            continue
        legal = SeatView.objects.filter(game=seat.game, seat_number=seat.number).values_list(
            "legal_moves", flat=True
        ).first()
        with transaction.atomic():
            _, created = DeadlineReminder.objects.get_or_create(
                seat=seat, awaited_since=seat.awaited_since, stage=stage
            )
            if not created:
                continue
            payload = {
                "seat_number": seat.number,
                "stage": int(stage),
                "awaited_since": seat.awaited_since.isoformat(),
                "deadline_at": seat.deadline_at.isoformat(),
                "move_types": move_types(legal or []),
            }
            key = f"reminder:{seat.pk}:{int(seat.awaited_since.timestamp() * 1000)}:{int(stage)}"
            # Every channel: e-mail if the reminders switch is on, push and webhooks by their own switches.
            written = publish([Draft(seat.user, OutboxEmail.Kind.REMINDER, key, seat.game, payload)])
            if any(written.values()):
                count += 1
    return count


def _play_timeouts(now) -> int:
    from games.play.services import play_timeout_move

    overdue = list(
        _awaited_with_deadline()
        .filter(deadline_at__lte=now)
        .select_related("user", "game")
        .order_by("deadline_at")[:TIMEOUTS_PER_RUN]
    )
    count = 0
    for seat in overdue:
        if seat.user.is_away(now=now):
            continue  # paused (set_away moved the deadline; this only guards a race with it)
        try:
            moves = play_timeout_move(
                game_id=seat.game_id, seat_number=seat.number, expected_version=seat.game.version, due_by=now
            )
        except Exception:
            logger.exception("timeout move failed for game %s seat %s", seat.game_id, seat.number)
            continue
        if moves:
            count += 1
            logger.info("game %s seat %s: time ran out, %s move(s) played", seat.game_id, seat.number, len(moves))
    return count


def _unstall_bots(now) -> int:
    """Bot seats awaited for too long (their task was lost): play them here."""
    from games.models import GameStatus, Seat
    from games.play.services import play_bot_turns

    stalled = (
        Seat.objects.filter(
            awaited=True, is_bot=True, game__status=GameStatus.ACTIVE, awaited_since__lte=now - STALLED_BOT_AFTER
        )
        .values_list("game_id", "game__version")
        .distinct()
    )
    count = 0
    for game_id, version in stalled:
        try:
            count += play_bot_turns(game_id=game_id, expected_version=version)
        except Exception:
            logger.exception("stalled bot moves failed for game %s", game_id)
    return count


# Daily digest --------------------------------------------------------------------


def _zone(name: str):
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def send_due_digests(*, now=None) -> int:
    """Queue today's digest for every digest user whose local time is past DIGEST_HOUR and who has games awaiting."""
    from games.models import GameStatus, Seat, SeatView

    now = now or timezone.now()
    users = (
        get_user_model()
        .objects.filter(
            notify_mode=NotifyMode.DAILY_DIGEST,
            is_active=True,
            email_undeliverable_since__isnull=True,
            seats__awaited=True,
            seats__is_bot=False,
            seats__game__status=GameStatus.ACTIVE,
        )
        .distinct()
    )
    count = 0
    for user in users:
        local = now.astimezone(_zone(user.time_zone))
        if not DIGEST_HOUR <= local.hour < DIGEST_LAST_HOUR or not wants_game_mail(user):
            continue
        key = f"digest:{user.pk}:{local.date().isoformat()}"
        if OutboxEmail.objects.filter(dedupe_key=key).exists():
            continue
        seats = list(
            Seat.objects.filter(user=user, awaited=True, is_bot=False, game__status=GameStatus.ACTIVE)
            .select_related("game")
            .order_by("deadline_at", "awaited_since")
        )
        if not seats:
            continue
        pairs = Q()
        for seat in seats:
            pairs |= Q(game_id=seat.game_id, seat_number=seat.number)
        legal = {
            (game_id, number): moves
            for game_id, number, moves in SeatView.objects.filter(pairs).values_list(
                "game_id", "seat_number", "legal_moves"
            )
        }
        payload = {
            "games": [
                {
                    "game_id": seat.game_id,
                    "seat_number": seat.number,
                    "awaited_since": seat.awaited_since.isoformat() if seat.awaited_since else None,
                    "deadline_at": seat.deadline_at.isoformat() if seat.deadline_at else None,
                    "move_types": move_types(legal.get((seat.game_id, seat.number)) or []),
                }
                for seat in seats
            ]
        }
        with transaction.atomic():
            if queue([Draft(user, OutboxEmail.Kind.DIGEST, key, None, payload)]):
                count += 1
    return count
