"""こなもんっ! (Konamon!): boards of chips, customers on the mood track, action cards.

Card work is one step per move, so the forms are plain buttons (one legal
move each); only the two-player "play one, discard one" choice is a small
form with two radio groups that ``parse_fields`` assembles.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext as _

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
)
from konamon.names import BOARD_NAMES, PROCESS_NAMES, PRODUCT_NAMES

DATA_FILE = Path(__file__).resolve().parent / "data.json"
PRODUCTS = ("okonomiyaki", "taiyaki", "takoyaki")  # canonical order (shared/rules/konamon.md)
PROCESSES = ("prep", "bake", "hand_over")
STEP_EVENTS = frozenset(PROCESSES)  # each step scores 1 point
BOARDS = ("cooking", "stove", "showcase")
BOARD_LIMIT = 5
MOOD_PLACES = (3, 2, 1, 0)

EFFECT_NAMES = {
    "none": pgettext_lazy("konamon effect", "no effect"),
    "hurry": pgettext_lazy("konamon effect", "in a hurry"),
    "treat": pgettext_lazy("konamon effect", "brings a treat"),
    "snack": pgettext_lazy("konamon effect", "snacks"),
    "draw": pgettext_lazy("konamon effect", "everyone draws"),
    "critic": pgettext_lazy("konamon effect", "critic"),
}
EFFECT_HELP = {
    "none": "",
    "hurry": gettext_lazy("Arrives at mood 2 instead of 3."),
    "treat": gettext_lazy("On arrival a cooked chip of the first ordered product goes to the showcase."),
    "snack": gettext_lazy("On arrival eats one chip from the showcase."),
    "draw": gettext_lazy(
        "On arrival every player draws 1 action card, so everyone chooses from 6 cards this round;"
        " the refill tops hands up to 5 again."
    ),
    "critic": gettext_lazy("On arrival every leader loses 1 point."),
}
# What ending a process early is called on its button.
NEXT_LABELS = {
    "prep": gettext_lazy("Done with prep"),
    "bake": gettext_lazy("Done with baking"),
    "hand_over": gettext_lazy("Done handing over"),
}


@cache
def card_data() -> dict[str, Any]:
    """The engine's card data file (action counts, customer names and orders)."""
    with DATA_FILE.open(encoding="utf-8") as handle:
        return json.load(handle)


@cache
def action_counts() -> dict[int, dict[str, int]]:
    return {card["number"]: {p: card[p] for p in PROCESSES} for card in card_data()["actions"]}


@cache
def products_by_id() -> dict[str, dict[str, Any]]:
    return {product["id"]: product for product in card_data().get("products", [])}


@cache
def customers_by_id() -> dict[str, dict[str, Any]]:
    return {customer["id"]: customer for customer in card_data()["customers"]}


# Names ------------------------------------------------------------------------------


def product_name(product: Any) -> str:
    """A product's name: the data file's own Japanese name for ja readers, else the translated English one."""
    data = products_by_id().get(product) if isinstance(product, str) else None
    if data and (get_language() or "").lower().startswith("ja") and data.get("name", {}).get("ja"):
        return str(data["name"]["ja"])
    return names.lookup(PRODUCT_NAMES, product)


def process_name(process: Any) -> str:
    return names.lookup(PROCESS_NAMES, process)


def customer_name(cid: Any) -> str:
    """A customer's name in the reader's language (ja names for ja readers, else en)."""
    customer = customers_by_id().get(cid) if isinstance(cid, str) else None
    return names.localized(customer["name"]) if customer else str(cid)


def products_phrase(products: Any) -> str:
    """A list of products (chips) as ``okonomiyaki ×2, takoyaki ×1``."""
    products = list(products or [])
    counts = [(p, products.count(p)) for p in PRODUCTS if p in products]
    counts += [(p, products.count(p)) for p in dict.fromkeys(products) if p not in PRODUCTS]
    return names.join_list(names.count_of(product_name(p), n) for p, n in counts) if counts else _("nothing")


def cards_phrase(cards: Any) -> str:
    """Action card numbers as ``No. 12 and No. 58`` style list."""
    return names.join_list(_("No. %(number)s") % {"number": card} for card in (cards or []))


# Context pieces ------------------------------------------------------------------------


def action_card(number: int) -> dict[str, Any]:
    """An action card for the templates: number and its three counts."""
    counts = action_counts().get(number, dict.fromkeys(PROCESSES, 0))
    return {
        "number": number,
        "counts": [
            {"process": p, "name": process_name(p), "count": counts[p], "pips": range(counts[p])} for p in PROCESSES
        ],
        "label": _("Action card No. %(number)s: prep %(prep)s, bake %(bake)s, hand over %(hand_over)s")
        % {"number": number, **counts},
        "help_topic": f"action-{number}",  # its explanation on the table (konamon/table_help.py)
    }


