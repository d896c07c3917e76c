"""Mamma Mia!'s help on the table (issue 27): toppings, recipes, the Mamma Mia card and the table's zones
explain themselves, from the game's own data (``data.json``: each colour's favourite topping, each recipe's
needs); "What can I do now?" reads the seat's legal moves and view."""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.ui import names
from games.ui.base import Move, Players, View
from games.ui.help import Explanation, TableHelp
from mamma_mia.names import RECIPE_COLOUR_NAMES, RECIPE_SPECIAL_NAMES
from mamma_mia.ui import (
    MAMMA_MIA,
    TOPPINGS,
    recipe_data,
    recipe_name,
    signatures,
    special_rule,
    topping_name,
    toppings_phrase,
)

MARKERS = ("kitchen", "oven", "table", "recipe-deck", "chef", "heard")


def _topping(kind: str) -> Explanation:
    favourite_of = [colour for colour, signature in signatures().items() if signature == kind]
    text = _(
        "A topping. On your turn you put one or more toppings of a single kind into the oven, and everyone hears "
        "the kind and how many."
    )
    if favourite_of:
        colour = names.lookup(RECIPE_COLOUR_NAMES, favourite_of[0])
        text = names.sentences(
            text,
            _("It is the favourite of the %(colour)s recipes: every one of them except %(special)s needs one.")
            % {"colour": colour, "special": names.lookup(RECIPE_SPECIAL_NAMES, "bombastica")},
        )
    return Explanation(title=capfirst(topping_name(kind)), text=text)


def _recipe(recipe_id: str) -> Explanation:
    recipe = recipe_data()[recipe_id]
    colour = names.lookup(RECIPE_COLOUR_NAMES, recipe["colour"])
    kind = recipe["kind"]
    if kind == "bombastica":
        needs = special_rule(recipe)
    elif kind in ("monotoni", "minimale"):
        needs = _("%(needs)s %(rule)s") % {"needs": toppings_phrase(recipe["needs"]), "rule": special_rule(recipe)}
    else:
        needs = toppings_phrase(recipe["needs"])
    text = names.sentences(
        _("A recipe of the %(colour)s player. Needs: %(needs)s.") % {"colour": colour, "needs": needs},
        _(
            "Played into the oven, it is baked when the oven opens if the toppings revealed before it cover what it "
            "needs; its owner may add missing toppings from hand, or it goes back under their recipe deck."
        ),
    )
    return Explanation(title=capfirst(recipe_name(recipe_id)), text=text)


def _marker(marker: str) -> Explanation:
    titles = {
        "kitchen": _("Kitchen"),
        "oven": _("Oven"),
        "table": _("On the table"),
        "recipe-deck": _("Recipe deck"),
        "chef": _("Chef"),
        "heard": _("What you heard"),
    }
    texts = {
        "kitchen": _(
            "The draw pile of toppings, with the Mamma Mia card hidden in it. When the last card is drawn, the oven "
            "opens."
        ),
        "oven": _(
            "Everyone's toppings and recipes go in here, face up, but only the top card shows. When it opens, the "
            "cards come out in the order they went in and each recipe is checked against the toppings out so far."
        ),
        "table": _(
            "Toppings revealed from the oven that no recipe used. They stay for the next round and come first when "
            "the oven opens again."
        ),
        "recipe-deck": _(
            "Each player's own face-down recipes. You may refill from it instead of the kitchen; a recipe that "
            "could not be baked goes back under it."
        ),
        "chef": _(
            "Whoever draws the Mamma Mia card is chef for the round: when the oven opens, the chef turns it over "
            "and reveals it."
        ),
        "heard": _(
            "Every announcement of this round that you still remember: who put what into the oven. Count what is "
            "in there before you play a recipe."
        ),
    }
    return Explanation(title=str(titles[marker]), text=str(texts[marker]))


class MammaMiaHelp(TableHelp):
    def explain(self, topic: str) -> Explanation | None:
        kind, _sep, rest = topic.partition("-")
        if kind == "topping" and rest in TOPPINGS:
            return _topping(rest)
        if kind == "recipe" and rest in recipe_data():
            return _recipe(rest)
        if topic == MAMMA_MIA:
            return Explanation(
                title=_("The Mamma Mia card"),
                text=_(
                    "Hidden in the kitchen. Whoever draws it is chef this round and draws one more card in its place."
                ),
            )
        if kind == "marker" and rest in MARKERS:
            return _marker(rest)
        return None

    def catalogue(self) -> list[str]:
        return [
            *(f"topping-{kind}" for kind in TOPPINGS),
            *(f"recipe-{recipe_id}" for recipe_id in recipe_data()),
            MAMMA_MIA,
            *(f"marker-{marker}" for marker in MARKERS),
        ]

    def markers(self, *, view: View, legal_moves: list[Move], seat: int | None) -> list[str]:
        shown = ["marker-kitchen", "marker-oven", "marker-table", "marker-recipe-deck"]
        if view.get("chef") is not None:
            shown += ["marker-chef", MAMMA_MIA]
        if view.get("phase") == 1:
            shown.append("marker-heard")
        return shown

    def what_now(self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players) -> str:
        turns = [move for move in legal_moves if move.get("type") == "turn"]
        if turns:
            return _turn_now(turns, view)
        deciding = (view.get("deciding") or {}).get("recipe")
        if deciding is None:
            return ""
        recipe = recipe_name(deciding)
        if any(move.get("type") == "decline" for move in legal_moves):
            return _(
                "Your %(recipe)s came out of the oven and the table alone does not complete it. Add the missing "
                "toppings from your hand to bake it, or keep them and let the recipe go back under your recipe deck."
            ) % {"recipe": recipe}
        return _(
            "Your %(recipe)s came out of the oven and will be baked: choose which toppings it uses."
        ) % {"recipe": recipe}


def _turn_now(turns: list[Move], view: View) -> str:
    most: dict[str, int] = {}
    for move in turns:
        if move.get("topping"):
            most[move["topping"]] = max(most.get(move["topping"], 0), int(move.get("count") or 0))
    recipes = {move["recipe"] for move in turns if move.get("recipe")}
    draws = {move.get("draw") for move in turns}
    if not most:
        first = _("You hold no topping, so you pass: nothing goes into the oven this turn.")
    else:
        kinds = names.and_list(
            _("%(topping)s (up to %(count)s)") % {"topping": topping_name(kind), "count": most[kind]}
            for kind in TOPPINGS
            if kind in most
        )
        first = _("Put toppings of one kind into the oven: %(kinds)s.") % {"kinds": kinds}
        if recipes:
            first = names.sentences(
                first,
                ngettext(
                    "You may put your recipe on top of them.",
                    "You may put one of your %(count)s recipes on top of them.",
                    len(recipes),
                )
                % {"count": len(recipes)},
            )
    if draws == {None}:
        second = _("Your hand is full, so you draw nothing.")
    elif {"kitchen", "recipes"} <= draws:
        second = _("Then refill your hand to 7 from the kitchen (%(kitchen)s left) or from your recipe deck.") % {
            "kitchen": view.get("kitchen")
        }
    elif "kitchen" in draws:
        second = _("Then refill your hand to 7 from the kitchen.")
    else:
        second = _("Then refill your hand to 7 from your recipe deck.")
    return names.sentences(first, second)


table_help = MammaMiaHelp()

