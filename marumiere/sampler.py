"""Marumiere's sampler for the search bots (``games/engines/search.py``): a full state from one seat's view.

What a seat does not know is the number on every face-down card (its own included: it sees backs only, and
in the standard variant not its own bid card), what lies under each pile's top and which cards are set
aside. The sampler gives every face-down back a card of its colour whose number that size allows (the
engine's ``size_candidates``), all cards distinct and none of the faces already seen, by backtracking with
the most constrained back first and values in random order; the cards left go under the pile tops and
aside, with fresh back sizes. Every such deal is possible; they are not weighted by how likely each back's
size is for its number (a simplification: the search still sees each number only where its size allows it).

A drawn state gets a seed of its own: the real seed would tell the next rounds' deals.
"""

from __future__ import annotations

import random
from typing import Any

from games.engines.base import State, View

from .engine import CARDS, NUMBERS, SIZE_DECIMALS, SIZE_FACTOR, size_candidates

# Playouts per strong decision (games.engines.search.budget_for): at 4 players a playout is 4 rounds of
# 32 cards; at 100 p95 was 0.78 s of one core, so fewer keep room under 1 s (python -m bench.search_cpu).
BUDGET = 80
MAX_BACKTRACKS = 20_000  # far above what a real view needs; a view no deal fits is an error, not a hang


def _card(colour: str, number: int) -> str:
    return f"{colour}-{number}"


def _assign(slots: list[list[str]], taken: set[str], rng: random.Random) -> list[str]:
    """One distinct card per slot from its candidates, none of ``taken``; ``ValueError`` if none fits."""
    order = sorted(range(len(slots)), key=lambda i: (len(slots[i]), rng.random()))
    chosen: list[str | None] = [None] * len(slots)
    used = set(taken)
    steps = 0

    def fill(depth: int) -> bool:
        nonlocal steps
        if depth == len(order):
            return True
        index = order[depth]
        options = [card for card in slots[index] if card not in used]
        rng.shuffle(options)
        for card in options:
            steps += 1
            if steps > MAX_BACKTRACKS:
                return False
            used.add(card)
            chosen[index] = card
            if fill(depth + 1):
                return True
            used.discard(card)
        return False

    if not fill(0):
        raise ValueError("no deal fits this view")
    return [card for card in chosen if card is not None]


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from the real one: its view of it equals ``view``."""
    players = view["players"]
    rows: list[list[str | None]] = [[None] * len(row) for row in view["rows"]]
    sizes: dict[str, float] = {}
    taken: set[str] = set()
    slots: list[list[str]] = []
    places: list[tuple[str, int, int, float]] = []  # ("row", seat, position) or ("pile", pile, 0), size
    for owner, row in enumerate(view["rows"]):
        for position, entry in enumerate(row):
            if "number" in entry:
                card = _card(entry["colour"], entry["number"])
                rows[owner][position] = card
                taken.add(card)
                sizes[card] = entry["size"]
            else:
                slots.append([_card(entry["colour"], n) for n in size_candidates(entry["size"])])
                places.append(("row", owner, position, entry["size"]))
    for index, pile in enumerate(view["piles"]):
        top = pile["top"]
        slots.append([_card(top["colour"], n) for n in size_candidates(top["size"])])
        places.append(("pile", index, 0, top["size"]))
    piles: list[list[str]] = [[] for _ in view["piles"]]
    for card, (kind, first, second, size) in zip(_assign(slots, taken, rng), places, strict=True):
        sizes[card] = size
        if kind == "row":
            rows[first][second] = card
        else:
            piles[first].append(card)
    rest = [card for card in CARDS if card not in sizes]
    rng.shuffle(rest)
    low, high = SIZE_FACTOR
    for card in rest:
        sizes[card] = round(int(card.rsplit("-", 1)[1]) * rng.uniform(low, high), SIZE_DECIMALS)
    for index, pile in enumerate(view["piles"]):
        for _ in range(pile["count"] - 1):
            piles[index].append(rest.pop())
    last = view["last_trick"]
    return {
        "seed": rng.getrandbits(64),
        "rng": 2,
        "players": players,
        "variant": view["variant"],
        "rounds": view["rounds"],
        "round": view["round"],
        "deal": [],
        "scores": list(view["scores"]),
        "results": [{**result, "seats": [dict(entry) for entry in result["seats"]]} for result in view["results"]],
        "log": [_copy_event(event) for event in view["log"]],
        "dealer": view["dealer"],
        "sizes": sizes,
        "piles": piles,
        "aside": rest,
        "rows": rows,
        "played": [[entry["played"] for entry in row] if row else [False] * len(NUMBERS) for row in view["rows"]],
        "bids": [None if bid is None else bid["position"] for bid in view["bids"]],
        "won": list(view["tricks_won"]),
        "trick": [[entry["seat"], entry["position"]] for entry in view["trick"]],
        "last_trick": None
        if last is None
        else {"cards": [[card["seat"], card["position"]] for card in last["cards"]], "winner": last["winner"]},
        "tricks_played": view["tricks_played"],
        "leader": view["leader"],
        "phase": view["phase"],
        "turn": view["waiting_for"][0] if view["waiting_for"] else None,
    }


def _copy_event(event: dict[str, Any]) -> dict[str, Any]:
    copied = dict(event)
    for key, value in copied.items():
        if isinstance(value, list):
            copied[key] = [dict(item) if isinstance(item, dict) else item for item in value]
    return copied
