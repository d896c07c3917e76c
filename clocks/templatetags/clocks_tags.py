"""Template helpers of the clocks: a game's time control in words, durations, quiet days."""

from __future__ import annotations

import datetime as dt

from django import template
from django.utils import timezone
from django.utils.dates import WEEKDAYS_ABBR
from django.utils.html import format_html
from django.utils.translation import pgettext

from clocks.controls import describe, duration_text
from clocks.display import clock_left, seat_clock
from clocks.display import clock_text as reading_text

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


@register.simple_tag
def clock_text(clock) -> str:
    """A running clock's reading now, as the ticking clock writes it ("3 h 59 min"); "" for any other."""
    if not clock or not clock.get("running"):
        return ""
    return reading_text(clock_left(clock, timezone.now()))


@register.simple_tag
def clock_reading(clock):
    """``clock_text`` in the element ``static/js/clocks.js`` keeps ticking (``clocks/_countdown.html``)."""
    return format_html("<strong data-clock-text>{}</strong>", clock_text(clock))


@register.filter
def clock_of_seat(players, number):
    """The clock of seat ``number`` among ``players`` (``clocks.display.player_clocks``), or None."""
    return next((p.get("clock") for p in players or [] if p.get("seat") == number), None)
