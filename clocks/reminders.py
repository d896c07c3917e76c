"""Which deadline reminder a running clock is due (``notifications.deadlines`` sends it)."""

from __future__ import annotations

import datetime as dt

from clocks import turns
from clocks.arithmetic import Stage, reminder_stage


def due_stage(*, seat, now: dt.datetime) -> Stage | None:
    """The most urgent stage due for ``seat``'s turn at ``now``, on its clock's own time (half of what it showed
    when the turn began, 4 hours, 1 hour left); none while the clock stands still (a quiet day, an absence)."""
    pauses = turns.pauses_of(seat)
    if pauses.is_paused(now):
        return None
    left = turns.reading_now(seat, now, pauses)
    if left is None:
        return None
    turn_reading = seat.turn_clock
    if turn_reading is None:
        control = seat.game.time_control
        turn_reading = control.per_move_limit or left
    return reminder_stage(left=left, turn_reading=turn_reading)
