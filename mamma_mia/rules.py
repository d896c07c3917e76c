"""The cards the rules page draws, from the game's own data (``data.json`` through the engine)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext_lazy

from mamma_mia.engine import COLOURS, RECIPES, SIGNATURES, TOPPINGS
from mamma_mia.names import RECIPE_COLOUR_NAMES, RECIPE_SPECIAL_NAMES, TOPPING_NAMES

RECIPE_KIND_NAMES = {"classic": pgettext_lazy("pizza recipe", "Classic"), **RECIPE_SPECIAL_NAMES}
# What the card face shows in place of a topping list.
RECIPE_SYMBOLS = {"bombastica": "15+", "monotoni": "J", "minimale": "?"}


def recipe_card(recipe: dict[str, Any]) -> dict[str, Any]:
    """One recipe as the rules page's card draws it."""
    needs = [
        {"topping": kind, "count": recipe["needs"][kind], "name": TOPPING_NAMES[kind]}
        for kind in TOPPINGS
        if recipe["needs"].get(kind)
    ]
    return {
        **recipe,
        "signature": SIGNATURES[recipe["colour"]],
        "number": recipe["id"].rsplit("-", 1)[-1],
        "kind_name": RECIPE_KIND_NAMES.get(recipe["kind"], recipe["kind"]),
        "symbol": RECIPE_SYMBOLS.get(recipe["kind"], ""),
        "needs_list": needs,
        "total": sum(item["count"] for item in needs),
    }


def recipes_by_colour() -> list[dict[str, Any]]:
    """[{"colour", "name", "signature", "signature_name", "recipes": [card, ...]}, ...] in seat order."""
    cards = [recipe_card(recipe) for recipe in RECIPES.values()]
    return [
        {
            "colour": colour,
            "name": RECIPE_COLOUR_NAMES[colour],
            "signature": SIGNATURES[colour],
            "signature_name": TOPPING_NAMES[SIGNATURES[colour]],
            "recipes": [card for card in cards if card["colour"] == colour],
        }
        for colour in COLOURS
    ]


def rules_context(*, language: str) -> dict[str, Any]:
    return {"recipe_colours": recipes_by_colour(), "toppings": TOPPING_NAMES}