def chips(counts: Mapping[str, int], *, cooked: bool) -> list[dict[str, Any]]:
    """A by-product count as a row of chips in canonical order."""
    return [chip(p, cooked=cooked) for p in PRODUCTS for _ in range(int(counts.get(p, 0) or 0))]


def chip(product: str, *, cooked: bool) -> dict[str, Any]:
    state = _("cooked") if cooked else _("raw")
    return {
        "product": product,
        "cooked": cooked,
        "label": _("%(state)s %(product)s") % {"state": state, "product": product_name(product)},
        "help_topic": f"chip-{product}-{'cooked' if cooked else 'raw'}",
    }


def count_list(counts: Mapping[str, int]) -> list[dict[str, Any]]:
    return [{"product": p, "name": product_name(p), "count": int(counts.get(p, 0) or 0)} for p in PRODUCTS]


def board(name: str, counts: Mapping[str, int]) -> dict[str, Any]:
    """One of the three boards with its chips and free slots (showcase chips are cooked)."""
    row = chips(counts, cooked=name == "showcase")
    return {
        "id": name,
        "name": str(BOARD_NAMES[name]),
        "chips": row,
        "total": len(row),
        "limit": BOARD_LIMIT,
        "free": range(max(0, BOARD_LIMIT - len(row))),
        "summary": products_phrase([c["product"] for c in row]),
    }


def customer_context(customer: Mapping[str, Any]) -> dict[str, Any]:
    """A customer on the mood track: name, bonus, effect and each ordered chip, filled or open."""
    cid = customer.get("id")
    data = customers_by_id().get(cid, {})
    orders = list(customer.get("orders") or data.get("orders") or [])
    placed = dict(customer.get("chips") or {})
    slots = []
    for product in orders:
        filled = placed.get(product, 0) > 0
        if filled:
            placed[product] -= 1
        slots.append({"product": product, "name": product_name(product), "filled": filled})
    effect = customer.get("effect") or data.get("effect") or "none"
    return {
        "id": cid,
        "help_topic": f"customer-{cid}",
        "name": names.localized(customer.get("name") or data.get("name")) or str(cid),
        "bonus": customer.get("bonus", data.get("bonus")),
        "mood": customer.get("mood"),
        "effect": effect,
        "effect_name": names.lookup(EFFECT_NAMES, effect),
        "effect_help": str(EFFECT_HELP.get(effect, "")),
        "slots": slots,
        "missing": products_phrase(
            [p for p in PRODUCTS for _ in range(int((customer.get("missing") or {}).get(p, 0)))]
        ),
    }


def served_customer(cid: Any) -> dict[str, Any]:
    """A customer a seat has served, as the seat lists it: name and bonus (no order, no effect)."""
    data = customers_by_id().get(cid, {}) if isinstance(cid, str) else {}
    return {
        "id": cid,
        "name": names.localized(data.get("name")) or str(cid),
        "bonus": data.get("bonus"),
        "help_topic": f"customer-{cid}",
    }


