"""Card data for the rules pages, in the shape the card templates draw.

The engines own the game data (``games/engines/data/*.json`` once written);
this module reads it when present and otherwise derives the same cards from the
patterns in ``shared/rules``, so the rules pages never depend on an engine
being importable.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

logger = logging.getLogger(__name__)

ENGINE_DATA_DIR = Path(__file__).resolve().parent.parent / "games" / "engines" / "data"

# --- Mamma Mia! -------------------------------------------------------------

TOPPINGS: tuple[str, ...] = ("pineapple", "olive", "pepper", "mushroom", "salami")  # canonical order
TOPPING_NAMES = {
    "pineapple": _("pineapple"),
    "olive": _("olive"),
    "pepper": _("pepper"),
    "mushroom": _("mushroom"),
    "salami": _("salami"),
}
# Colour -> signature topping, in seat order (shared/rules/mamma-mia.md, "Recipe data").
RECIPE_COLOURS: tuple[tuple[str, str], ...] = (
    ("green", "pepper"),
    ("red", "salami"),
    ("yellow", "pineapple"),
    ("purple", "olive"),
    ("brown", "mushroom"),
)
COLOUR_NAMES = {
    "green": _("green"),
    "red": _("red"),
    "yellow": _("yellow"),
    "purple": _("purple"),
    "brown": _("brown"),
    "blue": _("blue"),
}
# What the card face shows in place of a topping list.
RECIPE_SYMBOLS = {"bombastica": "15+", "monotoni": "J", "minimale": "?"}
RECIPE_KIND_NAMES = {
    "classic": pgettext_lazy("pizza recipe", "Classic"),
    "bombastica": "Bombastica",
    "monotoni": "Monotoni",
    "minimale": "Minimale",
}


def _computed_recipes() -> list[dict[str, Any]]:
    """The 40 house recipes from the rule table's pattern."""
    recipes = []
    for colour, signature in RECIPE_COLOURS:
        others = [kind for kind in TOPPINGS if kind != signature]
        for number, other in enumerate(others, start=1):
            recipes.append(
                {"id": f"{colour}-{number}", "colour": colour, "kind": "classic", "needs": {signature: 1, other: 4}}
            )
        recipes.append({"id": f"{colour}-5", "colour": colour, "kind": "classic", "needs": dict.fromkeys(TOPPINGS, 1)})
        recipes.append({"id": f"{colour}-6", "colour": colour, "kind": "bombastica", "needs": {}})
        recipes.append({"id": f"{colour}-7", "colour": colour, "kind": "monotoni", "needs": {signature: 1}})
        recipes.append({"id": f"{colour}-8", "colour": colour, "kind": "minimale", "needs": {signature: 1}})
    return recipes


def _recipes_from_engine_data(data: Any) -> list[dict[str, Any]]:
    """Normalise the engine's data file; raises on a shape we don't understand."""
    raw = data["recipes"] if isinstance(data, dict) else data
    if isinstance(raw, dict):
        raw = [{"id": key, **value} for key, value in raw.items()]
    recipes = []
    for item in raw:
        colour = item.get("colour") or item["id"].rsplit("-", 1)[0]
        kind = str(item.get("kind", "classic")).lower()
        needs = {k: int(v) for k, v in (item.get("needs") or {}).items() if k in TOPPINGS}
        recipes.append({"id": item["id"], "colour": colour, "kind": kind, "needs": needs})
    if not recipes:
        raise ValueError("no recipes")
    return recipes


