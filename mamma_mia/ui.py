"""Mamma Mia!: topping and recipe cards, the oven, the table, and the turn form.

A phase-1 turn has three parts (toppings, optional recipe, refill source), so
its form has three radio groups built from the legal moves' values only;
``parse_fields`` assembles them and checks the result is one legal move.
Phase-2 decisions are buttons, one legal move each.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.html import escape
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from games.ui import names
from games.ui.base import (
    BadMoveInput,
    GameUI,
    Move,
    Players,
    ReplyMenu,
    ReplyOption,
    View,
    at,
    find_legal,
    move_value,
    plural_count,
    score_number,
)
from mamma_mia.names import RECIPE_COLOUR_NAMES, RECIPE_SPECIAL_NAMES, TOPPING_NAMES

DATA_FILE = Path(__file__).resolve().parent / "data.json"
TOPPINGS = ("pineapple", "olive", "pepper", "mushroom", "salami")  # canonical order
MAMMA_MIA = "mamma-mia"
SPECIAL_SYMBOLS = {"bombastica": "15+", "monotoni": "J", "minimale": "?"}
# Phase-2 decisions shown as buttons up to this many; more (Bombastica's ways to add) become a radio list.
MAX_BUTTONS = 8
PASS = "pass"


@cache
def recipe_data() -> dict[str, dict[str, Any]]:
    """The engine's recipe table (``needs`` per recipe), read from its data file."""
    with DATA_FILE.open(encoding="utf-8") as handle:
        data = json.load(handle)
    return {recipe["id"]: recipe for recipe in data["recipes"]}


@cache
def signatures() -> dict[str, str]:
    with DATA_FILE.open(encoding="utf-8") as handle:
        data = json.load(handle)
    return {item["colour"]: item["signature"] for item in data["colours"]}


# Names -------------------------------------------------------------------------------------------


def topping_name(kind: Any) -> str:
    return names.lookup(TOPPING_NAMES, kind)


def recipe_name(recipe_id: Any) -> str:
    """``green 4`` for a classic, ``green Bombastica`` for a special recipe."""
    recipe = recipe_data().get(recipe_id) if isinstance(recipe_id, str) else None
    if recipe is None:
        return str(recipe_id)
    colour = names.lookup(RECIPE_COLOUR_NAMES, recipe["colour"])
    if recipe["kind"] in RECIPE_SPECIAL_NAMES:
        return _("%(colour)s %(special)s") % {
            "colour": colour,
            "special": names.lookup(RECIPE_SPECIAL_NAMES, recipe["kind"]),
        }
    return _("%(colour)s %(number)s") % {"colour": colour, "number": recipe_id.rsplit("-", 1)[-1]}


def card_name(card: Any) -> str:
    """Any oven card: a topping kind, a recipe id or the Mamma Mia card."""
    if card == MAMMA_MIA:
        return _("the Mamma Mia card")
    if card in TOPPINGS:
        return topping_name(card)
    return recipe_name(card)


def toppings_phrase(counts: Any) -> str:
    """``{"salami": 2, "olive": 1}`` as ``olive ×1, salami ×2`` (canonical order)."""
    if not isinstance(counts, Mapping):
        return str(counts)
    parts = [names.count_of(topping_name(k), counts[k]) for k in TOPPINGS if counts.get(k)]
    parts += [names.count_of(str(k), n) for k, n in counts.items() if k not in TOPPINGS and n]
    return names.join_list(parts) if parts else _("nothing")


def source_name(source: Any) -> str:
    if source == "kitchen":
        return _("the kitchen")
    if source == "recipes":
        return _("their recipe deck")
    return str(source)


# Cards -----------------------------------------------------------------------------------------


def topping_card(kind: str, count: int | None = None) -> dict[str, Any]:
    return {"kind": kind, "name": topping_name(kind), "count": count, "help_topic": f"topping-{kind}"}


def recipe_card(recipe_id: str) -> dict[str, Any]:
    """A recipe card face: owner colour, needs as topping icons, special marks explained."""
    recipe = recipe_data().get(recipe_id, {"colour": "", "kind": "classic", "needs": {}})
    kind = recipe["kind"]
    needs = [topping_card(k, recipe["needs"][k]) for k in TOPPINGS if recipe["needs"].get(k)]
    return {
        "id": recipe_id,
        "colour": recipe["colour"],
        "colour_name": names.lookup(RECIPE_COLOUR_NAMES, recipe["colour"]),
        "kind": kind,
        "name": recipe_name(recipe_id),
        "needs": needs,
        "symbol": SPECIAL_SYMBOLS.get(kind, ""),
        "rule": special_rule(recipe),
        "label": recipe_label(recipe_id, recipe),
        "help_topic": f"recipe-{recipe_id}",  # its explanation on the table (mamma_mia/table_help.py)
    }


