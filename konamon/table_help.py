"""Konamon!'s help on the table (issue 27): action cards, customers, chips, boards and the mood track explain
themselves, from the game's own data (``data.json``: each card's counts, each customer's order, bonus and
effect); "What can I do now?" reads the seat's legal moves and view."""

from __future__ import annotations

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.ui import names
from games.ui.base import Move, Players, View
from games.ui.help import Explanation, TableHelp
from konamon.names import BOARD_NAMES
from konamon.ui import (
    BOARD_LIMIT,
    BOARDS,
    EFFECT_HELP,
    EFFECT_NAMES,
    MOOD_PLACES,
    PRODUCTS,
    action_counts,
    customer_name,
    customers_by_id,
    product_name,
    products_phrase,
)

MARKERS = ("stock", *(f"board-{board}" for board in BOARDS), *(f"mood-{mood}" for mood in MOOD_PLACES))


def _action(number: int) -> Explanation:
    counts = action_counts()[number]
    return Explanation(
        title=_("Action card No. %(number)s") % {"number": number},
        text=names.sentences(
            _("Prep up to %(prep)s, bake up to %(bake)s, hand over up to %(hand_over)s.") % counts,
            _(
                "Cards are carried out from the lowest number up, so a low number acts before the others; every "
                "step you take scores 1 point."
            ),
        ),
    )


def _customer(cid: str) -> Explanation:
    data = customers_by_id()[cid]
    effect = data.get("effect") or "none"
    parts = [
        _("Orders %(order)s. Whoever hands over the chip that completes the order takes the card and its %(bonus)s "
          "bonus points.")
        % {"order": products_phrase(data["orders"]), "bonus": data["bonus"]},
    ]
    if effect != "none":
        parts.append(
            _("%(effect)s: %(help)s")
            % {"effect": capfirst(names.lookup(EFFECT_NAMES, effect)), "help": EFFECT_HELP[effect]}
        )
    parts.append(_("If its mood falls to 0 it leaves unserved, and the leading players lose its bonus."))
    return Explanation(title=customer_name(cid), text=names.sentences(*parts))


def _chip(product: str, state: str) -> Explanation:
    if state == "cooked":
        return Explanation(
            title=_("Cooked %(product)s") % {"product": product_name(product)},
            text=_("Ready in the hot showcase: hand it over to a customer whose order still lacks %(product)s.")
            % {"product": product_name(product)},
        )
    return Explanation(
        title=_("Raw %(product)s") % {"product": product_name(product)},
        text=_(
            "Prepared on the cooking board, then baked on the stove; at the end of the round the stove's chips "
            "come out cooked into the hot showcase."
        ),
    )


def _marker(marker: str) -> Explanation:
    if marker == "stock":
        return Explanation(
            title=_("Stock"),
            text=_(
                "Chips not in play. A prep step takes one from here; served and leaving customers' chips return here."
            ),
        )
    if marker.startswith("board-"):
        board = marker.removeprefix("board-")
        texts = {
            "cooking": _("Raw chips, prepared. A bake step moves one of them to the stove."),
            "stove": _(
                "Chips baking. At the end of the round they all come out cooked into the hot showcase; what does not "
                "fit goes back to the stock."
            ),
            "showcase": _("Cooked chips, ready. A hand-over step gives one to a customer who ordered it."),
        }
        return Explanation(
            title=str(BOARD_NAMES[board]),
            text=names.sentences(texts[board], _("It holds at most %(limit)s chips.") % {"limit": BOARD_LIMIT}),
        )
    mood = int(marker.removeprefix("mood-"))
    if mood == 0:
        text = _(
            "Customers here leave after this round unserved: their chips go back to the stock and the leading "
            "players lose their bonus."
        )
    else:
        text = _("A new customer arrives at mood 3; every round each waiting customer's mood falls by one.")
    return Explanation(title=_("Mood %(mood)s") % {"mood": mood}, text=text)


