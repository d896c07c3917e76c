"""The settings form: what a player may change about themselves here (e-mail and
password are allauth's pages)."""

from __future__ import annotations

import zoneinfo
from functools import cache

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import ConfirmMoves, NotifyMode, User


@cache
def time_zone_names() -> tuple[str, ...]:
    return tuple(sorted(zoneinfo.available_timezones()))


class TimeZoneInput(forms.TextInput):
    """A text box backed by a <datalist> of zone names: searchable on every browser
    without JavaScript (the list is rendered by the template)."""

    def __init__(self) -> None:
        super().__init__(attrs={"list": "time-zones", "autocomplete": "off", "spellcheck": "false"})


class SettingsForm(forms.ModelForm):
    time_zone = forms.CharField(
        label=_("Time zone"),
        max_length=64,
        widget=TimeZoneInput(),
        help_text=_("Start typing a city, e.g. Tokyo or Paris. Dates and deadlines are shown in this zone."),
    )

    class Meta:
        model = User
        fields = ["display_name", "language", "time_zone", "notify_mode", "deadline_reminders"]
        labels = {
            "display_name": _("Display name"),
            "language": _("Language"),
            "notify_mode": _("E-mail me when a game awaits my move"),
            "deadline_reminders": _("Remind me by e-mail before a move deadline passes"),
        }
        widgets = {
            "notify_mode": forms.RadioSelect,
            "display_name": forms.TextInput(attrs={"autocomplete": "nickname"}),
        }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].help_text = _("Shown to other players. Leave empty to use your username.")
        self.fields["notify_mode"].choices = NotifyMode.choices

    def clean_display_name(self) -> str:
        name = " ".join(self.cleaned_data["display_name"].split())
        # Control and formatting characters would let a name impersonate layout.
        if any(not ch.isprintable() for ch in name):
            raise forms.ValidationError(_("Use letters, digits, spaces and punctuation only."), code="invalid")
        from trust.names import imitation_reason

        reason = imitation_reason(name, user=self.instance)
        if reason is not None:
            raise forms.ValidationError(reason, code="imitation")
        return name

    def clean_time_zone(self) -> str:
        value = self.cleaned_data["time_zone"].strip().replace(" ", "_")
        names = time_zone_names()
        if value in names:
            return value
        # Accept a different capitalisation ("asia/tokyo") rather than reject it.
        by_lower = {name.lower(): name for name in names}
        if value.lower() in by_lower:
            return by_lower[value.lower()]
        raise forms.ValidationError(
            _("“%(value)s” is not a time zone we know. Pick one from the list, e.g. Europe/Paris."),
            code="invalid",
            params={"value": self.cleaned_data["time_zone"]},
        )


class ConfirmMovesForm(forms.ModelForm):
    """Confirm one-tap moves (issue 19): its own small form on the settings page."""

    class Meta:
        model = User
        fields = ["confirm_moves"]
        labels = {"confirm_moves": _("Ask “Send this move?” before a one-tap move goes")}
        help_texts = {
            "confirm_moves": _(
                "A card, a pile or a step you tap is sent at once. With a confirmation, the tap only picks it, "
                "and a second tap sends it: no move lost to a slip of the finger."
            )
        }
        widgets = {"confirm_moves": forms.RadioSelect}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["confirm_moves"].choices = ConfirmMoves.choices
