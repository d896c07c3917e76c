"""Konamon!'s sampler for the search bots (``games/engines/search.py``): a full state from one seat's view.

A seat does not know the other hands, the order of the action and customer decks, nor — before the reveal —
what the others chose: their simultaneous choices are hidden moves. The sampler deals the action cards the
seat has not seen (not in its hand or choice, the discard pile, the line of revealed cards or the card being
carried out) at random into the other hands and the deck. A seat that has already chosen is dealt its hand
plus the cards it put down, and its choice is then drawn as the engine's own bot would make it from that
hand: a model of the opponent, since the real choice is unknown. The customers not on the track, taken or
gone are the customer deck, shuffled.

A drawn state gets a seed of its own: the real seed would tell later reshuffles.
"""

from __future__ import annotations

import random

from games.engines.base import State, View

from .engine import ACTIONS, CUSTOMERS, engine

# Playouts per strong decision (games.engines.search.budget_for): a playout is a whole game of many small
# steps. At 100, p95 was 0.89–0.90 s of one core, too near the 1 s, so 80; since the bot's card simulations
# are shared and written out (28 Nov 2026) 100 takes ~0.7 s at p95 (python -m bench.search_cpu --only konamon).
BUDGET = 100


def _chosen_size(players: int) -> int:
    """Cards a choice takes from the hand: one (3–4 players), or two at 2 players (a pair, or card + discard)."""
    return 2 if players == 2 else 1


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from the real one: its view of it equals ``view``."""
    players = view["players"]
    hand = list(view["hand"])
    own_choice = view["choice"]
    seen = set(hand) | set(view["discard_pile"]) | {entry["card"] for entry in view["queue"]}
    if view["working"] is not None:
        seen.add(view["working"]["card"])
    if own_choice is not None:
        seen.update(own_choice["cards"])
        if own_choice.get("discard") is not None:
            seen.add(own_choice["discard"])
    unseen = [card for card in sorted(ACTIONS) if card not in seen]
    rng.shuffle(unseen)
    choosing = view["phase"] == "choose"
    hidden_choosers = [other for other in range(players) if other != seat and choosing and view["chosen"][other]]
    hands: list[list[int]] = [[] for _ in range(players)]
    for other in range(players):
        if other == seat:
            hands[other] = sorted(hand)
            continue
        size = view["hand_sizes"][other] + (_chosen_size(players) if other in hidden_choosers else 0)
        hands[other] = sorted(unseen[:size])
        del unseen[:size]
    on_table = {customer["id"] for customer in view["customers"]}
    elsewhere = on_table | set(view["gone"]) | {cid for taken in view["taken"] for cid in taken}
    customer_deck = [cid for cid in sorted(CUSTOMERS) if cid not in elsewhere]
    rng.shuffle(customer_deck)
    working = view["working"]
    state: State = {
        "seed": rng.getrandbits(64),
        "rng": 1,
        "players": players,
        "round": view["round"],
        "phase": view["phase"],
        "hands": hands,
        "deck": unseen,
        "discard": list(view["discard_pile"]),
        "customer_deck": customer_deck,
        "customers": [
            {"id": customer["id"], "mood": customer["mood"], "chips": dict(customer["chips"])}
            for customer in view["customers"]
        ],
        "taken": [list(taken) for taken in view["taken"]],
        "gone": list(view["gone"]),
        "points": list(view["scores"]),
        "boards": {name: dict(chips) for name, chips in view["boards"].items()},
        "stock": dict(view["stock"]),
        "chosen": [None] * players,
        "played": [list(cards) if cards is not None else None for cards in view["played"]],
        "queue": [[entry["card"], entry["seat"]] for entry in view["queue"]],
        "working": {**working, "left": dict(working["left"])} if working else None,
        "last_actor": view["last_actor"],
        "log": [
            {key: list(value) if isinstance(value, list) else value for key, value in event.items()}
            for event in view["log"]
        ],
    }
    if own_choice is not None:
        state["chosen"][seat] = {"cards": list(own_choice["cards"]), "discard": own_choice.get("discard")}
    for other in hidden_choosers:
        # The hidden move: what the bot would have chosen from the drawn hand (set in place, not played,
        # so that the log stays the one the seat saw; with every seat chosen the engine would reveal).
        move = engine.bot_move(state, other)
        for card in [*move["cards"], move.get("discard")]:
            if card is not None:
                state["hands"][other].remove(card)
        state["chosen"][other] = {"cards": list(move["cards"]), "discard": move.get("discard")}
    return state