class KonamonHelp(TableHelp):
    def explain(self, topic: str) -> Explanation | None:
        kind, _sep, rest = topic.partition("-")
        if kind == "action" and rest.isdigit() and int(rest) in action_counts():
            return _action(int(rest))
        if kind == "customer" and rest in customers_by_id():
            return _customer(rest)
        if kind == "chip":
            product, _sep, state = rest.partition("-")
            if product in PRODUCTS and state in ("raw", "cooked"):
                return _chip(product, state)
        if topic in MARKERS:
            return _marker(topic)
        return None

    def catalogue(self) -> list[str]:
        return [
            *(f"action-{number}" for number in action_counts()),
            *(f"customer-{cid}" for cid in customers_by_id()),
            *(f"chip-{product}-{state}" for product in PRODUCTS for state in ("raw", "cooked")),
            *MARKERS,
        ]

    def markers(self, *, view: View, legal_moves: list[Move], seat: int | None) -> list[str]:
        return list(MARKERS)

    def what_now(self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players) -> str:
        kinds = {move.get("type") for move in legal_moves}
        if "choose" in kinds:
            return names.sentences(_choosing(legal_moves), _wanted(view))
        if "unload" in kinds:
            return _(
                "The hot showcase has no room for every chip on the stove: choose which go in, cooked; the rest go "
                "back to the stock."
            )
        process = (view.get("working") or {}).get("process")
        left = int(((view.get("working") or {}).get("left") or {}).get(process, 0) or 0)
        steps = {
            "prep": ngettext(
                "Prep: take a chip of any product from the stock onto the cooking board (%(count)s step left on "
                "this card).",
                "Prep: take a chip of any product from the stock onto the cooking board (%(count)s steps left on "
                "this card).",
                left,
            ),
            "bake": ngettext(
                "Bake: move a chip from the cooking board to the stove (%(count)s step left on this card).",
                "Bake: move a chip from the cooking board to the stove (%(count)s steps left on this card).",
                left,
            ),
            "hand_over": ngettext(
                "Hand over: give a cooked chip from the showcase to a customer who still wants it (%(count)s step "
                "left on this card).",
                "Hand over: give a cooked chip from the showcase to a customer who still wants it (%(count)s steps "
                "left on this card).",
                left,
            ),
        }
        if process not in steps:
            return ""
        return names.sentences(
            steps[process] % {"count": left},
            _("Each step scores 1 point; you may also stop this process early."),
        )


def _choosing(legal_moves: list[Move]) -> str:
    if any(move.get("discard") is not None for move in legal_moves):
        return _("No two of your cards add up to 90 or less: play one card and discard another.")
    if any(len(move.get("cards") or []) == 2 for move in legal_moves):
        return _(
            "Choose two cards whose numbers add up to 90 or less; everyone chooses at the same time, then all cards "
            "are carried out from the lowest number up."
        )
    return _(
        "Choose one action card; everyone chooses at the same time, then the cards are carried out from the lowest "
        "number up."
    )


def _wanted(view: View) -> str:
    """What the customers still wait for, and what the showcase holds to give them."""
    wanted: list[str] = []
    for customer in view.get("customers") or []:
        data = customers_by_id().get(customer.get("id"), {})
        missing = list(data.get("orders") or [])
        for product, count in (customer.get("chips") or {}).items():
            for _unused in range(int(count or 0)):
                if product in missing:
                    missing.remove(product)
        wanted += missing
    showcase = (view.get("boards") or {}).get("showcase") or {}
    cooked = [product for product in PRODUCTS for _unused in range(int(showcase.get(product, 0) or 0))]
    if not wanted:
        return _("No customer is waiting now.")
    return _("The customers still want %(wanted)s; the hot showcase holds %(cooked)s.") % {
        "wanted": products_phrase(wanted),
        "cooked": products_phrase(cooked),
    }


table_help = KonamonHelp()
