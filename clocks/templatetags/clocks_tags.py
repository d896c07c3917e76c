"""Template helpers of the clocks: a game's time control in words, durations, quiet days."""

from __future__ import annotations

import datetime as dt

from django import template
from django.utils.dates import WEEKDAYS_ABBR
from django.utils.translation import pgettext

from clocks.controls import describe, duration_text
from clocks.display import seat_clock

register = template.Library()


@register.filter
def time_control_text(game) -> str:
    """E.g. "2 days per move", "Time bank: 3 days, + 1 day after each move, up to 7 days", "No time limit"."""
    return describe(game.time_control)


@register.filter
def duration(value: dt.timedelta | None) -> str:
    return duration_text(value) if value is not None else ""


@register.filter
def weekdays(days) -> str:
    """Weekday numbers (0 Monday) as short names in the reader's language: "Sat, Sun"."""
    return pgettext("list separator", ", ").join(str(WEEKDAYS_ABBR[day]) for day in days or [] if day in WEEKDAYS_ABBR)


@register.simple_tag
def clock_of(seat):
    """``seat``'s clock for ``clocks/_clock.html`` (its game and user loaded)."""
    return seat_clock(seat, seat.game.time_control)
