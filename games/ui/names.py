"""Translated names of seats, cards and card parts, shared by the three game UIs.

Card names go through ``pgettext`` with a context per game, because the same
English word may need different words in other languages (a Marumiere "red"
card is not a Mamma Mia! "red" recipe in every language).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext as _

# Mamma Mia! ------------------------------------------------------------------

TOPPING_NAMES = {
    "pineapple": pgettext_lazy("mamma mia topping", "pineapple"),
    "olive": pgettext_lazy("mamma mia topping", "olive"),
    "pepper": pgettext_lazy("mamma mia topping", "pepper"),
    "mushroom": pgettext_lazy("mamma mia topping", "mushroom"),
    "salami": pgettext_lazy("mamma mia topping", "salami"),
}
RECIPE_COLOUR_NAMES = {
    "green": pgettext_lazy("mamma mia recipe colour", "green"),
    "red": pgettext_lazy("mamma mia recipe colour", "red"),
    "yellow": pgettext_lazy("mamma mia recipe colour", "yellow"),
    "purple": pgettext_lazy("mamma mia recipe colour", "purple"),
    "brown": pgettext_lazy("mamma mia recipe colour", "brown"),
}
RECIPE_SPECIAL_NAMES = {
    "bombastica": pgettext_lazy("mamma mia recipe", "Bombastica"),
    "monotoni": pgettext_lazy("mamma mia recipe", "Monotoni"),
    "minimale": pgettext_lazy("mamma mia recipe", "Minimale"),
}

# Konamon! ---------------------------------------------------------------------

PRODUCT_NAMES = {
    "okonomiyaki": pgettext_lazy("konamon product", "okonomiyaki"),
    "taiyaki": pgettext_lazy("konamon product", "taiyaki"),
    "takoyaki": pgettext_lazy("konamon product", "takoyaki"),
}
PROCESS_NAMES = {
    "prep": pgettext_lazy("konamon process", "prep"),
    "bake": pgettext_lazy("konamon process", "bake"),
    "hand_over": pgettext_lazy("konamon process", "hand over"),
}
BOARD_NAMES = {
    "cooking": pgettext_lazy("konamon board", "Cooking board"),
    "stove": pgettext_lazy("konamon board", "Stove"),
    "showcase": pgettext_lazy("konamon board", "Hot showcase"),
}

# Marumiere ----------------------------------------------------------------------

SUIT_NAMES = {
    "red": pgettext_lazy("marumiere colour", "red"),
    "blue": pgettext_lazy("marumiere colour", "blue"),
    "yellow": pgettext_lazy("marumiere colour", "yellow"),
    "green": pgettext_lazy("marumiere colour", "green"),
}
SUIT_SHAPES = {
    "red": pgettext_lazy("marumiere shape", "heart"),
    "blue": pgettext_lazy("marumiere shape", "drop"),
    "yellow": pgettext_lazy("marumiere shape", "star"),
    "green": pgettext_lazy("marumiere shape", "clover"),
}


def lookup(table: dict[str, Any], key: Any) -> str:
    """The translated name of ``key``, or the key itself for something new (never a crash)."""
    name = table.get(key) if isinstance(key, str) else None
    return str(name) if name is not None else str(key)


def player_name(players: list[dict[str, Any]], seat: Any) -> str:
    """A seat's player name; a neutral label when the seat is unknown."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        name = players[seat].get("name")
        if name:
            return str(name)
    if isinstance(seat, int) and not isinstance(seat, bool):
        return _("Seat %(number)s") % {"number": seat + 1}
    return _("someone")


def player_list(players: list[dict[str, Any]], seats: Iterable[Any]) -> str:
    """Several players' names as one phrase."""
    return join_list(player_name(players, seat) for seat in seats)


def join_list(items: Iterable[Any]) -> str:
    """Items as a readable list; the separator is translatable (、 in Japanese)."""
    parts = [str(item) for item in items]
    if not parts:
        return _("nobody")
    return _(", ").join(parts)


def count_of(name: str, count: Any) -> str:
    """``name ×count``: one form for every language, so no plural rules are needed."""
    return _("%(name)s ×%(count)s") % {"name": name, "count": count}


def localized(pair: Any) -> str:
    """A ``{"ja": ..., "en": ..., "zh-hant": ..., "fr": ...}`` name from engine data in the reader's
    language, falling back to English, then Japanese."""
    if not isinstance(pair, dict):
        return str(pair)
    language = (get_language() or "en").lower()
    for code in (language, language.split("-")[0]):
        if pair.get(code):
            return str(pair[code])
    return str(pair.get("en") or pair.get("ja") or "")
