"""Mamma Mia!'s sampler for the search bots (``games/engines/search.py``): a full state from one seat's view.

A seat does not know the other hands, the kitchen, the recipe decks' order, nor the oven cards it did not
hear announced (under ``memory=strict`` older announcements are ``forgotten`` events in its log). The
sampler keeps every fact the view gives — its own hand, the table, the baked recipes, every count, the
announcements it still remembers, the oven's top — and deals the rest at random, conserving every card:
a seat's unseen recipes (its colour, not baked, not heard in the oven) fill its recipe deck first, then its
hand, and the recipes a hand cannot hold went into the oven unheard — and so, with ``RECIPE_PLAY_SHARE``'s
chance for each of its plays the seat no longer remembers, did one more of those in its hand (filling the hands
first left the drawn ovens at 4 players with under half their real recipes: issue 28); the toppings nobody can
account for fill the other hands, the unheard oven cards and the kitchen. Simplifications, said here as the guide asks:
unheard oven cards are placed together at random among the oven's, recipes returned under a deck are not
kept at its bottom, and a forgotten announcement stays a ``forgotten`` event in the drawn log (the drawn
state's other seats therefore see it forgotten too).

A drawn state gets a seed of its own: the real seed would tell the next kitchen's shuffle.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from games.engines.base import State, View

from .engine import COLOUR_RECIPES, COLOURS, COPIES, MAMMA_MIA, REMOVED, TOPPINGS, _kinds

# Playouts per strong decision (games.engines.search.budget_for): p95 0.62 s of one core at 4 players
# (python -m bench.search_cpu --only mamma-mia).
BUDGET = 100
# The chance that an opponent's play the seat no longer remembers put a recipe into the oven (still there). The
# heuristic puts one in with 0.44 of its turns at 2 players, 0.52 at 4; 0.4 makes the drawn states' recipes in
# opponents' hands and in the oven match its games' real ones on average (4 players: 6.3 vs 6.4 in hands, 6.1 vs
# 6.1 in the oven; 2 players: 1.6 vs 2.0, 3.7 vs 3.4), where drawing them all into the hands gave 9.7 and 2.7.
RECIPE_PLAY_SHARE = 0.4


def _round_events(log: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events of the current round (from its ``round`` event on)."""
    start = max((i for i, event in enumerate(log) if event["type"] == "round"), default=0)
    return log[start:]


def _heard_oven(events: list[dict[str, Any]]) -> list[str]:
    """The oven cards of this round the seat heard announced, in play order."""
    cards: list[str] = []
    for event in events:
        if event["type"] == "turn":
            cards += [event["topping"]] * event["count"]
            if event["recipe"] is not None:
                cards.append(event["recipe"])
    return cards


