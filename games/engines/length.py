"""How long a game lasts, measured once by bot self-play and stored in the game folder (``length.json``).

    python -m games.engines.length                    # every registered game, 200 games per seat count
    python -m games.engines.length konamon --games 400
    python -m games.engines.length --check            # exit 1 if a stored file differs from a new measurement

For each seat count the engine allows, the bots play ``--games`` whole games (seeds 1 … N, default options, every
seat ``bot_move``) and the file records the rounds a game had (its last view's ``"round"``: fewest, most, mean) and
the moves each seat made (every move a seat was asked for counts, a Konamon! card's steps one by one; fewest,
most, mean). The site reads the file (``games.registry.GameAppConfig.length``) to say on the creation form, in the
lobby and in "My games" how long a game lasts ("~20 rounds, ~60 moves each") and, where every game had the same
number of rounds, "round 2 of 3". Bots are deterministic, so a measurement with the same games gives the same file;
people play other moves, hence the "~". Pure: no Django, like the engines.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from . import engine_slugs, get_engine
from .base import Engine
from .length_file import FILE_NAME, read

__all__ = ["FILE_NAME", "measure", "path_of", "play_one", "read"]
DEFAULT_GAMES = 200
MAX_MOVES = 100_000


def play_one(engine: Engine, players: int, seed: int) -> tuple[int, list[int]]:
    """One bot game to the end: (its rounds, the moves each seat made)."""
    state = engine.setup(players, seed, {})
    moves = [0] * players
    while not engine.is_over(state):
        waiting = engine.waiting_for(state)
        if not waiting:
            raise RuntimeError(f"{engine.slug}: dead end with seed {seed}")
        for seat in waiting:
            state = engine.play(state, seat, engine.bot_move(state, seat))
            moves[seat] += 1
            if sum(moves) >= MAX_MOVES:
                raise RuntimeError(f"{engine.slug}: no end after {MAX_MOVES} moves with seed {seed}")
            if engine.is_over(state):
                break
    return int(engine.view(state, None)["round"]), moves


def _summary(values: list[int]) -> dict[str, float | int]:
    return {"min": min(values), "max": max(values), "mean": round(sum(values) / len(values), 1)}


def measure(engine: Engine, *, games: int = DEFAULT_GAMES) -> dict[str, Any]:
    """The length file's content for ``engine``: per seat count, rounds and moves per seat over ``games`` games."""
    by_players = {}
    for players in range(engine.min_players, engine.max_players + 1):
        rounds, moves = [], []
        for seed in range(1, games + 1):
            game_rounds, seat_moves = play_one(engine, players, seed)
            rounds.append(game_rounds)
            moves += seat_moves
        by_players[str(players)] = {"rounds": _summary(rounds), "moves_per_seat": _summary(moves)}
    return {
        "measured_by": "python -m games.engines.length: bot self-play, seeds 1 to games, default options",
        "games": games,
        "players": by_players,
    }


def path_of(engine: Engine) -> Path:
    """``length.json`` in the engine's own game folder."""
    return Path(sys.modules[type(engine).__module__].__file__).parent / FILE_NAME


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.engines.length", description=__doc__.split("\n\n")[0])
    parser.add_argument("slugs", nargs="*", metavar="SLUG", help=f"games to measure (default: all of {engine_slugs()})")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES, help="games per seat count")
    parser.add_argument("--check", action="store_true", help="compare with the stored files instead of writing")
    args = parser.parse_args(argv)
    unknown = set(args.slugs) - set(engine_slugs())
    if unknown:
        parser.error(f"unknown games: {', '.join(sorted(unknown))}")
    status = 0
    for slug in args.slugs or engine_slugs():
        engine = get_engine(slug)
        measured = measure(engine, games=args.games)
        path = path_of(engine)
        if args.check:
            same = read(path) == measured
            print(f"{slug}: {'as stored' if same else 'DIFFERS from'} {path}")
            status |= not same
            continue
        path.write_text(json.dumps(measured, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        lines = ", ".join(
            f"{n} players ~{row['rounds']['mean']} rounds, ~{row['moves_per_seat']['mean']} moves each"
            for n, row in measured["players"].items()
        )
        print(f"{slug}: {lines} -> {path}")
    return status


if __name__ == "__main__":
    sys.exit(main())
