"""Forms of the clocks: a player's quiet days, and the time control chosen when a game is created."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils.dates import WEEKDAYS
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from clocks.arithmetic import (
    BANK_CAP_MAX,
    BANK_INCREMENT_MAX,
    BANK_INITIAL_MAX,
    BANK_INITIAL_MIN,
    HOUR,
    MAX_QUIET_DAYS,
    ClockKind,
    InvalidTimeControl,
    TimeControl,
    quiet_weekdays,
)
from clocks.controls import BANK_PRESETS, DEFAULT_BANK_PRESET

CUSTOM = "custom"


class QuietDaysForm(forms.Form):
    days = forms.TypedMultipleChoiceField(
        label=_("My quiet days"),
        choices=sorted(WEEKDAYS.items()),
        coerce=int,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("At most three days a week, midnight to midnight in your time zone."),
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, initial={"days": sorted(quiet_weekdays(user.quiet_days))}, **kwargs)

    def clean_days(self) -> list[int]:
        days = sorted(set(self.cleaned_data["days"]))
        if len(days) > MAX_QUIET_DAYS:
            raise forms.ValidationError(_("Choose at most three quiet days."), code="too_many")
        return days


def _hours(label, *, minimum: dt.timedelta, maximum: dt.timedelta, help_text=""):
    return forms.IntegerField(
        label=label,
        required=False,
        min_value=int(minimum / HOUR),
        max_value=int(maximum / HOUR),
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class TimeControlFields(forms.Form):
    """The time-control part of the create form (mixed into ``games.forms.CreateGameForm``).

    ``clock``: per move (with ``time_limit_hours``, the create form's own field), a bank (a preset or custom
    hours) or none. A form without ``clock`` (an older client) keeps what ``time_limit_hours`` says.
    """

    clock = forms.ChoiceField(
        label=_("Time control"),
        required=False,
        choices=[
            (ClockKind.PER_MOVE, _("A time limit per move")),
            (ClockKind.BANK, _("A time bank: time left over is kept, each move adds more")),
            (ClockKind.NONE, _("No time limit")),
        ],
        initial=ClockKind.PER_MOVE,
        widget=forms.RadioSelect,
    )
    bank_preset = forms.ChoiceField(
        label=_("Time bank"),
        required=False,
        initial=DEFAULT_BANK_PRESET,
    )
    bank_initial_hours = _hours(
        _("Bank at the start, in hours"), minimum=BANK_INITIAL_MIN, maximum=BANK_INITIAL_MAX, help_text=_("24 = 1 day")
    )
    bank_increment_hours = _hours(_("Hours added after each move"), minimum=dt.timedelta(0), maximum=BANK_INCREMENT_MAX)
    bank_cap_hours = _hours(_("Largest bank, in hours"), minimum=BANK_INITIAL_MIN, maximum=BANK_CAP_MAX)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        from clocks.controls import describe_bank

        self.fields["bank_preset"].choices = [
            *(
                (key, gettext("%(label)s: %(value)s") % {"label": label, "value": describe_bank(control)})
                for key, (label, control) in BANK_PRESETS.items()
            ),
            (CUSTOM, _("Custom: the hours below")),
        ]

    def clean_time_control(self, data: dict) -> TimeControl | None:
        """The chosen ``TimeControl`` (``None``: keep ``time_limit_hours``); adds errors to the form."""
        kind = data.get("clock") or ""
        if kind == ClockKind.NONE:
            return TimeControl.untimed()
        if kind != ClockKind.BANK:
            return None
        preset = data.get("bank_preset") or DEFAULT_BANK_PRESET
        if preset != CUSTOM:
            return BANK_PRESETS[preset][1]
        names = ("bank_initial_hours", "bank_increment_hours", "bank_cap_hours")
        values = [data.get(name) for name in names]
        for name, value in zip(names, values, strict=True):
            if value is None and name not in self.errors:
                self.add_error(name, _("Give a number of hours for a custom bank."))
        if any(value is None for value in values):
            return None
        initial, increment, cap = (value * HOUR for value in values)
        try:
            return TimeControl.bank(initial=initial, increment=increment, cap=cap)
        except InvalidTimeControl:
            self.add_error(
                "bank_cap_hours", _("The largest bank must be at least the starting bank and the hours added.")
            )
            return None
