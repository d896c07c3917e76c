"""The league form."""

from __future__ import annotations

import datetime as dt

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.engines import engine_slugs, get_engine
from games.models import TimeLimit


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name of the league"), max_length=80)
    engine_slug = forms.ChoiceField(label=_("Game"))
    players_per_game = forms.TypedChoiceField(
        label=_("Players per game"), coerce=int,
        help_text=_("Two: everyone plays everyone once. More: tables of that size, round after round, until "
                    "everyone has met everyone, as evenly as possible."),
    )
    signup_until = forms.DateTimeField(
        label=_("Sign-ups until"), widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
        help_text=_("Then every game of the league is created at once."),
    )
    time_limit_hours = forms.TypedChoiceField(
        label=_("Time limit per move"), choices=[c for c in TimeLimit.choices if c[0]], coerce=int,
        initial=TimeLimit.D2,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        engines = [get_engine(slug) for slug in engine_slugs()]
        self.fields["engine_slug"].choices = [(e.slug, e.name) for e in engines]
        sizes = range(min(e.min_players for e in engines), max(e.max_players for e in engines) + 1)
        self.fields["players_per_game"].choices = [(n, str(n)) for n in sizes]
        self.fields["players_per_game"].initial = 2
        self.fields["signup_until"].initial = (timezone.localtime() + dt.timedelta(days=7)).replace(
            second=0, microsecond=0
        ).strftime("%Y-%m-%dT%H:%M")
