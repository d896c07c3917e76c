"""Clock arithmetic: the time controls and how a player's clock runs. Pure: no Django, no I/O, no clock of
its own (every function is told what time it is), so every rule can be tested with plain datetimes.

A seat's clock is a *reading* (how much time it shows) and, while it runs, the moment it was read. Between
two readings it loses the *running time*: the wall-clock time minus its *pauses*, which are

- the player's **quiet days**: whole weekdays (midnight to midnight in the player's own time zone, so 23 or
  25 hours on a DST change) on which their clocks do not run, and
- their **absence** (a vacation) until ``away_until``.

Pauses that overlap count once (a vacation over a quiet Sunday pauses that Sunday once). The *deadline* is
the moment the running time reaches the reading. The three controls:

- ``PER_MOVE``: every turn starts with the same reading (today's per-move limit);
- ``BANK``: a turn starts with what the player's bank holds; the running time of the turn is taken from it,
  and when the turn is over the increment is added, never above the cap. A turn that goes on after one's
  own move (a Konamon! card worked step by step) is charged but earns no increment until it ends;
- ``NONE``: no clock.
"""

from __future__ import annotations

import datetime as dt
import heapq
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

ZERO = dt.timedelta(0)
MINUTE = dt.timedelta(minutes=1)
HOUR = dt.timedelta(hours=1)
DAY = dt.timedelta(days=1)
UTC = dt.UTC

# Sane bounds of a custom bank (the presets are within them).
BANK_INITIAL_MIN, BANK_INITIAL_MAX = HOUR, 30 * DAY
BANK_INCREMENT_MAX = 7 * DAY
BANK_CAP_MAX = 60 * DAY
PER_MOVE_MIN, PER_MOVE_MAX = HOUR, 30 * DAY
# More quiet days would let a clock stand still most of the week.
MAX_QUIET_DAYS = 3

# Reminder stages (the values of notifications.models.DeadlineReminder.Stage).
STAGE_THRESHOLDS = ((2, 4 * HOUR), (3, 1 * HOUR))


class InvalidTimeControl(ValueError):
    """A time control outside the bounds above."""


class ClockKind(StrEnum):
    PER_MOVE = "move"
    BANK = "bank"
    NONE = "none"


class Stage(IntEnum):
    HALF = 1
    FOUR_HOURS = 2
    ONE_HOUR = 3


