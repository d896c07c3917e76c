"""The cards the rules page draws, from the game's own data (``data.json`` through the engine)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from marumiere.engine import COLOURS, NUMBERS, SHAPES, TRUMP
from marumiere.names import SUIT_NAMES, SUIT_SHAPES


def suits() -> list[dict[str, Any]]:
    """The four suits; each back's shape scaled so its *area* grows with the number."""
    largest = max(NUMBERS)
    return [
        {
            "colour": colour,
            "name": SUIT_NAMES[colour],
            "shape": SHAPES[colour],
            "shape_name": SUIT_SHAPES[colour],
            "cards": [
                # A scale of sqrt(n / largest) makes the drawn area proportional to n; the largest fills the card.
                {"number": n, "scale": f"{(n / largest) ** 0.5:.3f}", "trump": n == TRUMP}
                for n in NUMBERS
            ],
        }
        for colour in COLOURS
    ]


def scoring() -> list[dict[str, Any]]:
    return [
        {"case": _("Bid 1–3, tricks won = bid"), "points": "+3"},
        {"case": _("Bid 4–8, tricks won = bid"), "points": _("+ tricks won (4–8)")},
        {"case": _("Misère (a 9: bid 0), no trick won"), "points": "+6"},
        {"case": _("Bid 1–8, tricks won ≠ bid"), "points": _("− the difference")},
        {"case": _("Misère, one trick or more won"), "points": _("− tricks won")},
    ]


def rules_context(*, language: str) -> dict[str, Any]:
    return {"suits": suits(), "scoring": scoring()}
