"""CPU to review one person's decisions in a finished game (issue 28), per game, on one core.

Plays ``--games`` seeded games with *normal* bots in every seat, then reviews seat 0's decisions (those with
more than one legal move) as the site's review task does (``games.engines.review.review_decision`` from the
seat's view before each move), with the site's default budget: ``GAME_REVIEW_ITERATIONS`` iterations per
decision and at most ``GAME_REVIEW_DECISIONS`` decisions. Prints JSON per game and player count: the CPU
seconds of one seat's review, p50 and p95, and the decisions reviewed.

    python -m bench.review_cpu --games 4
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import time

from bench.arena import percentile
from games.engines import engine_slugs, get_engine
from games.engines.review import review_decision
from games.engines.search import has_search

ITERATIONS = 40  # mammamia/settings.py GAME_REVIEW_ITERATIONS
DECISIONS = 80  # GAME_REVIEW_DECISIONS


def review_seconds(engine, players: int, seed: int, iterations: int, decisions: int) -> tuple[float, int]:
    """One seeded game played by the heuristic, then seat 0's review: (CPU seconds, decisions reviewed)."""
    state = engine.setup(players, seed=seed)
    before = []
    while not engine.is_over(state):
        seat = engine.waiting_for(state)[0]
        move = engine.bot_move(state, seat)
        if seat == 0 and len(engine.legal_moves(state, seat)) > 1 and len(before) < decisions:
            before.append((engine.view(state, seat), move, len(before)))
        state = engine.play(state, seat, move)
    started = time.process_time()
    for view, move, number in before:
        review_decision(engine, view, 0, move, seed=f"review:{seed}:{number}", budget=iterations)
    return time.process_time() - started, len(before)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.review_cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--players", type=int, nargs="*", default=None, help="default: each game's min and max")
    parser.add_argument("--iterations", type=int, default=ITERATIONS)
    parser.add_argument("--decisions", type=int, default=DECISIONS)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this CPU (default: the last one allowed)")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {args.cpu if args.cpu is not None else sorted(os.sched_getaffinity(0))[-1]})
    for slug in args.only or [s for s in engine_slugs() if has_search(get_engine(s))]:
        engine = get_engine(slug)
        for players in args.players or sorted({engine.min_players, engine.max_players}):
            runs = [review_seconds(engine, players, seed, args.iterations, args.decisions)
                    for seed in range(1, args.games + 1)]
            seconds = [s for s, _n in runs]
            print(json.dumps({
                "game": slug, "players": players, "games": args.games, "iterations": args.iterations,
                "decisions_reviewed": [n for _s, n in runs],
                "review_cpu_s_p50": round(statistics.median(seconds), 2),
                "review_cpu_s_p95": round(percentile(seconds, 0.95), 2),
            }), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
