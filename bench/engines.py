"""Engines: complete bot-vs-bot games per second on one core, per game and player count.

Runs in its own process pinned to one CPU (when the OS lets it): every seat
plays ``engine.bot_move`` from ``setup`` to ``is_over``, seeds 1, 2, 3, ...
for ``--seconds`` per (game, players) after one warm-up game. Prints JSON.

    python -m bench.engines --seconds 2
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import time

from games.engines import engine_slugs, get_engine


def play_one(engine, players: int, seed: int) -> int:
    state = engine.setup(players, seed)
    moves = 0
    while not engine.is_over(state):
        waiting = engine.waiting_for(state)
        if not waiting:
            raise RuntimeError(f"{engine.slug}: nobody awaited but the game is not over (seed {seed})")
        seat = waiting[0]
        state = engine.play(state, seat, engine.bot_move(state, seat))
        moves += 1
        if moves > 100_000:
            raise RuntimeError(f"{engine.slug}: no end after 100000 moves (seed {seed})")
    return moves


def _round(engine, players: int, seconds: float, first_seed: int, max_games: int) -> tuple[int, int, float, float]:
    games = moves = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while games < max_games and time.perf_counter() - wall0 < seconds:
        moves += play_one(engine, players, first_seed + games)
        games += 1
    return games, moves, time.process_time() - cpu0, time.perf_counter() - wall0


def measure(slug: str, players: int, seconds: float, rounds: int = 3, max_games: int = 100_000) -> dict:
    """Games per CPU-second over ``rounds`` rounds of the same seeds; the best round counts (on a shared
    machine the others are slowed by whatever runs beside them, hyperthread siblings included)."""
    engine = get_engine(slug)
    play_one(engine, players, 0)  # warm-up: imports, data files, caches
    results = [_round(engine, players, seconds / rounds, 1, max_games) for _ in range(rounds)]
    rates = [g / c for g, _m, c, _w in results if c]
    games, moves, cpu, wall = max(results, key=lambda r: r[0] / r[2] if r[2] else 0)
    return {
        "rounds_games_per_s_per_core": [round(rate, 1) for rate in rates],
        "game": slug,
        "players": players,
        "games": games,
        "moves": moves,
        "wall_s": round(wall, 3),
        "cpu_s": round(cpu, 3),
        # Per core: games over the CPU time this single-threaded process used.
        "games_per_s_per_core": round(games / cpu, 1) if cpu else None,
        "games_per_s_wall": round(games / wall, 1) if wall else None,
        "moves_per_game": round(moves / games, 1) if games else None,
        "ms_per_move": round(1000 * cpu / moves, 3) if moves else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per (game, players)")
    parser.add_argument("--games", nargs="*", default=engine_slugs())
    parser.add_argument("--cpu", type=int, default=None, help="pin to this CPU (default: the last one)")
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        cpu = args.cpu if args.cpu is not None else cpus[-1]
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {cpu})
    rows = []
    for slug in args.games:
        engine = get_engine(slug)
        for players in range(engine.min_players, engine.max_players + 1):
            rows.append(measure(slug, players, args.seconds))
            print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    json.dump(rows, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