def _quiet(events: list[dict[str, Any]]) -> int:
    """The stall counter: passes in a row at the end of the round's turns that moved no card."""
    quiet = 0
    for event in events:
        if event["type"] in ("turn", "pass", "forgotten"):
            moved = event["type"] != "pass" or event["drew"] > 0
            quiet = 0 if moved else quiet + 1
    return quiet


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from the real one: its view of it equals ``view``."""
    players = view["players"]
    log = [dict(event) for event in view["log"]]
    for event in log:
        if event["type"] == "drew":
            event["only"] = [event["seat"]]
    events = _round_events(log)
    hand = view["hand"]
    heard = _heard_oven(events)
    revealed = [event["card"] for event in events if event["type"] == "reveal"]
    known_oven = list(heard)
    for card in revealed:
        if card in known_oven:
            known_oven.remove(card)
    if view["phase"] == 2 and len(known_oven) > view["oven"]["size"]:
        known_oven = known_oven[len(known_oven) - view["oven"]["size"] :]
    top = view["oven"]["top"]
    if top is not None and (not known_oven or known_oven[-1] != top):
        known_oven.append(top)  # the face-up top of a forgotten play: known all the same
    deciding = view["deciding"]["recipe"] if view["deciding"] else None
    # Recipes, seat by seat.
    hands_recipes: list[list[str]] = [[] for _ in range(players)]
    decks: list[list[str]] = [[] for _ in range(players)]
    oven_unheard: list[str] = []
    rests: dict[int, list[str]] = {}
    for owner in range(players):
        placed = set(view["baked"][owner]) | set(known_oven) | {deciding}
        if owner == seat:
            placed |= set(hand["recipes"])
        unseen = [r for r in COLOUR_RECIPES[COLOURS[owner]] if r not in placed]
        rng.shuffle(unseen)
        deck_size = view["recipe_decks"][owner]
        decks[owner] = unseen[:deck_size]
        rest = unseen[deck_size:]
        if owner == seat:
            hands_recipes[owner] = list(hand["recipes"])
            oven_unheard += rest
        else:
            room = view["hand_sizes"][owner]
            hands_recipes[owner] = rest[:room]
            oven_unheard += rest[room:]
            rests[owner] = rest[:room]
    # An opponent's unheard plays of this round (``forgotten`` plays) each put a recipe into the oven about as
    # often as plays do (RECIPE_PLAY_SHARE), not never: move that many of its hand's drawn recipes there, as
    # the oven's unheard cards leave room.
    room_in_oven = view["oven"]["size"] - len(known_oven) - len(oven_unheard)
    unheard_plays = Counter(
        event["seat"] for event in events if event["type"] == "forgotten" and event["what"] == "play"
    )
    for owner, candidates in rests.items():
        plays = sum(rng.random() < RECIPE_PLAY_SHARE for _ in range(unheard_plays[owner]))
        moved = min(plays, len(candidates), max(0, room_in_oven))
        if moved:
            hands_recipes[owner] = candidates[: len(candidates) - moved]
            oven_unheard += candidates[len(candidates) - moved :]
            room_in_oven -= moved
    # Toppings: what nobody can account for.
    total = COPIES - REMOVED[players]
    pool = {kind: total - hand["toppings"][kind] - view["table"][kind] for kind in TOPPINGS}
    used = _kinds()
    for event in events:
        if event["type"] == "baked":
            for kind, n in event["used"].items():
                used[kind] += n
    if sum(used.values()) != view["used"]:  # cannot happen while bakes are public; kept exact by counts
        used = _kinds()
    for kind in TOPPINGS:
        pool[kind] -= used[kind]
    for card in known_oven:
        if card in pool:
            pool[card] -= 1
    toppings = [kind for kind in TOPPINGS for _ in range(max(0, pool[kind]))]
    rng.shuffle(toppings)
    mamma_mia_drawn = any(event["type"] == "chef" and event["reason"] == MAMMA_MIA for event in events)
    oven_size = view["oven"]["size"]
    unheard_count = oven_size - len(known_oven)
    oven_tops = max(0, unheard_count - len(oven_unheard))
    oven_unheard += [toppings.pop() for _ in range(oven_tops)]
    rng.shuffle(oven_unheard)
    oven = known_oven + oven_unheard if view["phase"] == 2 else oven_unheard + known_oven
    hands = []
    for owner in range(players):
        if owner == seat:
            hands.append({"toppings": dict(hand["toppings"]), "recipes": list(hand["recipes"])})
            continue
        count = view["hand_sizes"][owner] - len(hands_recipes[owner])
        kinds = _kinds()
        for _ in range(count):
            kinds[toppings.pop()] += 1
        hands.append({"toppings": kinds, "recipes": hands_recipes[owner]})
    kitchen = list(toppings)
    if not mamma_mia_drawn:  # drawn, it lies in front of the chef until the next kitchen
        kitchen.insert(rng.randrange(len(kitchen) + 1), MAMMA_MIA)
    round_start = max((i for i, event in enumerate(log) if event["type"] == "round"), default=0)
    return {
        "seed": rng.getrandbits(64),
        "rng": 1,
        "players": players,
        "options": {"memory": view["memory"]},
        "round": view["round"],
        "phase": view["phase"],
        "over": view["over"],
        "table": dict(view["table"]),
        "used": used,
        "baked": [list(baked) for baked in view["baked"]],
        "deciding": dict(view["deciding"]) if view["deciding"] else None,
        "log": log,
        "hands": hands,
        "kitchen": kitchen,
        "decks": decks,
        "first": view["first"],
        "turn": view["turn"],
        "chef": view["chef"],
        "quiet": _quiet(events),
        "oven": oven,
        "round_start": round_start,
    }
