"""Hidden number's sampler for the search bots (``games/engines/search.py``): a full state from one seat's view.

The only hidden fact is the other seat's number: any number the seat's hints still allow, drawn evenly.
"""

from __future__ import annotations

import random

from games.engines.base import State, View


def sample_state(view: View, seat: int, rng: random.Random) -> State:
    """A state ``seat`` cannot tell from the real one: its view of it equals ``view``."""
    other = 1 - seat
    if view["numbers"] is not None:  # over: nothing is hidden any more
        secrets = list(view["numbers"])
    else:
        low, high = view["bounds"][seat]
        secrets = [0, 0]
        secrets[seat] = view["my_number"]
        secrets[other] = rng.randint(low, high)
    guessed: list[list[int]] = [[], []]
    for event in view["log"]:
        if event["type"] in ("guess", "hit"):
            guessed[event["seat"]].append(event["number"])
    return {
        "seed": rng.getrandbits(64),  # the real seed would tell the future; a drawn one does not
        "rng": 1,
        "options": {"top": view["top"]},
        "turn": view["waiting_for"][0] if view["waiting_for"] else view["log"][-2]["seat"],
        "winner": view["winner"],
        "log": [dict(event) for event in view["log"]],
        "secrets": secrets,
        "bounds": [list(bounds) for bounds in view["bounds"]],
        "guessed": guessed,
    }