def special_rule(recipe: Mapping[str, Any]) -> str:
    """What a special recipe needs, in words."""
    kind = recipe["kind"]
    if kind == "bombastica":
        return _("at least %(count)s toppings of any kinds; uses them all") % {"count": recipe.get("at_least", 15)}
    if kind == "monotoni":
        return _("+ %(count)s of one other kind you name") % {"count": recipe.get("same", 6)}
    if kind == "minimale":
        return _("+ %(count)s of the scarcest kind on the table") % {"count": recipe.get("scarcest", 3)}
    return ""


def recipe_label(recipe_id: str, recipe: Mapping[str, Any]) -> str:
    """The whole card in one sentence, for screen readers and tooltips."""
    needs = toppings_phrase(recipe.get("needs") or {})
    rule = special_rule(recipe)
    if recipe.get("kind") == "bombastica":
        return _("%(name)s: %(rule)s") % {"name": recipe_name(recipe_id), "rule": rule}
    if rule:
        return _("%(name)s: %(needs)s %(rule)s") % {"name": recipe_name(recipe_id), "needs": needs, "rule": rule}
    return _("%(name)s: %(needs)s") % {"name": recipe_name(recipe_id), "needs": needs}


def any_card(card: Any) -> dict[str, Any] | None:
    """An oven card for the templates: ``{"topping": ...}`` or ``{"recipe": ...}``."""
    if card is None:
        return None
    if card in TOPPINGS:
        return {"topping": topping_card(card)}
    if card == MAMMA_MIA:
        return {"mamma_mia": True}
    return {"recipe": recipe_card(card)}


# Table pieces -------------------------------------------------------------------------------------


def heard_this_round(log: list[Mapping[str, Any]], players: Players) -> list[dict[str, Any]]:
    """The announcements the view still holds for this round, in play order (the oven's order)."""
    start = 0
    for index, event in enumerate(log):
        if event.get("type") == "round":
            start = index + 1
    heard = []
    for event in log[start:]:
        if event.get("type") == "turn":
            heard.append(
                {
                    "player": names.player_name(players, event.get("seat")),
                    "seat": event.get("seat"),
                    "topping": topping_card(event["topping"], event["count"]),
                    "recipe": recipe_card(event["recipe"]) if event.get("recipe") else None,
                }
            )
        elif event.get("type") == "pass":
            heard.append(
                {"player": names.player_name(players, event.get("seat")), "seat": event.get("seat"), "passed": True}
            )
    return heard


def heard_card_count(log: list[Mapping[str, Any]]) -> int:
    """How many oven cards this round the viewer heard announced (toppings and recipes)."""
    cards = 0
    for event in log:
        if event.get("type") == "round":
            cards = 0
        elif event.get("type") == "turn":
            cards += int(event.get("count") or 0) + (1 if event.get("recipe") else 0)
    return cards


