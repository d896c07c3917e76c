"""The settings form: what a player may change about themselves here (e-mail and
password are allauth's pages)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from accounts.models import ConfirmMoves, NotifyMode, TimeZoneSource, User
from accounts.time_zones import find_zone
from games import clock_settings
from trust.names import imitation_reason


class TimeZoneInput(forms.TextInput):
    """A text box backed by a <datalist> of zones with their cities and offsets: searchable on every browser
    without JavaScript (the list is rendered by the template); a city name ("Tokyo") is accepted as typed."""

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
        reason = imitation_reason(name, user=self.instance)
        if reason is not None:
            raise forms.ValidationError(reason, code="imitation")
        return name

    def clean_time_zone(self) -> str:
        # A zone ("Asia/Tokyo", any capitalisation) or a place in it ("Tokyo", "new york", "東京").
        zone = find_zone(self.cleaned_data["time_zone"])
        if zone is not None:
            return zone
        raise forms.ValidationError(
            _("“%(value)s” is not a time zone we know. Pick one from the list, e.g. Europe/Paris."),
            code="invalid",
            params={"value": self.cleaned_data["time_zone"]},
        )

    def save(self, commit=True):
        if "time_zone" in self.changed_data:
            self.instance.time_zone_source = TimeZoneSource.CHOSEN  # the browser's zone no longer applies
        return super().save(commit=commit)

    def save_for(self, user) -> User:
        """Save the settings of ``user`` (the page's copy of them, or the account itself): a new time zone goes
        through ``games.clock_settings``, since quiet days follow the zone — running clocks are re-read first, so the
        change counts from now on. Returns the saved settings (the form's instance)."""
        if "time_zone" not in self.changed_data:
            return self.save()
        clock_settings.change_clock_settings(user=user, apply=lambda locked: self.save())
        return self.instance


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


class TurnForm(forms.ModelForm):
    """How a turn goes (issue 32): forced moves and going on to the next game, saved with the confirmation."""

    class Meta:
        model = User
        fields = ["play_forced_moves", "next_game_after_move"]
        labels = {
            "play_forced_moves": _("Play my only possible move for me"),
            "next_game_after_move": _("After a move, go on to the next game that awaits me"),
        }
        help_texts = {
            "play_forced_moves": _(
                "When you have exactly one legal move, it is played at once, logged as such, and you get no "
                "e-mail for it."
            ),
            "next_game_after_move": _("Otherwise the page offers a link to it."),
        }