def mamma_mia_recipes() -> list[dict[str, Any]]:
    """Every recipe card, by colour in seat order, with what the card shows."""
    recipes = None
    path = ENGINE_DATA_DIR / "mamma_mia.json"
    if path.exists():
        try:
            recipes = _recipes_from_engine_data(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            logger.warning("could not read %s; drawing the rule table's recipes instead", path, exc_info=True)
    if recipes is None:
        recipes = _computed_recipes()
    signatures = dict(RECIPE_COLOURS)
    cards = []
    for recipe in recipes:
        signature = signatures.get(recipe["colour"])
        needs = [
            {"topping": kind, "count": recipe["needs"][kind], "name": TOPPING_NAMES[kind]}
            for kind in TOPPINGS
            if recipe["needs"].get(kind)
        ]
        cards.append(
            recipe
            | {
                "signature": signature,
                "number": recipe["id"].rsplit("-", 1)[-1],
                "kind_name": RECIPE_KIND_NAMES.get(recipe["kind"], recipe["kind"]),
                "symbol": RECIPE_SYMBOLS.get(recipe["kind"], ""),
                "needs_list": needs,
                "total": sum(item["count"] for item in needs),
            }
        )
    return cards


def mamma_mia_recipes_by_colour() -> list[dict[str, Any]]:
    """[{"colour", "name", "signature", "recipes": [...]}, ...] in seat order."""
    cards = mamma_mia_recipes()
    return [
        {
            "colour": colour,
            "name": COLOUR_NAMES[colour],
            "signature": signature,
            "signature_name": TOPPING_NAMES[signature],
            "recipes": [card for card in cards if card["colour"] == colour],
        }
        for colour, signature in RECIPE_COLOURS
    ]


# --- Konamon! ----------------------------------------------------------------

PRODUCTS: tuple[str, ...] = ("okonomiyaki", "taiyaki", "takoyaki")  # canonical order
PRODUCT_NAMES = {
    "okonomiyaki": _("okonomiyaki"),
    "taiyaki": _("taiyaki"),
    "takoyaki": _("takoyaki"),
}
ACTION_PATTERNS: dict[int, tuple[tuple[int, int, int], ...]] = {
    2: ((1, 1, 0), (1, 0, 1), (0, 1, 1)),
    3: ((1, 1, 1), (2, 1, 0), (1, 2, 0), (0, 1, 2), (1, 0, 2)),
    4: ((2, 1, 1), (1, 2, 1), (1, 1, 2)),
    5: ((2, 2, 1), (2, 1, 2), (1, 2, 2)),
}


def konamon_action_card(number: int) -> dict[str, int]:
    """Action card ``number`` (1-60): its prep, bake and hand-over counts."""
    total = 2 + (number - 1) // 15
    patterns = ACTION_PATTERNS[total]
    prep, bake, hand_over = patterns[(number - 1) % 15 % len(patterns)]
    return {"number": number, "total": total, "prep": prep, "bake": bake, "hand_over": hand_over}


def _konamon_engine_data() -> dict[str, Any] | None:
    """The engine's card data file, or None while it is missing or unreadable."""
    path = ENGINE_DATA_DIR / "konamon.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        logger.warning("could not read %s; drawing the rule table's cards instead", path, exc_info=True)
        return None
    return data if isinstance(data, dict) else None


def _konamon_actions() -> list[dict[str, int]]:
    data = _konamon_engine_data()
    try:
        cards = [
            {key: int(card[key]) for key in ("number", "prep", "bake", "hand_over")} for card in data["actions"]
        ]
    except (TypeError, KeyError, ValueError):
        return [konamon_action_card(n) for n in range(1, 61)]
    return [card | {"total": card["prep"] + card["bake"] + card["hand_over"]} for card in cards]


def konamon_action_blocks() -> list[dict[str, Any]]:
    """The action cards in blocks of 15 (one block per total in the house set)."""
    cards = sorted(_konamon_actions(), key=lambda card: card["number"])
    blocks = []
    for start in range(0, len(cards), 15):
        chunk = cards[start : start + 15]
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
    "critic": (_("Critic"), _("The player(s) with the most points lose 1 point.")),
}

# id, bonus, orders, effect, names by language (the ja and en names are the rule file's).
_CUSTOMERS: tuple[tuple[str, int, tuple[str, ...], str, dict[str, str]], ...] = (
    ("c01", 2, ("takoyaki", "takoyaki"), "none",
     {"ja": "常連のおじさん", "en": "Regular", "zh-hant": "常客大叔", "fr": "L’habitué"}),
    ("c02", 2, ("okonomiyaki", "okonomiyaki"), "none",
     {"ja": "常連のおばさん", "en": "Regular", "zh-hant": "常客阿姨", "fr": "L’habituée"}),
    ("c03", 2, ("taiyaki", "taiyaki"), "none",
     {"ja": "甘党の子ども", "en": "Sweet tooth", "zh-hant": "愛吃甜食的孩子", "fr": "L’enfant gourmand"}),
    ("c04", 1, ("takoyaki",), "hurry",
     {"ja": "食べ歩きの観光客", "en": "Tourist", "zh-hant": "邊走邊吃的觀光客", "fr": "La touriste"}),
    ("c05", 4, ("okonomiyaki", "okonomiyaki", "takoyaki", "takoyaki"), "none",
     {"ja": "腹ぺこの学生", "en": "Hungry student", "zh-hant": "餓扁的學生", "fr": "L’étudiant affamé"}),
    ("c06", 5, ("okonomiyaki", "taiyaki", "takoyaki", "takoyaki"), "hurry",
     {"ja": "部活帰りの団体", "en": "Team after practice", "zh-hant": "社團練習後的一群人",
      "fr": "L’équipe après l’entraînement"}),
    ("c07", 2, ("taiyaki", "okonomiyaki"), "treat",
     {"ja": "差し入れ上手", "en": "Generous neighbour", "zh-hant": "愛送點心的鄰居", "fr": "La voisine généreuse"}),
    ("c08", 3, ("takoyaki", "taiyaki"), "snack",
     {"ja": "つまみ食い常習犯", "en": "Nibbler", "zh-hant": "偷吃慣犯", "fr": "Le grignoteur"}),
    ("c09", 2, ("okonomiyaki", "taiyaki"), "draw",
     {"ja": "店長の友だち", "en": "Manager's friend", "zh-hant": "店長的朋友", "fr": "L’ami du patron"}),
    ("c10", 4, ("okonomiyaki", "taiyaki", "takoyaki"), "critic",
     {"ja": "グルメ評論家", "en": "Food critic", "zh-hant": "美食評論家", "fr": "Le critique gastronomique"}),
    ("c11", 3, ("taiyaki", "taiyaki", "takoyaki"), "none",
     {"ja": "家族連れ", "en": "Family", "zh-hant": "全家出遊", "fr": "La famille"}),
    ("c12", 1, ("okonomiyaki",), "hurry",
     {"ja": "会社員", "en": "Office worker", "zh-hant": "上班族", "fr": "L’employée de bureau"}),
    ("c13", 3, ("takoyaki", "takoyaki", "takoyaki"), "none",
     {"ja": "たこ焼き通", "en": "Takoyaki buff", "zh-hant": "章魚燒行家", "fr": "Le fin connaisseur de takoyaki"}),
    ("c14", 3, ("okonomiyaki", "okonomiyaki", "okonomiyaki"), "none",
     {"ja": "お好み焼き通", "en": "Okonomiyaki buff", "zh-hant": "大阪燒行家",
      "fr": "La fine connaisseuse d’okonomiyaki"}),
    ("c15", 3, ("taiyaki", "taiyaki", "taiyaki"), "none",
     {"ja": "たい焼き通", "en": "Taiyaki buff", "zh-hant": "鯛魚燒行家", "fr": "Le fin connaisseur de taiyaki"}),
    ("c16", 2, ("taiyaki", "takoyaki"), "treat",
     {"ja": "夜勤明けの看護師", "en": "Night-shift nurse", "zh-hant": "剛下夜班的護理師",
      "fr": "L’infirmière de garde de nuit"}),
    ("c17", 5, ("okonomiyaki", "okonomiyaki", "takoyaki", "taiyaki"), "snack",
     {"ja": "腹ぺこ力士", "en": "Hungry sumo wrestler", "zh-hant": "餓壞的相撲力士", "fr": "Le sumo affamé"}),
    ("c18", 4, ("okonomiyaki", "taiyaki", "takoyaki", "takoyaki"), "critic",
     {"ja": "地元のテレビ局", "en": "Local TV crew", "zh-hant": "地方電視台", "fr": "La télé locale"}),
)


