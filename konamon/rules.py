"""The cards the rules page draws, from the game's own data (``data.json`` through the engine)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from konamon.engine import ACTIONS, CUSTOMERS
from konamon.names import PRODUCT_NAMES

EFFECTS = {
    "none": (_("No effect"), _("Nothing happens when this customer arrives.")),
    "hurry": (_("In a hurry"), _("Arrives at mood 2 instead of 3.")),
    "treat": (
        _("Brings a treat"),
        _("A cooked chip of the first product ordered goes from the stock to the showcase (if there is one and room)."),
    ),
    "snack": (
        _("Nibbles"),
        _("One chip of the product the showcase holds most of goes back to the stock."),
    ),
    "draw": (_("Extra hands"), _("Every player with fewer than 5 action cards draws 1.")),
    "critic": (_("Critic"), _("Every player with the most points loses 1 point.")),
}
CARDS_PER_BLOCK = 15  # the house set: 15 cards of each total 2 to 5


def action_blocks() -> list[dict[str, Any]]:
    """The action cards in blocks of 15 (one block per total in the house set)."""
    cards = sorted(
        (
            {"number": number, **card, "total": card["prep"] + card["bake"] + card["hand_over"]}
            for number, card in ACTIONS.items()
        ),
        key=lambda card: card["number"],
    )
    blocks = []
    for start in range(0, len(cards), CARDS_PER_BLOCK):
        chunk = cards[start : start + CARDS_PER_BLOCK]
        totals = {card["total"] for card in chunk}
        blocks.append(
            {
                "total": totals.pop() if len(totals) == 1 else "",
                "first": chunk[0]["number"],
                "last": chunk[-1]["number"],
                "cards": chunk,
            }
        )
    return blocks


def customers(*, language: str) -> list[dict[str, Any]]:
    """The customer cards with the name in ``language`` (and the Japanese one)."""
    language = language.lower()
    cards = []
    for customer in CUSTOMERS.values():
        names = customer.get("name", {})
        title, text = EFFECTS[customer["effect"]]
        cards.append(
            {
                "id": customer["id"],
                "name": names.get(language) or names.get("en") or customer["id"],
                "name_ja": names.get("ja", ""),
                "bonus": customer["bonus"],
                "orders": [{"product": product, "name": PRODUCT_NAMES[product]} for product in customer["orders"]],
                "effect": customer["effect"],
                "effect_name": title,
                "effect_text": text,
            }
        )
    return cards


def rules_context(*, language: str) -> dict[str, Any]:
    return {
        "action_blocks": action_blocks(),
        "customers": customers(language=language),
        "effects": [{"effect": key, "name": name, "text": text} for key, (name, text) in EFFECTS.items()],
        "products": PRODUCT_NAMES,
    }