def mood_track(customers: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The four mood places, 3 to 0, each with its customers."""
    places = []
    for mood in MOOD_PLACES:
        here = [customer_context(c) for c in customers if c.get("mood") == mood]
        places.append({"mood": mood, "customers": here, "leaving": mood == 0})
    return places


def working_context(working: Mapping[str, Any] | None, players: Players) -> dict[str, Any] | None:
    """The card being carried out, with each process done / current / still to come."""
    if not working:
        return None
    card = working.get("card")
    left = working.get("left") or {}
    current = working.get("process")
    order = PROCESSES.index(current) if current in PROCESSES else 0
    steps = []
    for index, process in enumerate(PROCESSES):
        remaining = int(left.get(process, 0) or 0)
        status = (
            "done" if index < order or (index == order and not remaining) else "current" if index == order else "todo"
        )
        steps.append({"process": process, "name": capfirst(process_name(process)), "left": remaining, "status": status})
    return {
        "seat": working.get("seat"),
        "player": names.player_name(players, working.get("seat")),
        "card": action_card(card) if isinstance(card, int) else None,
        "process": current,
        "process_name": process_name(current),
        "steps": steps,
    }


# Forms ---------------------------------------------------------------------------------


def choose_forms(legal_moves: list[Move], hand: list[int]) -> dict[str, Any]:
    """Choosing: single cards, valid pairs, or (two players, no pair) a card plus a discard."""
    singles = [m for m in legal_moves if len(m.get("cards", [])) == 1 and m.get("discard") is None]
    pairs = [m for m in legal_moves if len(m.get("cards", [])) == 2]
    with_discard = [m for m in legal_moves if m.get("discard") is not None]
    return {
        "hand": [action_card(n) for n in hand],
        "singles": [{"value": move_value(m), "card": action_card(m["cards"][0])} for m in singles],
        "pairs": [pair_option(m) for m in pairs],
        "discard": discard_form(with_discard),
    }


def pair_option(move: Move) -> dict[str, Any]:
    """Two cards played together: their numbers, sum and what they do between them."""
    first, second = move["cards"]
    counts = {p: sum(action_counts().get(n, {}).get(p, 0) for n in (first, second)) for p in PROCESSES}
    values = {"first": first, "second": second, "total": first + second, **counts}
    return {
        "value": move_value(move),
        "first": first,
        "second": second,
        "total": first + second,
        "counts": _("prep %(prep)s · bake %(bake)s · hand over %(hand_over)s") % values,
        "label": _("Play No. %(first)s and No. %(second)s (together %(total)s): %(what)s")
        % {**values, "what": _("prep %(prep)s, bake %(bake)s, hand over %(hand_over)s") % values},
    }


def discard_form(moves: list[Move]) -> dict[str, Any] | None:
    """Two players holding no pair to 90: which card to play, which to discard."""
    if not moves:
        return None
    plays = sorted({m["cards"][0] for m in moves})
    discards = sorted({m["discard"] for m in moves})
    return {
        "plays": [action_card(n) for n in plays],
        "discards": [action_card(n) for n in discards],
    }


def step_label(move: Mapping[str, Any]) -> tuple[str, str] | None:
    """(label, help) of one step of a process, or None for a move that is not one."""
    kind = move.get("type")
    product = move.get("product")
    if kind == "prep":
        return _("Prep: %(product)s") % {"product": product_name(product)}, _("stock → cooking board, +1 point")
    if kind == "bake":
        return _("Bake: %(product)s") % {"product": product_name(product)}, _("cooking board → stove, +1 point")
    if kind == "hand_over":
        label = _("Hand over %(product)s to %(customer)s") % {
            "product": product_name(product),
            "customer": customer_name(move.get("customer")),
        }
        return label, _("showcase → customer, +1 point")
    return None


def card_work(numbers: list[int]) -> str:
    """What action cards do between them: "prep 1, bake 2, hand over 0"."""
    counts = {p: sum(action_counts().get(n, {}).get(p, 0) for n in numbers) for p in PROCESSES}
    return _("prep %(prep)s, bake %(bake)s, hand over %(hand_over)s") % counts


def step_forms(legal_moves: list[Move], players: Players) -> list[dict[str, Any]]:
    """One button per step of the current process, then the button that ends it early."""
    buttons = []
    for move in legal_moves:
        kind = move.get("type")
        product = move.get("product")
        step = step_label(move)
        if step is None:
            continue
        label, help_text = step
        buttons.append(
            {
                "value": move_value(move),
                "kind": kind,
                "chip": chip(product, cooked=kind == "hand_over"),
                "label": label,
                "help": help_text,
            }
        )
    return buttons


def next_button(legal_moves: list[Move], working: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The "end this process early" button, explaining what is given up."""
    move = next((m for m in legal_moves if m.get("type") == "next"), None)
    if move is None:
        return None
    process = (working or {}).get("process")
    left = int(((working or {}).get("left") or {}).get(process, 0) or 0)
    return {
        "value": move_value(move),
        "label": str(NEXT_LABELS.get(process, _("Done"))),
        "help": ngettext(
            "Skips the %(count)s remaining %(process)s step; it scores nothing.",
            "Skips the %(count)s remaining %(process)s steps; they score nothing.",
            left,
        )
        % {"count": left, "process": process_name(process)},
    }


def unload_forms(legal_moves: list[Move], stove: Mapping[str, int]) -> list[dict[str, Any]]:
    """Out of the stove with too little showcase room: which chips to keep, and what goes back."""
    options = []
    for move in legal_moves:
        if move.get("type") != "unload":
            continue
        keep = list(move.get("keep") or [])
        label, help_text = unload_label(move, stove)
        options.append(
            {
                "value": move_value(move),
                "chips": [chip(p, cooked=True) for p in keep],
                "label": label,
                "help": help_text,
            }
        )
    return options


def unload_label(move: Mapping[str, Any], stove: Mapping[str, int]) -> tuple[str, str]:
    """(label, help) of a choice of chips to keep out of the stove."""
    keep = list(move.get("keep") or [])
    back = [p for p in PRODUCTS for _ in range(max(0, int(stove.get(p, 0) or 0) - keep.count(p)))]
    return (_("Keep %(chips)s") % {"chips": products_phrase(keep)},
            _("back to the stock: %(chips)s") % {"chips": products_phrase(back)})


# Log events -------------------------------------------------------------------------------


def _seat(event: dict[str, Any], players: Players) -> str:
    return names.player_name(players, event.get("seat"))


def _customer(event: dict[str, Any]) -> str:
    return customer_name(event.get("customer"))


def _product(event: dict[str, Any]) -> str:
    return product_name(event.get("product"))


def _arrival(event: dict[str, Any], players: Players) -> str:
    text = _("%(customer)s arrives at mood %(mood)s.") % {"customer": _customer(event), "mood": event["mood"]}
    effect = event.get("effect")
    if effect and effect != "none":
        text = names.sentences(text, _("Effect: %(effect)s.") % {"effect": names.lookup(EFFECT_NAMES, effect)})
    return text


def _penalty(event: dict[str, Any], players: Players) -> str:
    values = {"player": _seat(event, players), "points": event["points"]}
    count = plural_count(event["points"])
    if event.get("cause") == "critic":
        return ngettext(
            "%(player)s loses %(points)s point to the food critic.",
            "%(player)s loses %(points)s points to the food critic.",
            count,
        ) % values
    if event.get("cause") == "mood":
        return ngettext(
            "%(player)s loses %(points)s point for customers who left angry.",
            "%(player)s loses %(points)s points for customers who left angry.",
            count,
        ) % values
    return ngettext("%(player)s loses %(points)s point.", "%(player)s loses %(points)s points.", count) % values


def _reveal(event: dict[str, Any], players: Players) -> str:
    values = {"player": _seat(event, players), "cards": cards_phrase(event.get("cards"))}
    if event.get("discard") is not None:  # older logs carried the discard on the reveal
        values["discard"] = event["discard"]
        return _("%(player)s plays %(cards)s and discards No. %(discard)s.") % values
    return _("%(player)s plays %(cards)s.") % values


def _choice(event: dict[str, Any], players: Players) -> str:
    values = {"player": _seat(event, players), "cards": cards_phrase(event.get("cards"))}
    if event.get("discard") is not None:
        values["discard"] = event["discard"]
        return _("%(player)s chose %(cards)s and will discard No. %(discard)s (secret until the reveal).") % values
    return _("%(player)s chose %(cards)s (secret until the reveal).") % values


def _unload(event: dict[str, Any], players: Players) -> str:
    values = {
        "player": _seat(event, players),
        "keep": products_phrase(event.get("keep")),
        "back": products_phrase(event.get("back")),
    }
    if event.get("back"):
        return (
            _("%(player)s takes %(keep)s out of the stove into the showcase; %(back)s go back to the stock.") % values
        )
    return _("%(player)s takes %(keep)s out of the stove into the showcase.") % values


def _end(event: dict[str, Any], players: Players) -> str:
    winners = names.platform_winners(players, event.get("winners") or [])  # a resigned seat never leads
    if not winners:
        return _("The game is over.")
    return _("The game is over. Shift leader: %(winners)s!") % {"winners": names.player_list(players, winners)}


EVENT_DESCRIBERS = {
    "round": lambda e, p: _("Round %(round)s begins.") % {"round": e["round"]},
    "deal": lambda e, p: (
        _("%(player)s is dealt %(cards)s.") % {"player": _seat(e, p), "cards": cards_phrase(e["cards"])}
    ),
    "arrival": _arrival,
    "hurry": lambda e, p: (
        _("%(customer)s is in a hurry: starts at mood %(mood)s.") % {"customer": _customer(e), "mood": e["mood"]}
    ),
    "treat": lambda e, p: (
        _("%(customer)s brings a treat: one cooked %(product)s goes into the showcase.")
        % {"customer": _customer(e), "product": _product(e)}
    ),
    "snack": lambda e, p: (
        _("%(customer)s snacks on one %(product)s from the showcase.")
        % {"customer": _customer(e), "product": _product(e)}
    ),
    "penalty": _penalty,
    "draw": lambda e, p: (
        ngettext("%(player)s draws %(count)s action card.", "%(player)s draws %(count)s action cards.", e["count"])
        % {"player": _seat(e, p), "count": e["count"]}
    ),
    "drew": lambda e, p: _("%(player)s draws %(cards)s.") % {"player": _seat(e, p), "cards": cards_phrase(e["cards"])},
    "reshuffle": lambda e, p: (
        _("The discard pile (%(count)s cards) is shuffled into a new action deck.") % {"count": e["cards"]}
    ),
    "chose": lambda e, p: _("%(player)s has chosen.") % {"player": _seat(e, p)},
    "choice": _choice,
    "choice_discard": lambda e, p: (
        _("%(player)s set No. %(card)s aside to discard (secret until the reveal).")
        % {"player": _seat(e, p), "card": e["card"]}
    ),
    "reveal": _reveal,
    "discard": lambda e, p: _("%(player)s discards No. %(card)s.") % {"player": _seat(e, p), "card": e["card"]},
    "card": lambda e, p: (
        _("%(player)s carries out No. %(card)s (prep %(prep)s, bake %(bake)s, hand over %(hand_over)s).")
        % {"player": _seat(e, p), "card": e["card"], "prep": e["prep"], "bake": e["bake"], "hand_over": e["hand_over"]}
    ),
    "prep": lambda e, p: _("%(player)s preps one %(product)s.") % {"player": _seat(e, p), "product": _product(e)},
    "bake": lambda e, p: (
        _("%(player)s puts one %(product)s on the stove.") % {"player": _seat(e, p), "product": _product(e)}
    ),
    "hand_over": lambda e, p: (
        _("%(player)s hands one %(product)s to %(customer)s.")
        % {"player": _seat(e, p), "product": _product(e), "customer": _customer(e)}
    ),
    "take": lambda e, p: (
        ngettext(
            "%(player)s completes the order of %(customer)s and scores %(bonus)s bonus point.",
            "%(player)s completes the order of %(customer)s and scores %(bonus)s bonus points.",
            plural_count(e["bonus"]),
        )
        % {"player": _seat(e, p), "customer": _customer(e), "bonus": e["bonus"]}
    ),
    "next": lambda e, p: (
        _("%(player)s ends %(process)s early.") % {"player": _seat(e, p), "process": process_name(e["process"])}
    ),
    "blocked": lambda e, p: (
        ngettext(
            "%(player)s cannot %(process)s any more (%(unused)s step unused).",
            "%(player)s cannot %(process)s any more (%(unused)s steps unused).",
            plural_count(e["unused"]),
        )
        % {"player": _seat(e, p), "process": process_name(e["process"]), "unused": e["unused"]}
    ),
    "done": lambda e, p: _("%(player)s is done with No. %(card)s.") % {"player": _seat(e, p), "card": e["card"]},
    "unload": _unload,
    "leave": lambda e, p: (
        _("%(customer)s leaves angry (bonus %(bonus)s lost to the leaders).")
        % {"customer": _customer(e), "bonus": e["bonus"]}
    ),
    "end": _end,
}



# The same events told to the player they are about (e-mails to their reader: "You carry out No. 16.").


def _you_penalty(event: dict[str, Any], players: Players) -> str:
    values = {"points": event["points"]}
    count = plural_count(event["points"])
    if event.get("cause") == "critic":
        return ngettext(
            "You lose %(points)s point to the food critic.", "You lose %(points)s points to the food critic.", count
        ) % values
    if event.get("cause") == "mood":
        return ngettext(
            "You lose %(points)s point for customers who left angry.",
            "You lose %(points)s points for customers who left angry.",
            count,
        ) % values
    return ngettext("You lose %(points)s point.", "You lose %(points)s points.", count) % values


def _you_reveal(event: dict[str, Any], players: Players) -> str:
    values = {"cards": cards_phrase(event.get("cards"))}
    if event.get("discard") is not None:
        values["discard"] = event["discard"]
        return _("You play %(cards)s and discard No. %(discard)s.") % values
    return _("You play %(cards)s.") % values


def _you_choice(event: dict[str, Any], players: Players) -> str:
    values = {"cards": cards_phrase(event.get("cards"))}
    if event.get("discard") is not None:
        values["discard"] = event["discard"]
        return _("You chose %(cards)s and will discard No. %(discard)s (secret until the reveal).") % values
    return _("You chose %(cards)s (secret until the reveal).") % values


def _you_unload(event: dict[str, Any], players: Players) -> str:
    values = {"keep": products_phrase(event.get("keep")), "back": products_phrase(event.get("back"))}
    if event.get("back"):
        return _("You take %(keep)s out of the stove into the showcase; %(back)s go back to the stock.") % values
    return _("You take %(keep)s out of the stove into the showcase.") % values


YOU_DESCRIBERS = {
    "deal": lambda e, p: _("You are dealt %(cards)s.") % {"cards": cards_phrase(e["cards"])},
    "penalty": _you_penalty,
    "draw": lambda e, p: (
        ngettext("You draw %(count)s action card.", "You draw %(count)s action cards.", e["count"])
        % {"count": e["count"]}
    ),
    "drew": lambda e, p: _("You draw %(cards)s.") % {"cards": cards_phrase(e["cards"])},
    "chose": lambda e, p: _("You have chosen."),
    "choice": _you_choice,
    "choice_discard": lambda e, p: (
        _("You set No. %(card)s aside to discard (secret until the reveal).") % {"card": e["card"]}
    ),
    "reveal": _you_reveal,
    "discard": lambda e, p: _("You discard No. %(card)s.") % {"card": e["card"]},
    "card": lambda e, p: (
        _("You carry out No. %(card)s (prep %(prep)s, bake %(bake)s, hand over %(hand_over)s).")
        % {"card": e["card"], "prep": e["prep"], "bake": e["bake"], "hand_over": e["hand_over"]}
    ),
    "prep": lambda e, p: _("You prep one %(product)s.") % {"product": _product(e)},
    "bake": lambda e, p: _("You put one %(product)s on the stove.") % {"product": _product(e)},
    "hand_over": lambda e, p: (
        _("You hand one %(product)s to %(customer)s.") % {"product": _product(e), "customer": _customer(e)}
    ),
    "take": lambda e, p: (
        ngettext(
            "You complete the order of %(customer)s and score %(bonus)s bonus point.",
            "You complete the order of %(customer)s and score %(bonus)s bonus points.",
            plural_count(e["bonus"]),
        )
        % {"customer": _customer(e), "bonus": e["bonus"]}
    ),
    "next": lambda e, p: _("You end %(process)s early.") % {"process": process_name(e["process"])},
    "blocked": lambda e, p: (
        ngettext(
            "You cannot %(process)s any more (%(unused)s step unused).",
            "You cannot %(process)s any more (%(unused)s steps unused).",
            plural_count(e["unused"]),
        )
        % {"process": process_name(e["process"]), "unused": e["unused"]}
    ),
    "done": lambda e, p: _("You are done with No. %(card)s.") % {"card": e["card"]},
    "unload": _you_unload,
}

# Twins of the engine's MESSAGES, translatable.
MESSAGE_TEMPLATES = {
    "game_over": gettext_lazy("The game is over."),
    "bad_seat": gettext_lazy("There is no seat %(seat)s."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "bad_move": gettext_lazy("A move is an object with a type."),
    "unexpected_move": gettext_lazy("Now the move must be one of: %(expected)s."),
    "bad_keys": gettext_lazy("This move takes exactly the keys: %(keys)s."),
    "bad_cards": gettext_lazy(
        "The number of cards you play must be %(count)s, given as a list of action numbers."
    ),
    "not_in_hand": gettext_lazy("Card No. %(card)s is not in your hand."),
    "same_card": gettext_lazy("You cannot use card No. %(card)s twice."),
    "not_ascending": gettext_lazy("List your two cards in ascending order."),
    "pair_over_90": gettext_lazy("Cards No. %(first)s and No. %(second)s add up to %(total)s, more than 90."),
    "discard_with_pair": gettext_lazy("When you play two cards, you discard nothing."),
    "must_play_pair": gettext_lazy("You hold two cards that add up to 90 or less: play two cards."),
    "discard_required": gettext_lazy("Playing a single card, you discard one other card from your hand."),
    "unknown_product": gettext_lazy("%(product)s is not a product."),
    "not_current_process": gettext_lazy("Now you carry out %(process)s."),
    "stock_empty": gettext_lazy("The stock has no %(product)s."),
    "cooking_lacks": gettext_lazy("The cooking board has no %(product)s."),
    "showcase_lacks": gettext_lazy("The showcase has no %(product)s."),
    "customer_absent": gettext_lazy("%(customer)s is not on the mood track."),
    "not_ordered": gettext_lazy("%(customer)s does not need %(product)s."),
    "keep_count": gettext_lazy("The number of chips you keep from the stove must be exactly %(room)s."),
    "keep_order": gettext_lazy("List the kept chips in the canonical product order."),
    "keep_not_on_stove": gettext_lazy("The stove does not hold that many %(product)s."),
}


def _card_count(value: Any) -> str:
    # The engine says "1 or 2" in English for two players.
    return _("1 or 2") if value == "1 or 2" else str(value)


MESSAGE_FORMATTERS = {
    "product": product_name,
    "customer": customer_name,
    "process": process_name,
    "count": _card_count,
}


class KonamonUI(GameUI):
    slug = "konamon"
    awaited_phrases = (
        ("choose", gettext_lazy("choose your cards")),
        ("prep", gettext_lazy("work your card")),
        ("bake", gettext_lazy("work your card")),
        ("hand_over", gettext_lazy("work your card")),
        ("unload", gettext_lazy("work your card")),
        ("next", gettext_lazy("work your card")),
    )
    tie_break = gettext_lazy("the most customer cards taken")
    event_describers = EVENT_DESCRIBERS
    you_describers = YOU_DESCRIBERS
    message_templates = MESSAGE_TEMPLATES
    message_formatters = MESSAGE_FORMATTERS

    def game_context(
        self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players
    ) -> dict[str, Any]:
        working = view.get("working")
        form = self.form_context(
            legal_moves=legal_moves,
            working=working,
            players=players,
            hand=view.get("hand") or [],
            stove=(view.get("boards") or {}).get("stove") or {},
        )
        context = {
            "phase": view.get("phase"),
            "boards": [board(name, (view.get("boards") or {}).get(name) or {}) for name in BOARDS],
            "stock": count_list(view.get("stock") or {}),
            "mood_track": mood_track(view.get("customers") or []),
            "customer_deck": view.get("customer_deck"),
            "action_deck": view.get("action_deck"),
            "discard_count": len(view.get("discard_pile") or []),
            "working": working_context(working, players),
            "queue": [
                {"card": action_card(item["card"]), "player": names.player_name(players, item.get("seat"))}
                for item in view.get("queue") or []
            ],
            "hand": [action_card(n) for n in view.get("hand") or []],
            "choice": self.own_choice(view.get("choice")),
            "waiting_names": names.player_list(players, view.get("waiting_for") or []),
            "form": form,
            # Choosing shows every card in hand as a button: the table does not repeat the hand then.
            "hand_in_form": form["kind"] == "choose",
        }
        return context

    def readings(self, *, view: View, seat: int | None, players: Players, context: dict[str, Any]) -> dict[str, str]:
        """The viewer's hand and secret choice, and the kitchen's counts and the card being carried out (issue 31)."""
        readings: dict[str, str] = {}
        if seat is not None:
            hand = context["hand"]
            parts = [
                _("Your hand: %(cards)s.") % {"cards": names.reading_list(c["label"] for c in hand)}
                if hand
                else _("Your hand is empty.")
            ]
            choice = context["choice"]
            if choice:
                cards = names.reading_list(c["label"] for c in choice["cards"])
                parts.append(_("Your secret choice: %(cards)s.") % {"cards": cards})
            readings["hand"] = names.sentences(*parts)
        stock = [names.count_of(item["name"], item["count"]) for item in context["stock"]]
        parts = [_("Kitchen stock: %(products)s.") % {"products": names.join_list(stock)}]
        for item in context["boards"]:
            parts.append(
                _("%(board)s, %(count)s of %(limit)s: %(products)s.")
                % {"board": item["name"], "count": item["total"], "limit": item["limit"], "products": item["summary"]}
            )
        working = context["working"]
        if working and working["card"]:
            steps = [names.count_of(s["name"], s["left"]) for s in working["steps"] if s["status"] != "done"]
            left = names.join_list(steps) if steps else _("nothing")
            parts.append(
                _("%(player)s is carrying out No. %(number)s, still to do: %(left)s.")
                % {"player": working["player"], "number": working["card"]["number"], "left": left}
            )
        readings["table"] = names.sentences(*parts)
        return readings

    def seat_details(self, *, view: View, seat: int, players: Players) -> dict[str, Any]:
        """Hand size, whether the seat has chosen, its cards after the reveal, customers taken."""
        played = at(view.get("played"), seat) or []
        return {
            "hand_size": at(view.get("hand_sizes"), seat),
            "chosen": bool(at(view.get("chosen"), seat)),
            "played": [action_card(n) for n in played],
            "taken": [served_customer(cid) for cid in at(view.get("taken"), seat) or []],
        }

    @staticmethod
    def own_choice(choice: Mapping[str, Any] | None) -> dict[str, Any] | None:
        """The viewer's secret choice before the reveal."""
        if not choice:
            return None
        discard = choice.get("discard")
        return {
            "cards": [action_card(n) for n in choice.get("cards") or []],
            "discard": action_card(discard) if isinstance(discard, int) else None,
        }

    @staticmethod
    def form_context(
        *,
        legal_moves: list[Move],
        working: Mapping[str, Any] | None,
        players: Players,
        hand: list[int],
        stove: Mapping[str, int],
    ) -> dict[str, Any]:
        kinds = {m.get("type") for m in legal_moves}
        if not legal_moves:
            return {"kind": None}
        if "choose" in kinds:
            return {"kind": "choose", **choose_forms(legal_moves, hand)}
        if "unload" in kinds:
            return {"kind": "unload", "options": unload_forms(legal_moves, stove)}
        return {
            "kind": "steps",
            "steps": step_forms(legal_moves, players),
            "next": next_button(legal_moves, working),
        }

    def parse_fields(self, post: Mapping[str, Any], *, legal_moves: list[Move]) -> Move:
        """Two players without a pair: ``play`` and ``discard`` radio groups."""
        play, discard = post.get("play"), post.get("discard")
        if not play or not discard:
            raise BadMoveInput(_("Please choose a card to play and a card to discard."))
        if play == discard:
            raise BadMoveInput(_("You cannot discard the card you play: choose two different cards."))
        candidate = {"type": "choose", "cards": [int(play)], "discard": int(discard)}
        move = find_legal(candidate, legal_moves)
        if move is None:
            raise BadMoveInput(
                _("That combination is not allowed: play No. %(play)s, discard No. %(discard)s.")
                % {"play": play, "discard": discard}
            )
        return move

    def move_label(self, move: Move, *, view: View) -> str | None:
        """Cards to play (and discard) with what they do, a step of the process, or chips to keep."""
        kind = move.get("type")
        if kind == "choose":
            cards = list(move["cards"])
            if move.get("discard") is not None:
                return _("Play No. %(play)s: %(what)s; discard No. %(discard)s") % {
                    "play": cards[0], "what": card_work(cards), "discard": move["discard"]}
            if len(cards) == 2:
                return pair_option(move)["label"]
            return _("Play No. %(number)s: %(what)s") % {"number": cards[0], "what": card_work(cards)}
        if kind in ("prep", "bake", "hand_over"):
            return step_label(move)[0]
        if kind == "next":
            return next_button([move], view.get("working"))["label"]
        if kind == "unload":
            stove = (view.get("boards") or {}).get("stove") or {}
            label, help_text = unload_label(move, stove)
            return _("%(label)s (%(detail)s)") % {"label": label, "detail": help_text}
        return None

    def reply_menu(self, *, view: View, legal_moves: list[Move]) -> ReplyMenu:
        """A whole card by e-mail, in one line of codes, one per step in order ("1 1 5 8"): while a card is carried
        out, each step has a code of its own that names the same step whatever came before it — prep 1–3 and
        bake 4–6 by product, hand-overs 7 on by chip and customer — so the player can write the steps still to
        come. A code of a later process ends the current one early; 0 ends the card. Choosing and unloading: one
        code per choice."""
        working = view.get("working")
        if not working or not any(move.get("type") in PROCESSES for move in legal_moves):
            return super().reply_menu(view=view, legal_moves=legal_moves)
        left = working.get("left") or {}
        current = PROCESSES.index(working["process"]) if working.get("process") in PROCESSES else 0
        wanted = {process for order, process in enumerate(PROCESSES) if order >= current and left.get(process)}
        stock = view.get("stock") or {}
        showcase = (view.get("boards") or {}).get("showcase") or {}
        options = []
        cooking = (view.get("boards") or {}).get("cooking") or {}
        for offset, process in ((1, "prep"), (4, "bake")):
            for number, product in enumerate(PRODUCTS, start=offset):
                # Prep what the stock holds; bake what is on the cooking board, or what this card preps first.
                possible = stock.get(product) if process == "prep" else (
                    cooking.get(product) or ("prep" in wanted and stock.get(product)))
                if process in wanted and possible:
                    move = {"type": process, "product": product}
                    options.append(ReplyOption(str(number), step_label(move)[0], {"": move}))
        if "hand_over" in wanted:
            number = 7
            for customer in view.get("customers") or []:
                orders = (customers_by_id().get(customer.get("id")) or {}).get("orders") or []
                chips_on = customer.get("chips") or {}
                for product in PRODUCTS:
                    if showcase.get(product) and int(chips_on.get(product, 0) or 0) < orders.count(product):
                        move = {"type": "hand_over", "product": product, "customer": customer["id"]}
                        options.append(ReplyOption(str(number), step_label(move)[0], {"": move}))
                        number += 1
        return ReplyMenu(options, several=True, stop="0", stop_label=_("do nothing more with this card"))

    def reply_turn(self, view: View) -> Any:
        """The card being carried out: several codes of one reply stay with it (``reply_step``)."""
        return (view.get("working") or {}).get("card")

    def reply_step(self, wanted: Move | None, *, view: View, legal_moves: list[Move], turn: Any) -> Move | None:
        """The move to play now on the way to ``wanted`` (None: the card's end): ``wanted`` itself when possible;
        else, while the same card is carried out, ending the current process early when ``wanted`` belongs to a
        later one (or to stop); else None (the code cannot be played now)."""
        if wanted is not None and find_legal(wanted, legal_moves) is not None:
            return find_legal(wanted, legal_moves)
        working = view.get("working") or {}
        skip = find_legal({"type": "next"}, legal_moves)
        if skip is None or working.get("card") != turn or working.get("process") not in PROCESSES:
            return None
        if wanted is None:
            return skip
        later = wanted.get("type") in PROCESSES and (
            PROCESSES.index(wanted["type"]) > PROCESSES.index(working["process"]))
        return skip if later else None

    def redundant_event(self, event: Mapping[str, Any], following: Mapping[str, Any] | None) -> bool:
        """Your own "has chosen" is followed by what you chose (private): one line, not two."""
        return (
            event.get("type") == "chose"
            and following is not None
            and following.get("type") == "choice"
            and following.get("seat") == event.get("seat")
        )

    def final_details(self, state: dict[str, Any], players: Players) -> dict[int, dict[str, Any]]:
        """Points from steps (1 each), bonuses of the customers served, penalties; customers served break
        a tie (the rules: most customers wins)."""
        count = state.get("players") or len(state.get("points") or [])
        steps, bonus, penalty = [0] * count, [0] * count, [0] * count
        for event in state.get("log") or []:
            seat = event.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < count:
                continue
            kind = event.get("type")
            if kind in STEP_EVENTS:
                steps[seat] += 1
            elif kind == "take":
                bonus[seat] += event.get("bonus") or 0
            elif kind == "penalty":
                penalty[seat] += event.get("points") or 0
        details = {}
        for seat in range(count):
            served = len(at(state.get("taken"), seat) or [])
            done = steps[seat]
            parts = [ngettext("%(count)s step: +%(count)s", "%(count)s steps: +%(count)s", done) % {"count": done}]
            parts.append(
                ngettext(
                    "%(count)s customer served: +%(bonus)s", "%(count)s customers served: +%(bonus)s", served
                ) % {"count": served, "bonus": bonus[seat]}
            )
            if penalty[seat]:
                parts.append(_("penalties: −%(points)s") % {"points": penalty[seat]})
            details[seat] = {
                "parts": parts,
                "tie_break": ngettext("%(count)s customer served", "%(count)s customers served", served)
                % {"count": served},
            }
        return details

    def revealed_hands(self, state: dict[str, Any]) -> list[Any]:
        """Each seat's final hand: ``[{"seat": s, "cards": [action card dicts]}]``."""
        return [
            {"seat": seat, "cards": [action_card(n) for n in sorted(hand)]}
            for seat, hand in enumerate(state.get("hands") or [])
        ]


ui = KonamonUI()
