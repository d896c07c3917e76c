"""CPU per strong-bot decision (issue 28), per game and player count, on one core.

Seat 0 is the strong bot (``games.engines.search``) at the game's budget (``--budget`` to override), the
others play ``normal``; to keep the run short, seat 0 searches only every ``--every``-th of its decisions
(the rest it plays ``normal``), spread over whole games. Each searched decision's CPU time
(``time.process_time``, the process pinned to one CPU when the OS lets it) is recorded.
Prints JSON: p50, p95 and max in seconds.

    python -m bench.search_cpu --games 2 --every 4
    python -m bench.search_cpu --only marumiere --players 4 --budget 100
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import time

from games.engines import engine_slugs, get_engine
from games.engines.search import budget_for, choose_move, has_search


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def measure(slug: str, players: int, games: int, every: int, budget: int | None) -> dict:
    engine = get_engine(slug)
    budget = budget if budget is not None else budget_for(engine)
    times: list[float] = []
    for seed in range(1, games + 1):
        state = engine.setup(players, seed)
        number = own = 0
        while not engine.is_over(state):
            seat = engine.waiting_for(state)[0]
            searched = seat == 0 and len(engine.legal_moves(state, seat)) > 1 and own % every == 0
            if seat == 0:
                own += 1
            if searched:
                started = time.process_time()
                move = choose_move(engine, state, seat, "strong", seed=f"{seed}:{number}", budget=budget)
                times.append(time.process_time() - started)
            else:
                move = engine.bot_move(state, seat)
            state = engine.play(state, seat, move)
            number += 1
    return {
        "game": slug,
        "players": players,
        "budget": budget,
        "decisions": len(times),
        "p50_s": round(statistics.median(times), 3),
        "p95_s": round(percentile(times, 0.95), 3),
        "max_s": round(max(times), 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", default=None, help="game slugs (default: every game with a sampler)")
    parser.add_argument("--players", type=int, nargs="*", default=None, help="player counts (default: min and max)")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--every", type=int, default=4)
    parser.add_argument("--budget", type=int, default=None, help="iterations (default: the game's)")
    parser.add_argument("--cpu", type=int, default=None)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {args.cpu if args.cpu is not None else cpus[-1]})
    slugs = args.only or [slug for slug in engine_slugs() if has_search(get_engine(slug))]
    for slug in slugs:
        engine = get_engine(slug)
        for players in args.players or sorted({engine.min_players, engine.max_players}):
            print(json.dumps(measure(slug, players, args.games, args.every, args.budget)), flush=True)


if __name__ == "__main__":
    main()