@dataclass(frozen=True)
class TimeControl:
    """How a game's clocks run. Build one with ``per_move()``, ``bank()`` or ``untimed()``; they validate."""

    kind: ClockKind
    per_move_limit: dt.timedelta | None = None
    bank_initial: dt.timedelta | None = None
    bank_increment: dt.timedelta | None = None
    bank_cap: dt.timedelta | None = None

    @classmethod
    def per_move(cls, limit: dt.timedelta) -> TimeControl:
        if not PER_MOVE_MIN <= limit <= PER_MOVE_MAX:
            raise InvalidTimeControl("per-move limit out of bounds")
        return cls(ClockKind.PER_MOVE, per_move_limit=limit)

    @classmethod
    def bank(cls, *, initial: dt.timedelta, increment: dt.timedelta, cap: dt.timedelta) -> TimeControl:
        if not BANK_INITIAL_MIN <= initial <= BANK_INITIAL_MAX:
            raise InvalidTimeControl("initial bank out of bounds")
        if not ZERO <= increment <= BANK_INCREMENT_MAX:
            raise InvalidTimeControl("increment out of bounds")
        if not max(initial, increment) <= cap <= BANK_CAP_MAX:
            raise InvalidTimeControl("cap below the initial bank or the increment, or above the bound")
        return cls(ClockKind.BANK, bank_initial=initial, bank_increment=increment, bank_cap=cap)

    @classmethod
    def untimed(cls) -> TimeControl:
        return cls(ClockKind.NONE)

    @property
    def is_timed(self) -> bool:
        return self.kind != ClockKind.NONE

    # Turns ----------------------------------------------------------------------------------

    def turn_reading(self, bank: dt.timedelta | None) -> dt.timedelta | None:
        """What the clock shows when a turn begins: the limit, the bank (``None``: still the initial one)."""
        if self.kind == ClockKind.PER_MOVE:
            return self.per_move_limit
        if self.kind == ClockKind.BANK:
            return self.bank_initial if bank is None else bank
        return None

    def bank_after(self, *, left: dt.timedelta, turn_over: bool) -> dt.timedelta | None:
        """The bank once a turn (or a step of it) is played with ``left`` on the clock: the increment is added
        when the turn is over, never above the cap. ``None`` for the other controls (they keep no bank)."""
        if self.kind != ClockKind.BANK:
            return None
        left = max(left, ZERO)
        if turn_over:
            left += self.bank_increment
        return min(left, self.bank_cap)

    def bank_after_timeout(self) -> dt.timedelta | None:
        """A player whose bank ran out (the bot moved for them) starts again from the initial bank."""
        return self.bank_initial if self.kind == ClockKind.BANK else None

    # Storage (a league keeps its time control as this JSON) ----------------------------------

    def as_dict(self) -> dict[str, Any]:
        seconds = {
            "per_move_seconds": self.per_move_limit,
            "bank_initial_seconds": self.bank_initial,
            "bank_increment_seconds": self.bank_increment,
            "bank_cap_seconds": self.bank_cap,
        }
        return {"kind": str(self.kind)} | {k: int(v.total_seconds()) for k, v in seconds.items() if v is not None}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TimeControl:
        """The inverse of ``as_dict`` (validated; ``InvalidTimeControl`` for anything else)."""
        try:
            kind = ClockKind(data["kind"])

            def seconds(name: str) -> dt.timedelta:
                value = data[name]
                if isinstance(value, bool) or not isinstance(value, int):
                    raise InvalidTimeControl(name)
                return dt.timedelta(seconds=value)

            if kind == ClockKind.PER_MOVE:
                return cls.per_move(seconds("per_move_seconds"))
            if kind == ClockKind.BANK:
                return cls.bank(
                    initial=seconds("bank_initial_seconds"),
                    increment=seconds("bank_increment_seconds"),
                    cap=seconds("bank_cap_seconds"),
                )
            return cls.untimed()
        except (KeyError, TypeError, ValueError, OverflowError) as exc:
            raise InvalidTimeControl(str(exc)) from None


# Quiet days are stored as a bit mask: bit 0 Monday ... bit 6 Sunday (datetime's weekday()).


def quiet_mask(weekdays: Iterable[int]) -> int:
    days = set(weekdays)
    if not days <= set(range(7)):
        raise ValueError("weekdays are 0 (Monday) to 6 (Sunday)")
    if len(days) > MAX_QUIET_DAYS:
        raise ValueError(f"at most {MAX_QUIET_DAYS} quiet days")
    return sum(1 << day for day in days)


def quiet_weekdays(mask: int) -> frozenset[int]:
    return frozenset(day for day in range(7) if mask & (1 << day))


