"""Lobby forms: creating a game (fields built from each engine's ``options``) and inviting."""

from __future__ import annotations

import json

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.forms import TimeControlFields
from games.engines import all_engines, get_engine
from games.models import BotLevel, TimeLimit, Visibility
from games.registry import game_title
from games.ui import get_ui


def _labels(slug: str, option: str) -> tuple:
    """(label, help text, {value: label}) of a game's option, from its UI; unknown ones get the raw name."""
    labels = get_ui(slug).option_labels.get(option)
    return labels or (option.replace("_", " ").capitalize(), "", {})


def option_field_name(slug: str, option: str) -> str:
    return f"opt_{slug.replace('-', '_')}_{option}"


def option_label(slug: str, option: str):
    return _labels(slug, option)[0]


def option_value_label(slug: str, option: str, value) -> str:
    return _labels(slug, option)[2].get(value, str(value))


def bot_level_field_name(n: int) -> str:
    """The create form's field for the level of the ``n``-th bot (1-based; the bot sits as "Bot n+1")."""
    return f"bot_level_{n}"


class CreateGameForm(TimeControlFields, forms.Form):
    engine_slug = forms.ChoiceField(label=_("Game"))
    players = forms.TypedChoiceField(label=_("Number of seats"), coerce=int)
    bots = forms.TypedChoiceField(
        label=_("Bots"), coerce=int, initial=0, help_text=_("Seats filled by the computer right away.")
    )
    time_limit_hours = forms.TypedChoiceField(
        label=_("Time limit per move"),
        choices=TimeLimit.choices,
        coerce=int,
        initial=TimeLimit.D2,
        help_text=_("When it runs out, the bot plays for the player; after three times it takes the seat."),
    )
    visibility = forms.ChoiceField(
        label=_("Who may join"), choices=Visibility.choices, initial=Visibility.PUBLIC, widget=forms.RadioSelect
    )
    rated = forms.BooleanField(
        label=_("Rated game"),
        required=False,
        initial=True,
        help_text=_("The result counts for the players' ratings. Games with bots are never rated."),
    )

    invite = forms.CharField(
        label=_("Invite a friend"),
        required=False,
        max_length=150,
        help_text=_(
            "Optional: their username or display name. They find the invitation in My games and by e-mail; you can "
            "invite more players from the waiting room."
        ),
        widget=forms.TextInput(attrs={"autocomplete": "off", "autocapitalize": "none", "spellcheck": "false"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        engines = all_engines()
        self.engines = engines
        self.fields["engine_slug"].choices = [(e.slug, game_title(e.slug)) for e in engines]
        # Every seat count some game takes: without JavaScript the list cannot follow the chosen game (the
        # server then names that game's counts); static/js/site.js keeps only the chosen game's own.
        most = max(e.max_players for e in engines)
        least = min(e.min_players for e in engines)
        self.fields["players"].choices = [(n, str(n)) for n in range(least, most + 1)]
        chosen = self.chosen_engine()
        self.fields["players"].initial = min(max(3, chosen.min_players), chosen.max_players)
        self.fields["bots"].choices = [(n, str(n)) for n in range(0, most)]
        # One level per bot seat (issue 28); the page shows as many as bots are chosen (static/js/site.js).
        for n in range(1, most):
            self.fields[bot_level_field_name(n)] = forms.ChoiceField(
                label=_("Bot {n}").format(n=n + 1),
                choices=BotLevel.choices,
                initial=BotLevel.NORMAL,
                required=False,
            )
        self.option_fields: dict[str, list[str]] = {}
        for engine in engines:
            names = []
            for option, values in engine.options.items():
                name = option_field_name(engine.slug, option)
                label, help_text, value_labels = _labels(engine.slug, option)
                self.fields[name] = forms.ChoiceField(
                    label=label,
                    help_text=help_text,
                    choices=[(str(v), value_labels.get(v, str(v))) for v in values],
                    initial=str(values[0]),
                    required=False,
                )
                names.append(name)
            self.option_fields[engine.slug] = names

    def chosen_engine(self):
        """The game the form shows chosen: the posted one, else the initial one (``?game=``), else the first."""
        slug = self.data.get("engine_slug") if self.is_bound else self.initial.get("engine_slug")
        return next((e for e in self.engines if e.slug == slug), self.engines[0])

    def engine_groups(self):
        """For the template: each game with what the form says of it and its bound option fields."""
        from games.lengths import length_range_text, length_text, seats_text

        chosen = self.chosen_engine()
        groups = []
        for engine in self.engines:
            seat_counts = range(engine.min_players, engine.max_players + 1)
            groups.append(
                {
                    "engine": engine,
                    "checked": engine.slug == chosen.slug,
                    "seats": seats_text(engine.min_players, engine.max_players),
                    "length": length_range_text(engine.slug),
                    # For the seat list and the length line to follow the chosen game (static/js/site.js).
                    "lengths_json": json.dumps({n: length_text(engine.slug, n) for n in seat_counts}),
                    "fields": [self[name] for name in self.option_fields[engine.slug]],
                }
            )
        return groups

    def bot_level_fields(self) -> list:
        """For the template: the level of each possible bot, first bot first."""
        return [self[name] for name in self.fields if name.startswith("bot_level_")]

    def chosen_length(self) -> str:
        """The length of a game of the chosen game and seat count, as the form first shows it."""
        from games.lengths import length_text

        engine = self.chosen_engine()
        try:
            players = int(self["players"].value())
        except (TypeError, ValueError):
            players = self.fields["players"].initial
        return length_text(engine.slug, players) if engine.min_players <= players <= engine.max_players else ""

    def clean(self):
        data = super().clean()
        slug = data.get("engine_slug")
        if not slug:
            return data
        engine = get_engine(slug)
        players, bots = data.get("players"), data.get("bots")
        if players is not None and not engine.min_players <= players <= engine.max_players:
            self.add_error(
                "players",
                _("%(game)s takes %(min)s to %(max)s players.")
                % {"game": game_title(engine.slug), "min": engine.min_players, "max": engine.max_players},
            )
        if players is not None and bots is not None and bots >= players:
            self.add_error("bots", _("Leave at least your own seat for a person."))
        elif data.get("invite") and players is not None and bots is not None and bots >= players - 1:
            self.add_error("invite", _("Leave a seat free for the friend you invite: fewer bots, or more seats."))
        data["bot_levels"] = [
            data.get(bot_level_field_name(n)) or BotLevel.NORMAL for n in range(1, (bots or 0) + 1)
        ]
        options = {}
        for option, values in engine.options.items():
            raw = data.get(option_field_name(slug, option))
            chosen = next((v for v in values if str(v) == raw), values[0])
            options[option] = chosen
        data["options"] = options
        data["time_control"] = self.clean_time_control(data)  # None: time_limit_hours says it
        return data


class InviteForm(forms.Form):
    username = forms.CharField(label=_("Invite a player by username or display name"), max_length=150)