def _konamon_customer_rows() -> list[tuple[str, int, tuple[str, ...], str, dict[str, str]]]:
    """The engine's customers when its data file has them (our names for the
    languages it lacks), else the rule table's."""
    data = _konamon_engine_data()
    ours = {row[0]: row[4] for row in _CUSTOMERS}
    try:
        rows = []
        for item in data["customers"]:
            names = {**ours.get(item["id"], {}), **item.get("name", {})}
            orders = tuple(product for product in item["orders"] if product in PRODUCT_NAMES)
            effect = item["effect"] if item["effect"] in EFFECTS else "none"
            rows.append((item["id"], int(item["bonus"]), orders, effect, names))
    except (TypeError, KeyError, ValueError):
        return list(_CUSTOMERS)
    return rows or list(_CUSTOMERS)


def konamon_customers(*, language: str) -> list[dict[str, Any]]:
    """The customer cards with the name in ``language`` (and the Japanese one)."""
    language = language.lower()
    customers = []
    for cid, bonus, orders, effect, names in _konamon_customer_rows():
        title, text = EFFECTS[effect]
        customers.append(
            {
                "id": cid,
                "name": names.get(language) or names.get("en") or cid,
                "name_ja": names.get("ja", ""),
                "bonus": bonus,
                "orders": [{"product": product, "name": PRODUCT_NAMES[product]} for product in orders],
                "effect": effect,
                "effect_name": title,
                "effect_text": text,
            }
        )
    return customers


def konamon_effects() -> list[dict[str, Any]]:
    return [{"effect": key, "name": name, "text": text} for key, (name, text) in EFFECTS.items()]


# --- Marumiere ---------------------------------------------------------------

MARUMIERE_SUITS: tuple[tuple[str, str], ...] = (
    ("red", "heart"),
    ("blue", "drop"),
    ("yellow", "star"),
    ("green", "clover"),
)
SHAPE_NAMES = {"heart": _("heart"), "drop": _("drop"), "star": _("star"), "clover": _("clover")}


def marumiere_suits() -> list[dict[str, Any]]:
    """Four suits of 1-9; each back's shape scaled so its *area* grows with the number."""
    return [
        {
            "colour": colour,
            "name": COLOUR_NAMES[colour],
            "shape": shape,
            "shape_name": SHAPE_NAMES[shape],
            "cards": [
                # A scale of sqrt(n/9) makes the drawn area proportional to n; the
                # 9 fills the card.
                {"number": n, "scale": f"{(n / 9) ** 0.5:.3f}", "trump": n == 5}
                for n in range(1, 10)
            ],
        }
        for colour, shape in MARUMIERE_SUITS
    ]


def marumiere_scoring() -> list[dict[str, Any]]:
    return [
        {"case": _("Bid 1–3, tricks won = bid"), "points": "+3"},
        {"case": _("Bid 4–8, tricks won = bid"), "points": _("+ tricks won (4–8)")},
        {"case": _("Misère (a 9: bid 0), no trick won"), "points": "+6"},
        {"case": _("Bid 1–8, tricks won ≠ bid"), "points": _("− the difference")},
        {"case": _("Misère, one trick or more won"), "points": _("− tricks won")},
    ]
