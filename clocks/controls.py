"""Time controls on the game row, the presets offered at creation, and how a control reads in the user's language.

The API other code uses:

- ``game.time_control`` (``time_control_of``) -> ``TimeControl``; ``game_fields(control)`` -> the ``Game`` field
  values that store it (``Game(**game_fields(control))`` or ``services.create_game(time_control=...)``);
- ``TimeControl.as_dict()`` / ``TimeControl.from_dict()`` to keep one elsewhere (a league's control, JSON);
- ``BANK_PRESETS``: the offered banks by key; ``describe(control)``: e.g. "3 days + 1 day a move (up to 7 days)".
"""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from clocks.arithmetic import DAY, HOUR, ZERO, ClockKind, InvalidTimeControl, TimeControl

# Offered at creation (custom values are allowed too, within clocks.arithmetic's bounds).
BANK_PRESETS: dict[str, tuple[object, TimeControl]] = {
    "quick": (
        gettext_lazy("Among fast friends"),
        TimeControl.bank(initial=4 * HOUR, increment=2 * HOUR, cap=12 * HOUR),
    ),
    "daily": (gettext_lazy("Daily"), TimeControl.bank(initial=1 * DAY, increment=12 * HOUR, cap=3 * DAY)),
    "standard": (gettext_lazy("Standard"), TimeControl.bank(initial=3 * DAY, increment=1 * DAY, cap=7 * DAY)),
    "relaxed": (gettext_lazy("Relaxed"), TimeControl.bank(initial=7 * DAY, increment=2 * DAY, cap=14 * DAY)),
}
DEFAULT_BANK_PRESET = "standard"


def time_control_of(game) -> TimeControl:
    """The control stored on ``game``'s fields (a per-move game without a limit is untimed, as before)."""
    if game.clock == ClockKind.BANK and game.bank_initial is not None:
        try:
            return TimeControl.bank(
                initial=game.bank_initial, increment=game.bank_increment or ZERO, cap=game.bank_cap or game.bank_initial
            )
        except InvalidTimeControl:
            pass  # a row edited by hand: better untimed than a crash on every page
    if game.clock == ClockKind.PER_MOVE and game.time_limit_hours:
        return TimeControl(ClockKind.PER_MOVE, per_move_limit=dt.timedelta(hours=game.time_limit_hours))
    return TimeControl.untimed()


def game_fields(control: TimeControl) -> dict:
    """The ``Game`` fields that store ``control``. A per-move limit is stored in whole hours
    (``InvalidTimeControl`` otherwise)."""
    fields = {
        "clock": str(control.kind),
        "time_limit_hours": 0,
        "bank_initial": None,
        "bank_increment": None,
        "bank_cap": None,
    }
    if control.kind == ClockKind.PER_MOVE:
        if control.per_move_limit % HOUR:
            raise InvalidTimeControl("a per-move limit is a whole number of hours")
        fields["time_limit_hours"] = int(control.per_move_limit / HOUR)
    elif control.kind == ClockKind.BANK:
        fields.update(
            bank_initial=control.bank_initial, bank_increment=control.bank_increment, bank_cap=control.bank_cap
        )
    return fields


def duration_text(value: dt.timedelta) -> str:
    """A length of time in words, to the minute: "3 days", "1 day 12 hours", "4 hours 30 minutes"."""
    minutes = max(0, int(value.total_seconds() // 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, minutes = divmod(rest, 60)
    parts = []
    if days:
        parts.append(ngettext("%(count)s day", "%(count)s days", days) % {"count": days})
    if hours:
        parts.append(ngettext("%(count)s hour", "%(count)s hours", hours) % {"count": hours})
    if minutes and not days:
        parts.append(ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes})
    if not parts:
        return ngettext("%(count)s minute", "%(count)s minutes", 0) % {"count": 0}
    if len(parts) == 1:
        return parts[0]
    # The two parts joined as each language writes a duration: 「23時間59分」, "23 hours 59 minutes", not a
    # hard-coded space (issue 19).
    return pgettext("two parts of a duration", "%(larger)s %(smaller)s") % {"larger": parts[0], "smaller": parts[1]}


def describe(control: TimeControl) -> str:
    """The control in one line of the reader's language."""
    if control.kind == ClockKind.PER_MOVE:
        return _("%(limit)s per move") % {"limit": duration_text(control.per_move_limit)}
    if control.kind == ClockKind.BANK:
        if control.bank_increment:
            return _("Time bank: %(initial)s, + %(increment)s after each move, up to %(cap)s") % _bank_words(control)
        return _("Time bank: %(initial)s for the whole game") % _bank_words(control)
    return _("No time limit")


def describe_bank(control: TimeControl) -> str:
    """A bank's figures alone (the create form's presets): "3 days, + 1 day after each move, up to 7 days"."""
    return _("%(initial)s, + %(increment)s after each move, up to %(cap)s") % _bank_words(control)


def _bank_words(control: TimeControl) -> dict[str, str]:
    return {
        "initial": duration_text(control.bank_initial),
        "increment": duration_text(control.bank_increment),
        "cap": duration_text(control.bank_cap),
    }
