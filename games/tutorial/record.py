"""Write a tutorial's moves: play a deal with the engine's own bot for every seat and print them as the script's
``moves`` (pure: no Django). A game's author searches seeds for one whose first moves show every rule worth
teaching, records it, then writes a step for each of the player's moves (docs/adding-a-game.md)::

    python -m games.tutorial.record marumiere --players 3 --seed 5 --moves 8
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from games.engines import get_engine
from games.seating import seat_order


def record(slug: str, *, players: int, seed: int, moves: int, options: dict[str, Any] | None = None) -> list:
    """The first ``moves`` moves of the deal, each ``[seat, move]``, as the engine's bot plays every seat. When
    the player (the seat the seed gives the first to join) is among the seats awaited at once, the player moves
    first: the bots then never keep them waiting."""
    engine = get_engine(slug)
    player = seat_order(seed, players).index(0)
    state = engine.setup(players, seed=seed, options=dict(options or {}))
    played: list = []
    while len(played) < moves and not engine.is_over(state):
        waiting = engine.waiting_for(state)
        seat = player if player in waiting else waiting[0]
        move = engine.bot_move(state, seat)
        state = engine.play(state, seat, move)
        played.append([seat, move])
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("slug")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--moves", type=int, required=True)
    args = parser.parse_args()
    print(json.dumps(record(args.slug, players=args.players, seed=args.seed, moves=args.moves)))


if __name__ == "__main__":
    main()