@dataclass(frozen=True)
class Pauses:
    """When one player's clock does not run, from a given moment on.

    ``away_until``: the player is away from the clock's reading until then. That holds because the clock is
    re-read whenever an absence begins, changes or ends (``games.clock_settings``): an absence never began after
    the moment a clock was last read.
    """

    quiet_days: frozenset[int] = frozenset()
    zone: dt.tzinfo = UTC
    away_until: dt.datetime | None = None

    def __post_init__(self) -> None:
        if len(self.quiet_days) > MAX_QUIET_DAYS:
            raise ValueError(f"at most {MAX_QUIET_DAYS} quiet days")  # else a clock might never run

    def intervals(self, start: dt.datetime) -> Iterator[tuple[dt.datetime, dt.datetime]]:
        """The pauses from ``start`` on, merged and in order (endless when there are quiet days), in UTC."""
        start = start.astimezone(UTC)
        absence = (
            [(start, self.away_until.astimezone(UTC))]
            if self.away_until is not None and self.away_until > start
            else []
        )
        current = None
        for begin, end in heapq.merge(absence, self._quiet(start)):
            if current is not None and begin <= current[1]:
                current = (current[0], max(current[1], end))
                continue
            if current is not None:
                yield current
            current = (begin, end)
        if current is not None:
            yield current

    def _quiet(self, start: dt.datetime) -> Iterator[tuple[dt.datetime, dt.datetime]]:
        if not self.quiet_days:
            return
        day = start.astimezone(self.zone).date()
        while True:
            if day.weekday() in self.quiet_days:
                begin, end = self._midnight(day), self._midnight(day + DAY)
                if end > start:
                    yield max(begin, start), end
            day += DAY

    def _midnight(self, day: dt.date) -> dt.datetime:
        # Local midnight as an absolute moment: a day is 23 or 25 hours long across a DST change.
        return dt.datetime.combine(day, dt.time(0), tzinfo=self.zone).astimezone(UTC)

    def is_paused(self, moment: dt.datetime) -> bool:
        first = next(self.intervals(moment), None)
        return first is not None and first[0] <= moment


NO_PAUSES = Pauses()


def _utc(moment: dt.datetime) -> dt.datetime:
    # Subtracting two datetimes of the same zone gives their wall-clock difference (wrong across a DST change):
    # every computation here is on absolute moments, in UTC.
    return moment.astimezone(UTC)


def running_time(start: dt.datetime, end: dt.datetime, pauses: Pauses = NO_PAUSES) -> dt.timedelta:
    """How long a clock runs between ``start`` and ``end``: the time between them minus the pauses."""
    start, end = _utc(start), _utc(end)
    if end <= start:
        return ZERO
    total = end - start
    for begin, finish in pauses.intervals(start):
        if begin >= end:
            break
        total -= min(finish, end) - begin
    return total


def deadline(start: dt.datetime, left: dt.timedelta, pauses: Pauses = NO_PAUSES) -> dt.datetime:
    """The moment a clock that shows ``left`` at ``start`` and runs from then reaches zero."""
    start = _utc(start)
    if left <= ZERO:
        return start
    moment = start
    for begin, end in pauses.intervals(start):
        if begin > moment:
            if begin - moment >= left:
                return moment + left
            left -= begin - moment
        moment = max(moment, end)
    return moment + left


def time_left(
    *, left: dt.timedelta, read_at: dt.datetime, now: dt.datetime, pauses: Pauses = NO_PAUSES
) -> dt.timedelta:
    """What a clock that showed ``left`` at ``read_at`` shows at ``now`` (never below zero)."""
    return max(ZERO, left - running_time(read_at, now, pauses))


def pauses_between(
    start: dt.datetime, end: dt.datetime, pauses: Pauses = NO_PAUSES
) -> list[tuple[dt.datetime, dt.datetime]]:
    """The pauses within [start, end] (what a browser needs to make a clock tick until its deadline)."""
    start, end = _utc(start), _utc(end)
    found = []
    for begin, finish in pauses.intervals(start):
        if begin >= end:
            break
        found.append((begin, min(finish, end)))
    return found


def reminder_stage(*, left: dt.timedelta, turn_reading: dt.timedelta) -> Stage | None:
    """The most urgent reminder due for a turn that began with ``turn_reading`` and has ``left``: half of it,
    then 4 hours and 1 hour left, keeping only the stages that come after half time; None when time is up."""
    if left <= ZERO or turn_reading <= ZERO:
        return None
    half = turn_reading / 2
    stage = Stage.HALF if left <= half else None
    for candidate, threshold in STAGE_THRESHOLDS:
        if threshold < half and left <= threshold:
            stage = Stage(candidate)
    return stage
