"""Seats' clocks as turns begin and end: what ``games.tables.update_awaited`` calls when it sets the awaited seats.

These functions change ``Seat`` instances only (the caller writes them, with ``CLOCK_FIELDS``, in the move's
own UPDATE): no query, as long as the seats come with their users (``select_related("user")``), which the
locked table's seats do.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

from clocks.arithmetic import ZERO, ClockKind, Pauses, TimeControl, deadline, quiet_weekdays, time_left

# The Seat fields a turn's start or end changes (besides awaited / awaited_since).
CLOCK_FIELDS = ["clock_left", "clock_read_at", "turn_clock", "deadline_at"]


def user_zone(user) -> dt.tzinfo:
    try:
        return zoneinfo.ZoneInfo(getattr(user, "time_zone", "") or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def pauses_of_user(user) -> Pauses:
    """When ``user``'s clocks stand still from now on: their quiet days (in their zone) and absence."""
    if user is None:
        return Pauses()
    return Pauses(
        quiet_days=quiet_weekdays(getattr(user, "quiet_days", 0) or 0),
        zone=user_zone(user),
        away_until=user.away_until,
    )


def pauses_of(seat) -> Pauses:
    """A bot's clock never pauses; a player's follows their quiet days and absence."""
    return pauses_of_user(seat.user if seat.user_id and not seat.is_bot else None)


def start_turn(seat, control: TimeControl, now: dt.datetime) -> None:
    """The game awaits ``seat`` from ``now``: its clock starts from the turn's reading."""
    reading = control.turn_reading(seat.clock_left)
    if reading is None:
        seat.clock_left = seat.clock_read_at = seat.turn_clock = seat.deadline_at = None
        return
    seat.clock_left, seat.clock_read_at, seat.turn_clock = reading, now, reading
    seat.deadline_at = deadline(now, reading, pauses_of(seat))


def reading_now(seat, now: dt.datetime, pauses: Pauses | None = None) -> dt.timedelta | None:
    """What ``seat``'s running clock shows at ``now`` (``None`` when it is stopped or there is none)."""
    if seat.clock_read_at is None or seat.clock_left is None:
        if seat.deadline_at is not None:  # a turn from before clocks had readings: its deadline is all there is
            return max(ZERO, seat.deadline_at - now)
        return None
    return time_left(left=seat.clock_left, read_at=seat.clock_read_at, now=now, pauses=pauses or pauses_of(seat))


def stop_turn(seat, control: TimeControl, now: dt.datetime, *, turn_over: bool) -> None:
    """``seat`` has played (``turn_over``: and the game no longer awaits it) or is no longer awaited: its clock
    stops; a bank keeps what is left (plus the increment when the turn is over, up to the cap)."""
    left = reading_now(seat, now)
    if control.kind == ClockKind.BANK:
        seat.clock_left = control.bank_after(left=left if left is not None else ZERO, turn_over=turn_over)
    else:
        seat.clock_left = None
    seat.clock_read_at = seat.turn_clock = seat.deadline_at = None


def after_timeout(seat, control: TimeControl) -> list[str]:
    """The bot moved for ``seat`` because its clock ran out: a bank starts again from the initial bank (when the
    seat is still awaited, the running turn's clock is left alone). The fields changed."""
    if control.kind != ClockKind.BANK or seat.awaited:
        return []
    seat.clock_left = control.bank_after_timeout()
    return ["clock_left"]


def reread(seat, now: dt.datetime, pauses: Pauses) -> None:
    """Take the running clock's reading at ``now`` under the pauses in force until now (before a player's quiet
    days, time zone or absence change), so that the change counts from now on only."""
    left = reading_now(seat, now, pauses)
    if left is None:
        return
    seat.clock_left, seat.clock_read_at = left, now
    if seat.turn_clock is None:
        seat.turn_clock = left


def recompute_deadline(seat, pauses: Pauses) -> None:
    """The running clock's deadline under ``pauses`` (after ``reread``)."""
    if seat.clock_read_at is not None and seat.clock_left is not None:
        seat.deadline_at = deadline(seat.clock_read_at, seat.clock_left, pauses)
