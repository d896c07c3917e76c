"""Hidden number's page: the table (your number, the hints), the guess form and the log."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.ui import names
from games.ui.base import GameUI, Move, Players, View


def _guess(event: dict, players: Players) -> str:
    hint = _("higher") if event.get("hint") == "higher" else _("lower")
    return _("%(name)s guessed %(number)s: %(hint)s.") % {
        "name": names.player_name(players, event.get("seat")),
        "number": event.get("number"),
        "hint": hint,
    }


def _hit(event: dict, players: Players) -> str:
    return _("%(name)s guessed %(number)s: right!") % {
        "name": names.player_name(players, event.get("seat")),
        "number": event.get("number"),
    }


def _reveal(event: dict, players: Players) -> str:
    numbers = event.get("numbers") or []
    return "; ".join(
        _("%(name)s's number was %(number)s") % {"name": names.player_name(players, seat), "number": number}
        for seat, number in enumerate(numbers)
    )


class HiddenNumberUI(GameUI):
    slug = "hidden-number"
    event_describers = {
        "start": lambda event, players: _("Secret numbers from 1 to %(top)s.") % {"top": event.get("top")},
        "guess": _guess,
        "hit": _hit,
        "reveal": _reveal,
    }
    message_templates = {
        "not_guessable": gettext_lazy("Guess a number from 1 to %(top)s you have not guessed yet."),
    }
    awaited_phrases = (("guess", gettext_lazy("guess the other number")),)
    option_labels = {
        "top": (gettext_lazy("Numbers up to"), "", {}),
    }

    def game_context(
        self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players
    ) -> dict[str, Any]:
        guesses = [{"value": json.dumps(move), "number": move["number"]} for move in legal_moves]
        return {
            "top": view.get("top"),
            "my_number": view.get("my_number"),
            "bounds": view.get("bounds") or [],
            "numbers": view.get("numbers"),
            "form": {"kind": "guess" if legal_moves else "", "guesses": guesses},
        }

    def revealed_hands(self, state: dict[str, Any]) -> list[Any]:
        return [{"seat": seat, "number": number} for seat, number in enumerate(state.get("secrets") or [])]


ui = HiddenNumberUI()
