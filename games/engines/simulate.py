"""Play whole games of any registered engine from the command line.

    python -m games.engines.simulate mamma-mia --players 5 --seed 1
    python -m games.engines.simulate mamma-mia --players 4 --seed 1 --option memory=open --random 1 2
    python -m games.engines.simulate mamma-mia --players 3 --seed 7 --option deal=@deal.json
    python -m games.engines.simulate mamma-mia --players 4 --games 200 --quiet

Every seat plays ``bot_move`` unless listed with ``--random`` (a seeded random
legal move). One game prints each move and the outcome; ``--games N`` plays the
seeds ``seed .. seed+N-1`` and prints a summary with the speed. The engines
themselves never read the clock; only this runner does, to report speed.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

from . import engine_slugs, get_engine
from .base import Engine


def parse_option(text: str) -> tuple[str, Any]:
    """``name=value``: the value as JSON if it parses, ``@path`` for a JSON file, else the plain string."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected name=value, got {text!r}")
    if value.startswith("@"):
        return name, json.loads(Path(value[1:]).read_text(encoding="utf-8"))
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def play_game(
    engine: Engine,
    players: int,
    seed: int,
    options: dict[str, Any],
    random_seats: set[int],
    echo: bool,
    max_moves: int = 100_000,
) -> tuple[dict[str, Any], int]:
    """One game to the end; returns the final state and the number of moves."""
    state = engine.setup(players, seed, options)
    chooser = random.Random(seed)
    moves = 0
    while not engine.is_over(state):
        waiting = engine.waiting_for(state)
        if not waiting:
            raise RuntimeError("dead end: nobody is awaited but the game is not over")
        for seat in waiting:
            if seat in random_seats:
                move = chooser.choice(engine.legal_moves(state, seat))
            else:
                move = engine.bot_move(state, seat)
            state = engine.play(state, seat, move)
            moves += 1
            if echo:
                print(f"{moves:4d}. seat {seat}: {json.dumps(move, ensure_ascii=False)}")
            if moves >= max_moves:
                raise RuntimeError(f"no end after {max_moves} moves")
            if engine.is_over(state):
                break
    return state, moves


def main(argv: list[str] | None = None) -> int:
    """The command line."""
    parser = argparse.ArgumentParser(prog="python -m games.engines.simulate", description=__doc__.split("\n\n")[0])
    parser.add_argument("slug", choices=sorted(engine_slugs()))
    parser.add_argument("--players", type=int, default=None, help="seats (default: the engine's minimum)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--option", action="append", type=parse_option, default=[], metavar="NAME=VALUE")
    parser.add_argument("--random", type=int, nargs="*", default=[], metavar="SEAT", help="seats playing at random")
    parser.add_argument("--games", type=int, default=1, help="play this many seeds in a row and summarise")
    parser.add_argument("--quiet", action="store_true", help="do not print each move")
    parser.add_argument("--final-view", type=int, default=None, metavar="SEAT", help="print that seat's last view")
    args = parser.parse_args(argv)

    engine = get_engine(args.slug)
    players = args.players if args.players is not None else engine.min_players
    options = dict(args.option)
    random_seats = set(args.random)
    wins = [0.0] * players
    scores = [0.0] * players
    total_moves = 0
    started = time.perf_counter()
    for game in range(args.games):
        seed = args.seed + game
        echo = not args.quiet and args.games == 1
        state, moves = play_game(engine, players, seed, options, random_seats, echo)
        total_moves += moves
        outcome = engine.outcome(state)
        firsts = [row["seat"] for row in outcome if row["rank"] == 1]
        for row in outcome:
            scores[row["seat"]] += row["score"]
            if row["rank"] == 1:
                wins[row["seat"]] += 1 / len(firsts)
        if args.games == 1 or not args.quiet:
            ranks = ", ".join(f"seat {r['seat']}: rank {r['rank']} score {r['score']}" for r in outcome)
            print(f"seed {seed}: {moves} moves; {ranks}")
        if args.final_view is not None and args.games == 1:
            print(json.dumps(engine.view(state, args.final_view), ensure_ascii=False, indent=1))
    elapsed = time.perf_counter() - started
    if args.games > 1:
        for seat in range(players):
            who = "random" if seat in random_seats else "bot"
            mean = scores[seat] / args.games
            print(f"seat {seat} ({who}): won {wins[seat]:.1f} of {args.games}, mean score {mean:.2f}")
        print(
            f"{args.games} games, {total_moves} moves in {elapsed:.3f} s: "
            f"{1000 * elapsed / args.games:.2f} ms a game, {args.games / elapsed:.1f} games/s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