def hand_context(hand: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not hand:
        return None
    toppings = hand.get("toppings") or {}
    return {
        "toppings": [topping_card(k, toppings[k]) for k in TOPPINGS if toppings.get(k)],
        "recipes": [recipe_card(r) for r in hand.get("recipes") or []],
        "topping_count": sum(toppings.values()),
    }


# The turn form -------------------------------------------------------------------------------------


def play_value(move: Move) -> str:
    """The ``play`` radio value: ``salami:3``, or ``pass`` for a turn without toppings."""
    if not move.get("topping"):
        return PASS
    return f"{move['topping']}:{move['count']}"


def turn_form(legal_moves: list[Move], view: View) -> dict[str, Any]:
    """The three radio groups of a phase-1 turn, offering only values found in ``legal_moves``."""
    turns = [m for m in legal_moves if m.get("type") == "turn"]
    passing = all(not m.get("topping") for m in turns)
    counts: dict[str, list[int]] = {}
    for move in turns:
        if move.get("topping"):
            counts.setdefault(move["topping"], []).append(move["count"])
    rows = [
        {
            **topping_card(kind, max(counts[kind])),
            "options": [
                {"value": f"{kind}:{n}", "count": n, "say": names.count_of(topping_name(kind), n)}
                for n in sorted(set(counts[kind]))
            ],
        }
        for kind in TOPPINGS
        if kind in counts
    ]
    recipes = list(dict.fromkeys(m["recipe"] for m in turns if m.get("recipe")))
    draws = list(dict.fromkeys(m.get("draw") for m in turns))
    return {
        "passing": passing,
        "rows": rows,
        "recipes": [recipe_card(r) for r in recipes],
        "draws": draw_options([d for d in draws if d], view),
        "no_draw": None in draws,
        "only_no_draw": draws == [None],
    }


def draw_options(draws: list[str], view: View) -> list[dict[str, Any]]:
    """Refill sources with how many cards each still holds."""
    seat = view.get("seat")
    sizes = {
        "kitchen": view.get("kitchen"),
        "recipes": at(view.get("recipe_decks"), seat) if seat is not None else None,
    }
    labels = {"kitchen": _("Kitchen"), "recipes": _("Your recipe deck")}
    says = {"kitchen": _("refill from the kitchen"), "recipes": _("refill from your recipe deck")}
    return [
        {"value": d, "label": str(labels.get(d, d)), "say": says.get(d, d), "size": sizes.get(d), "checked": i == 0}
        for i, d in enumerate(draws)
    ]


# The letter written after a turn's code in an e-mail reply for the pile the hand is refilled from ("12K").
REFILL_LETTERS = {"kitchen": "K", "recipes": "R"}


def play_label(move: Mapping[str, Any]) -> str:
    """What a phase-1 turn puts into the oven ("Put salami ×3 and green 4 into the oven"), without the refill."""
    if move.get("topping"):
        values = {"toppings": names.count_of(topping_name(move["topping"]), move.get("count")),
                  "recipe": recipe_name(move.get("recipe"))}
        return (_("Put %(toppings)s and %(recipe)s into the oven") if move.get("recipe")
                else _("Put %(toppings)s into the oven")) % values
    return _("Pass (no topping in hand)")


def turn_label(move: Mapping[str, Any]) -> str:
    """A whole phase-1 turn as one choice ("Put salami ×3 and green 4 into the oven, then refill from the
    kitchen"): what the three radio groups of the page say together."""
    play = play_label(move)
    draw = move.get("draw")
    if draw == "kitchen":
        refill = _("refill from the kitchen")
    elif draw == "recipes":
        refill = _("refill from your recipe deck")
    else:
        refill = _("draw nothing (your hand is full)")
    return _("%(play)s, then %(refill)s") % {"play": play, "refill": refill}


def describe_turn(candidate: Mapping[str, Any]) -> str:
    """A turn in words, for the "not allowed" message."""
    parts = []
    if candidate.get("topping"):
        parts.append(names.count_of(topping_name(candidate["topping"]), candidate.get("count")))
    else:
        parts.append(_("pass"))
    if candidate.get("recipe"):
        parts.append(recipe_name(candidate["recipe"]))
    if candidate.get("draw"):
        parts.append(_("draw from %(source)s") % {"source": source_name(candidate["draw"])})
    return names.join_list(parts)


# Phase-2 decisions ---------------------------------------------------------------------------------


def decision_form(
    legal_moves: list[Move], deciding: Mapping[str, Any] | None, table: Mapping[str, int]
) -> dict[str, Any]:
    """Phase 2: the ways to bake the revealed recipe (buttons, or radios when there are many) and declining."""
    recipe = (deciding or {}).get("recipe")
    adds = {sum((m.get("add") or {}).values()) for m in legal_moves if m.get("type") == "bake"}
    bakes = [
        {"value": move_value(m), "label": bake_label(m, recipe), "add": toppings_phrase(m.get("add") or {})}
        for m in legal_moves
        if m.get("type") == "bake"
    ]
    decline = next((m for m in legal_moves if m.get("type") == "decline"), None)
    return {
        "recipe": recipe_card(recipe) if recipe else None,
        "bakes": bakes,
        "as_radios": len(bakes) > MAX_BUTTONS,
        "table_total": sum(table.values()),
        # Bombastica-like choices add a fixed number of toppings of any kinds: say how many.
        "shortfall": adds.pop() if len(adds) == 1 and len(bakes) > MAX_BUTTONS else 0,
        "decline": {"value": move_value(decline), "label": decline_label(recipe)} if decline else None,
    }


def bake_label(move: Mapping[str, Any], recipe: Any) -> str:
    """What a bake decision does, e.g. "Add mushroom ×1 from your hand and bake green Minimale"."""
    values = {
        "recipe": recipe_name(recipe),
        "kind": topping_name(move.get("kind")),
        "add": toppings_phrase(move.get("add") or {}),
    }
    if move.get("kind") and move.get("add"):
        return _("Name %(kind)s, add %(add)s from your hand and bake %(recipe)s") % values
    if move.get("kind"):
        return _("Name %(kind)s and bake %(recipe)s") % values
    if move.get("add"):
        return _("Add %(add)s from your hand and bake %(recipe)s") % values
    return _("Bake %(recipe)s") % values


def decline_label(recipe: Any) -> str:
    return _("Don't bake: %(recipe)s goes back under your recipe deck") % {"recipe": recipe_name(recipe)}


# Log events ----------------------------------------------------------------------------------------


def _seat(event: Mapping[str, Any], players: Players, key: str = "seat") -> str:
    return names.player_name(players, event.get(key))


def _turn(event: dict[str, Any], players: Players) -> str:
    values = {
        "player": _seat(event, players),
        "toppings": names.count_of(topping_name(event["topping"]), event["count"]),
        "recipe": recipe_name(event.get("recipe")),
    }
    text = (
        _("%(player)s put %(toppings)s and %(recipe)s into the oven.")
        if event.get("recipe")
        else _("%(player)s put %(toppings)s into the oven.")
    ) % values
    return names.sentences(text, _drew(event))


def _pass(event: dict[str, Any], players: Players) -> str:
    text = _("%(player)s had no topping and passed.") % {"player": _seat(event, players)}
    return names.sentences(text, _drew(event))


def _drew(event: Mapping[str, Any]) -> str:
    """The public half of a refill: how many cards, from where."""
    drew = event.get("drew") or 0
    if not drew or not event.get("draw"):
        return ""
    if event["draw"] == "kitchen":
        return _("Drew %(count)s from the kitchen.") % {"count": drew}
    return _("Drew %(count)s from their recipe deck.") % {"count": drew}


def _drew_private(event: dict[str, Any], players: Players) -> str:
    cards = [toppings_phrase(event.get("toppings") or {})] if event.get("toppings") else []
    cards += [recipe_name(r) for r in event.get("recipes") or []]
    return _("%(player)s drew %(cards)s.") % {"player": _seat(event, players), "cards": names.join_list(cards)}


def _chef(event: dict[str, Any], players: Players) -> str:
    if event.get("reason") == "stall":
        return _("Nobody drew the Mamma Mia card: %(player)s, who started the round, is chef.") % {
            "player": _seat(event, players)
        }
    return _("%(player)s drew the Mamma Mia card and is chef this round.") % {"player": _seat(event, players)}


def _open(event: dict[str, Any], players: Players) -> str:
    values = {"chef": _seat(event, players, "chef")}
    if event.get("reason") == "stall":
        return _("Nobody could play on: the oven opens. %(chef)s, the chef, reveals it.") % values
    return _("The kitchen is empty: the oven opens. %(chef)s, the chef, reveals it.") % values


def _baked(event: dict[str, Any], players: Players) -> str:
    values = {
        "player": _seat(event, players),
        "recipe": recipe_name(event.get("recipe")),
        "used": toppings_phrase(event.get("used") or {}),
        "added": toppings_phrase(event.get("added") or {}),
    }
    if event.get("added"):
        return _("%(player)s baked %(recipe)s with %(used)s, adding %(added)s from hand!") % values
    return _("%(player)s baked %(recipe)s with %(used)s!") % values


def _returned(event: dict[str, Any], players: Players) -> str:
    values = {"player": _seat(event, players), "recipe": recipe_name(event.get("recipe"))}
    if event.get("declined"):
        return _("%(player)s chose not to bake %(recipe)s: it goes back under their recipe deck.") % values
    values["recipe"] = capfirst(values["recipe"])  # it starts the sentence; player names are left as typed
    return _("%(recipe)s cannot be baked: it goes back under %(player)s's recipe deck.") % values


def _forgotten(event: Mapping[str, Any], players: Players) -> str:
    """One announcement the viewer no longer remembers (strict memory): whose, never what."""
    if event.get("what") == "draw":
        return _("Your earlier draw is hidden by the memory rule.")
    return _("A play by %(player)s is hidden by the memory rule.") % {"player": _seat(event, players)}


OVEN_EVENTS = frozenset({"reveal", "baked", "returned", "shuffle"})


def oven_line(events: list[Mapping[str, Any]], players: Players) -> str:
    """An oven opening (its ``open`` event and the reveals, bakes and returns after it) in one line, for
    "since your last visit" (issue 32): how many cards came out, which recipes were baked, which went back."""
    cards = sum(1 for event in events if event.get("type") == "reveal")
    results = []
    for event in events:
        values = {"recipe": recipe_name(event.get("recipe")), "player": _seat(event, players)}
        if event.get("type") == "baked":
            results.append(_("%(recipe)s baked by %(player)s") % values)
        elif event.get("type") == "returned":
            results.append(_("%(recipe)s back to %(player)s") % values)
    if not results:
        return ngettext(
            "The oven opened (%(count)s card): no recipe in it yet.",
            "The oven opened (%(count)s cards): no recipe in it yet.",
            cards,
        ) % {"count": cards}
    return ngettext(
        "The oven opened (%(count)s card): %(results)s.", "The oven opened (%(count)s cards): %(results)s.", cards
    ) % {"count": cards, "results": _("; ").join(results)}


EVENT_DESCRIBERS = {
    "forgotten": _forgotten,
    "round": lambda e, p: (
        _("Round %(round)s begins; %(player)s starts.") % {"round": e["round"], "player": _seat(e, p, "first")}
    ),
    "turn": _turn,
    "pass": _pass,
    "drew": _drew_private,
    "chef": _chef,
    "open": _open,
    "reveal": lambda e, p: _("From the oven: %(card)s.") % {"card": card_name(e.get("card"))},
    "baked": _baked,
    "returned": _returned,
    "shuffle": lambda e, p: (
        _("The used toppings and the Mamma Mia card make a new kitchen of %(count)s cards.") % {"count": e["kitchen"]}
    ),
    "end": lambda e, p: (
        names.winners_sentence(p, e.get("winners") or [])
    ),
}


# The same events told to the player they are about (e-mails to their reader: "You put Olive ×2 into the oven.").


def _you_drew(event: Mapping[str, Any]) -> str:
    drew = event.get("drew") or 0
    if not drew or not event.get("draw"):
        return ""
    if event["draw"] == "kitchen":
        return _("Drew %(count)s from the kitchen.") % {"count": drew}
    return _("Drew %(count)s from your recipe deck.") % {"count": drew}


def _you_turn(event: dict[str, Any], players: Players) -> str:
    values = {
        "toppings": names.count_of(topping_name(event["topping"]), event["count"]),
        "recipe": recipe_name(event.get("recipe")),
    }
    text = (
        _("You put %(toppings)s and %(recipe)s into the oven.")
        if event.get("recipe")
        else _("You put %(toppings)s into the oven.")
    ) % values
    return names.sentences(text, _you_drew(event))


def _you_pass(event: dict[str, Any], players: Players) -> str:
    text = _("You had no topping and passed.")
    return names.sentences(text, _you_drew(event))


def _you_drew_private(event: dict[str, Any], players: Players) -> str:
    cards = [toppings_phrase(event.get("toppings") or {})] if event.get("toppings") else []
    cards += [recipe_name(r) for r in event.get("recipes") or []]
    return _("You drew %(cards)s.") % {"cards": names.join_list(cards)}


def _you_chef(event: dict[str, Any], players: Players) -> str:
    if event.get("reason") == "stall":
        return _("Nobody drew the Mamma Mia card: you started the round, so you are chef.")
    return _("You drew the Mamma Mia card and are chef this round.")


def _you_open(event: dict[str, Any], players: Players) -> str:
    if event.get("reason") == "stall":
        return _("Nobody could play on: the oven opens. You, the chef, reveal it.")
    return _("The kitchen is empty: the oven opens. You, the chef, reveal it.")


def _you_baked(event: dict[str, Any], players: Players) -> str:
    values = {
        "recipe": recipe_name(event.get("recipe")),
        "used": toppings_phrase(event.get("used") or {}),
        "added": toppings_phrase(event.get("added") or {}),
    }
    if event.get("added"):
        return _("You baked %(recipe)s with %(used)s, adding %(added)s from your hand!") % values
    return _("You baked %(recipe)s with %(used)s!") % values


def _you_returned(event: dict[str, Any], players: Players) -> str:
    values = {"recipe": recipe_name(event.get("recipe"))}
    if event.get("declined"):
        return _("You chose not to bake %(recipe)s: it goes back under your recipe deck.") % values
    values["recipe"] = capfirst(values["recipe"])
    return _("%(recipe)s cannot be baked: it goes back under your recipe deck.") % values


YOU_DESCRIBERS = {
    "round": lambda e, p: _("Round %(round)s begins; you start.") % {"round": e["round"]},
    "turn": _you_turn,
    "pass": _you_pass,
    "drew": _you_drew_private,
    "chef": _you_chef,
    "open": _you_open,
    "baked": _you_baked,
    "returned": _you_returned,
}
YOU_SUBJECTS = {"round": "first", "open": "chef"}

# Twins of the engine's MESSAGES, translatable.
MESSAGE_TEMPLATES = {
    "game_over": gettext_lazy("The game is over."),
    "not_your_turn": gettext_lazy("It is not your move now."),
    "not_a_move": gettext_lazy("That is not a move."),
    "wrong_move": gettext_lazy("Now the game expects a move of type %(expected)s."),
    "bad_keys": gettext_lazy("A %(type)s move has exactly the keys %(keys)s."),
    "unknown_topping": gettext_lazy("%(topping)s is not a topping."),
    "bad_count": gettext_lazy("Play a whole number of at least 1 toppings."),
    "not_in_hand": gettext_lazy("You do not hold %(count)s %(topping)s."),
    "must_play_topping": gettext_lazy("You hold toppings: play 1 or more of one kind."),
    "must_pass": gettext_lazy("You hold no topping, so you pass."),
    "no_recipe_when_passing": gettext_lazy("A player who passes may not play a recipe."),
    "unknown_recipe": gettext_lazy("%(recipe)s is not a recipe card."),
    "recipe_not_in_hand": gettext_lazy("You do not hold the recipe %(recipe)s."),
    "bad_draw_source": gettext_lazy("Draw from the kitchen or from your recipe deck."),
    "must_draw": gettext_lazy("Your hand is short: draw from the kitchen or from your recipe deck."),
    "hand_full": gettext_lazy("Your hand is full: draw nothing."),
    "empty_source": gettext_lazy("There is no card in %(source)s: draw from the other source."),
    "bad_kind": gettext_lazy("Name one of %(kinds)s for %(recipe)s."),
    "no_kind": gettext_lazy("%(recipe)s names no kind."),
    "bad_add": gettext_lazy("Add toppings from your hand as whole numbers of at least 1 per kind."),
    "wrong_add": gettext_lazy("%(recipe)s with this kind lacks exactly %(needed)s: add that."),
    "wrong_add_count": gettext_lazy("%(recipe)s lacks %(count)s toppings: add exactly that many, of any kinds."),
    "cannot_decline": gettext_lazy("The table alone completes %(recipe)s: it is baked, you only choose how."),
}


def _source_message(source: Any) -> str:
    return _("the kitchen") if source == "kitchen" else _("your recipe deck") if source == "recipes" else str(source)


MESSAGE_FORMATTERS = {
    "topping": topping_name,
    "recipe": recipe_name,
    "kinds": lambda kinds: (
        names.join_list(topping_name(k) for k in kinds) if isinstance(kinds, list | tuple) else topping_name(kinds)
    ),
    "needed": toppings_phrase,
    "source": _source_message,
    "keys": lambda keys: names.join_list(keys) if isinstance(keys, list | tuple) else str(keys),
}


class MammaMiaUI(GameUI):
    slug = "mamma-mia"
    awaited_phrases = (
        ("turn", gettext_lazy("it is your turn")),
        ("bake", gettext_lazy("decide about your recipe in the oven")),
        ("decline", gettext_lazy("decide about your recipe in the oven")),
    )
    option_labels = {
        "memory": (
            gettext_lazy("Memory"),
            gettext_lazy("How much of the oven you may look back on."),
            {
                "strict": gettext_lazy("Strict: only what you heard since your last turn"),
                "open": gettext_lazy("Open: every announcement of the round stays visible"),
            },
        ),
    }
    tie_break = gettext_lazy("the most topping cards left in hand")
    event_describers = EVENT_DESCRIBERS
    you_describers = YOU_DESCRIBERS
    you_subjects = YOU_SUBJECTS
    message_templates = MESSAGE_TEMPLATES
    message_formatters = MESSAGE_FORMATTERS

    def seat_details(self, *, view: View, seat: int, players: Players) -> dict[str, Any]:
        """Hand and recipe-deck sizes, baked recipes, the chef's Mamma Mia card, the seat's recipe colour."""
        colour = at(view.get("colours"), seat)
        return {
            "recipe_colour": colour or "",
            "recipe_colour_name": names.lookup(RECIPE_COLOUR_NAMES, colour) if colour else "",
            "hand_size": at(view.get("hand_sizes"), seat),
            "recipe_deck": at(view.get("recipe_decks"), seat),
            "baked": [recipe_card(r) for r in at(view.get("baked"), seat) or []],
            "is_chef": view.get("chef") == seat,
            "is_turn": view.get("turn") == seat,
        }

    def game_context(
        self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players
    ) -> dict[str, Any]:
        oven = view.get("oven") or {}
        table = view.get("table") or {}
        deciding = view.get("deciding")
        form = self.form_context(legal_moves=legal_moves, view=view)
        return {
            "phase": view.get("phase"),
            "over": bool(view.get("over")),
            "memory": view.get("memory"),
            "kitchen": view.get("kitchen"),
            "oven_size": oven.get("size", 0),
            "oven_top": any_card(oven.get("top")),
            "table": [topping_card(k, table[k]) for k in TOPPINGS if table.get(k)],
            "table_total": sum(table.values()),
            "used": view.get("used"),
            "chef": names.player_name(players, view["chef"]) if view.get("chef") is not None else None,
            "deciding": {
                "player": names.player_name(players, deciding.get("seat")),
                "recipe": recipe_card(deciding["recipe"]),
            }
            if deciding
            else None,
            "heard": heard_this_round(view.get("log") or [], players) if view.get("phase") == 1 else [],
            "heard_cards": heard_card_count(view.get("log") or []) if view.get("phase") == 1 else 0,
            "hand": hand_context(view.get("hand")),
            "form": form,
            # While a turn is chosen the form shows every topping and recipe in hand: the table does not repeat them.
            "hand_in_form": form["kind"] == "turn" and not form["passing"],
            "deciding_in_form": form["kind"] == "decide",
        }

    def readings(self, *, view: View, seat: int | None, players: Players, context: dict[str, Any]) -> dict[str, str]:
        """The viewer's hand, and the oven (its top card and count), the kitchen and the table (issue 31)."""
        readings: dict[str, str] = {}
        hand = view.get("hand")
        if seat is not None and hand:
            cards = [toppings_phrase(hand.get("toppings") or {})] if any((hand.get("toppings") or {}).values()) else []
            cards += [recipe_card(r)["label"] for r in hand.get("recipes") or []]
            readings["hand"] = (
                _("Your hand: %(cards)s.") % {"cards": names.reading_list(cards)} if cards else _("Your hand is empty.")
            )
        oven = view.get("oven") or {}
        size = oven.get("size", 0)
        top = oven.get("top")
        if top is not None:
            oven_text = ngettext(
                "Oven: %(count)s card, top card: %(card)s.", "Oven: %(count)s cards, top card: %(card)s.", size
            ) % {"count": size, "card": card_name(top)}
        elif size and view.get("phase") != 2:
            oven_text = ngettext(
                "Oven: %(count)s card, closed.", "Oven: %(count)s cards, closed.", size
            ) % {"count": size}
        elif size:
            oven_text = ngettext(
                "Oven: %(count)s card, face down.", "Oven: %(count)s cards, face down.", size
            ) % {"count": size}
        else:
            oven_text = _("Oven: empty.")
        kitchen = view.get("kitchen") or 0
        parts = [
            oven_text,
            ngettext("Kitchen: %(count)s card.", "Kitchen: %(count)s cards.", kitchen) % {"count": kitchen},
            _("On the table: %(toppings)s.") % {"toppings": toppings_phrase(view.get("table") or {})},
        ]
        if context["deciding"]:
            parts.append(
                _("Revealed: %(card)s, %(player)s decides.")
                % {"card": context["deciding"]["recipe"]["label"], "player": context["deciding"]["player"]}
            )
        readings["table"] = names.sentences(*parts)
        return readings

    @staticmethod
    def form_context(*, legal_moves: list[Move], view: View) -> dict[str, Any]:
        kinds = {m.get("type") for m in legal_moves}
        if not legal_moves:
            return {"kind": None}
        if "turn" in kinds:
            return {"kind": "turn", **turn_form(legal_moves, view)}
        return {"kind": "decide", **decision_form(legal_moves, view.get("deciding"), view.get("table") or {})}

    def parse_fields(self, post: Mapping[str, Any], *, legal_moves: list[Move]) -> Move:
        """The turn form: ``play`` (``kind:count`` or ``pass``), ``recipe`` (id or empty), ``draw``."""
        turns = [m for m in legal_moves if m.get("type") == "turn"]
        if not turns:
            raise BadMoveInput(_("Please choose one of the buttons."))
        play = post.get("play") or ""
        if not play:
            raise BadMoveInput(_("Please choose which toppings to put into the oven."))
        candidate = self.candidate_turn(
            play=play, recipe=post.get("recipe") or None, draw=post.get("draw") or None, turns=turns
        )
        move = find_legal(candidate, legal_moves)
        if move is None:
            raise BadMoveInput(_("That combination is not allowed: %(turn)s.") % {"turn": describe_turn(candidate)})
        return move

    @staticmethod
    def candidate_turn(*, play: str, recipe: str | None, draw: str | None, turns: list[Move]) -> dict[str, Any]:
        """The move the three radio groups describe; a pass takes the engine's own pass values."""
        if play == PASS:
            passing = next((m for m in turns if not m.get("topping")), {"topping": None, "count": 0})
            topping, count = passing["topping"], passing["count"]
        else:
            topping, _sep, count_text = play.partition(":")
            count = int(count_text)
        return {"type": "turn", "topping": topping, "count": count, "recipe": recipe, "draw": draw}

    def move_label(self, move: Move, *, view: View) -> str | None:
        """A turn in words; a decision about the recipe in the oven as its button says it."""
        kind = move.get("type")
        if kind == "turn":
            return turn_label(move)
        recipe = (view.get("deciding") or {}).get("recipe")
        if kind == "bake":
            return bake_label(move, recipe)
        if kind == "decline":
            return decline_label(recipe)
        return None

    def reply_menu(self, *, view: View, legal_moves: list[Move]) -> ReplyMenu:
        """A turn by e-mail: one code per play (toppings, recipe) and, when the hand is refilled and both piles
        may be drawn from, a letter for the pile ("12K", "12R"): each play is listed once, not once per pile, so
        every turn fits in a short list. A decision about the oven's recipe: one code per way."""
        if not any(move.get("type") == "turn" for move in legal_moves):
            return super().reply_menu(view=view, legal_moves=legal_moves)
        groups: dict[tuple, dict[str, Move]] = {}
        for move in legal_moves:
            play = (move.get("topping"), move.get("count"), move.get("recipe"))
            groups.setdefault(play, {})[REFILL_LETTERS.get(move.get("draw"), "")] = move
        options = []
        for number, moves in enumerate(groups.values(), start=1):
            if len(moves) == 1:
                [(letter, move)] = moves.items()
                choices = {"": move, letter: move} if letter else {"": move}
                options.append(ReplyOption(str(number), turn_label(move), choices))
            else:
                options.append(ReplyOption(str(number), play_label(next(iter(moves.values()))), moves))
        parts = []
        if any(len(option.moves) > 1 and "" not in option.moves for option in options):
            parts = [(REFILL_LETTERS["kitchen"], _("refill from the kitchen")),
                     (REFILL_LETTERS["recipes"], _("refill from your recipe deck"))]
        return ReplyMenu(options, parts=parts)

    collapsed_events = frozenset({"forgotten"})

    def since_lines(self, events: list[Mapping[str, Any]], *, players: Players) -> list[str]:
        """The log's lines, but each oven opening (about 19 lines) as one (``oven_line``)."""
        lines: list[str] = []
        rest: list[Mapping[str, Any]] = []
        position = 0
        while position < len(events):
            event = events[position]
            position += 1
            if event.get("type") != "open":
                rest.append(event)
                continue
            oven = [event]
            while position < len(events) and events[position].get("type") in OVEN_EVENTS:
                oven.append(events[position])
                position += 1
            lines += super().since_lines(rest, players=players)
            rest = []
            lines.append(escape(oven_line(oven, players)))
        return lines + super().since_lines(rest, players=players)

    def collapsed_text(self, events: list[Mapping[str, Any]], *, players: Players) -> str:
        """A run of announcements the viewer no longer hears (strict memory): how many, never what."""
        plays = sum(1 for event in events if event.get("what") == "play")
        if not plays:
            return _("Your earlier draws are hidden by the memory rule.")
        return ngettext(
            "%(count)s play hidden by the memory rule.", "%(count)s plays hidden by the memory rule.", plays
        ) % {"count": plays}

    def replay_reveal(self, state: dict[str, Any]) -> dict[str, Any] | None:
        """The oven's cards in the order they went in (face down during the game)."""
        oven = [any_card(card) for card in state.get("oven") or []]
        return {"oven": [card for card in oven if card is not None]}

    def score_text(self, score: Any) -> str:
        """Mamma Mia! scores baked recipes."""
        return ngettext("%(count)s recipe baked", "%(count)s recipes baked", plural_count(score)) % {
            "count": score_number(score)
        }

    def final_details(self, state: dict[str, Any], players: Players) -> dict[int, dict[str, Any]]:
        """The recipes each seat baked; toppings left in hand break a tie (the rules: most toppings wins)."""
        details = {}
        hands = state.get("hands") or []
        for seat, baked in enumerate(state.get("baked") or []):
            left = sum((at(hands, seat) or {}).get("toppings", {}).values())
            details[seat] = {
                "parts": [recipe_name(recipe) for recipe in baked],
                "tie_break": ngettext(
                    "%(count)s topping left in hand", "%(count)s toppings left in hand", left
                ) % {"count": left},
            }
        return details

    def revealed_hands(self, state: dict[str, Any]) -> list[Any]:
        """Each seat's final hand: ``[{"seat": s, "toppings": [topping cards], "recipes": [recipe cards]}]``."""
        revealed = []
        for seat, hand in enumerate(state.get("hands") or []):
            shown = hand_context(hand) or {"toppings": [], "recipes": [], "topping_count": 0}
            revealed.append({"seat": seat, **shown})
        return revealed


ui = MammaMiaUI()
