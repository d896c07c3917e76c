"""The vacation form: the day one is back, at most 14 days ahead."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from notifications.vacations import MAX_ABSENCE


def user_zone(user):
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


class AwayForm(forms.Form):
    back_on = forms.DateField(
        label=_("I am back on"),
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("Your deadlines pause until the start of this day (in your time zone), at most 14 days."),
    )

    def __init__(self, *args, user, now=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.now = now or timezone.now()
        self.zone = user_zone(user)
        today = self.now.astimezone(self.zone).date()
        self.first_day = today + dt.timedelta(days=1)
        self.last_day = (self.now + MAX_ABSENCE).astimezone(self.zone).date()
        self.fields["back_on"].widget.attrs.update(min=self.first_day.isoformat(), max=self.last_day.isoformat())

    def clean_back_on(self) -> dt.date:
        day = self.cleaned_data["back_on"]
        if day < self.first_day:
            raise forms.ValidationError(_("Choose a day after today."), code="too_early")
        if day > self.last_day:
            raise forms.ValidationError(
                _("An absence lasts at most 14 days; choose %(day)s or earlier."),
                code="too_late",
                params={"day": self.last_day.isoformat()},
            )
        return day

    def away_until(self) -> dt.datetime:
        """The start of the chosen day in the user's zone, capped at 14 days from now."""
        start = dt.datetime.combine(self.cleaned_data["back_on"], dt.time(0, 0), tzinfo=self.zone)
        return min(start, self.now + MAX_ABSENCE)
