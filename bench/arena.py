"""Bots of two levels against each other over many seeded deals (issue 28): ``make arena``.

For each game with a sampler (``games.engines.search``), each player count (2 and 4, within the game's
bounds) and each pair of levels (strong vs normal, normal vs easy): deal ``d`` (seed ``d``) seats one bot of
the higher level at seat ``d mod players`` (seats rotated) and bots of the lower level everywhere else, and
plays the game to its end with ``choose_move`` (each decision seeded by the deal and the move number). The
higher level's share of first places (ties shared) is compared with its fair share, ``1 / players``, with a
95 % confidence interval (normal approximation over the deals' shares). The strong bot's CPU per decision
(``time.process_time``, one core) is recorded: p50 and p95.

The issue's targets: strong wins at least 1.4x its fair share with the interval above fair share, over at
least 400 deals per game and player count; normal vs easy above fair share. A full run takes hours of one core
(``--deals 400``); ``--quick`` is a smoke run of minutes. Writes JSON (``--out``, default
``bench/arena-results.json``), whose summary ``make bench`` puts in its report (bench/report.py).

    python -m bench.arena --quick
    python -m bench.arena --deals 400 --only konamon --players 4
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

from games.engines import engine_slugs, get_engine
from games.engines.search import budget_for, choose_move, has_search

OUT = Path(__file__).resolve().parent / "arena-results.json"
PAIRS = (("strong", "normal"), ("normal", "easy"))
TARGET_RATIO = 1.4  # the strong bot's first places, as a multiple of its fair share


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def first_place_share(outcome: list[dict], seat: int) -> float:
    """``seat``'s share of first place: 1, a tie's share, or 0."""
    firsts = [row["seat"] for row in outcome if row["rank"] == 1]
    return 1 / len(firsts) if seat in firsts else 0.0


def play_deal(engine, players: int, deal: int, high: str, low: str, budget: int, cpu: list[float]) -> float:
    """One deal: the ``high`` bot at seat ``deal % players``, ``low`` bots elsewhere; the high bot's share."""
    hero = deal % players
    state = engine.setup(players, seed=deal)
    number = 0
    while not engine.is_over(state):
        seat = engine.waiting_for(state)[0]
        level = high if seat == hero else low
        started = time.process_time()
        move = choose_move(engine, state, seat, level, seed=f"arena:{deal}:{number}", budget=budget)
        if level == "strong" and len(engine.legal_moves(state, seat)) > 1:
            cpu.append(time.process_time() - started)
        state = engine.play(state, seat, move)
        number += 1
    return first_place_share(engine.outcome(state), hero)


def confidence(shares: list[float]) -> tuple[float, float, float]:
    """The mean of ``shares`` and its 95 % interval (normal approximation; ties make shares not 0/1)."""
    mean = statistics.fmean(shares)
    spread = statistics.stdev(shares) if len(shares) > 1 else 0.5
    half = 1.96 * spread / math.sqrt(len(shares))
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def run_pair(slug: str, players: int, high: str, low: str, deals: int, budget: int | None, log) -> dict:
    engine = get_engine(slug)
    budget = budget if budget is not None else budget_for(engine)
    cpu: list[float] = []
    shares = []
    started = time.process_time()
    for deal in range(1, deals + 1):
        shares.append(play_deal(engine, players, deal, high, low, budget, cpu))
    mean, lower, upper = confidence(shares)
    fair = 1 / players
    row = {
        "game": slug,
        "players": players,
        "high": high,
        "low": low,
        "deals": deals,
        "budget": budget,
        "first_places": round(sum(shares), 2),
        "share": round(mean, 3),
        "ci95": [round(lower, 3), round(upper, 3)],
        "fair_share": round(fair, 3),
        "ratio": round(mean / fair, 2),
        "above_fair": lower > fair,
        "target_met": (lower > fair and mean >= TARGET_RATIO * fair) if high == "strong" else lower > fair,
        "cpu_s": round(time.process_time() - started, 1),
    }
    if cpu:
        row["strong_decision_cpu_s"] = {
            "p50": round(statistics.median(cpu), 3),
            "p95": round(percentile(cpu, 0.95), 3),
            "decisions": len(cpu),
        }
    log(
        f"{slug} {players}p {high} vs {low}: {row['first_places']}/{deals} first places, share {row['share']} "
        f"[{lower:.3f}, {upper:.3f}] vs fair {fair:.3f}"
    )
    return row


def summary_lines(results: dict) -> list[str]:
    """The arena as Markdown table rows, for this command's output and ``make bench``'s report."""
    lines = [
        "| Game | Players | Levels | Deals | First places | Share (95 % CI) | Fair share | Ratio | Target | "
        "Strong CPU/decision p50 / p95 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in results["rows"]:
        cpu = row.get("strong_decision_cpu_s")
        cpu_text = f"{cpu['p50']} / {cpu['p95']} s" if cpu else "–"
        target = "1.4x fair, CI above" if row["high"] == "strong" else "CI above fair"
        lines.append(
            f"| {row['game']} | {row['players']} | {row['high']} vs {row['low']} | {row['deals']} | "
            f"{row['first_places']} | {row['share']:.3f} ({row['ci95'][0]:.3f}–{row['ci95'][1]:.3f}) | "
            f"{row['fair_share']:.3f} | {row['ratio']} | {target}: {'met' if row['target_met'] else 'not met'} | "
            f"{cpu_text} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=400, help="deals per game, player count and pair")
    parser.add_argument("--quick", action="store_true", help="6 deals at 20 iterations: a smoke run of minutes")
    parser.add_argument("--only", nargs="*", default=None, help="game slugs (default: every game with a sampler)")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4])
    parser.add_argument(
        "--pairs", nargs="*", default=[f"{h}-{lo}" for h, lo in PAIRS], help="e.g. strong-normal normal-easy"
    )
    parser.add_argument("--budget", type=int, default=None, help="strong iterations (default: the game's)")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this CPU (default: the last one allowed)")
    args = parser.parse_args(argv)
    deals, budget = (6, 20) if args.quick else (args.deals, args.budget)
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {args.cpu if args.cpu is not None else cpus[-1]})

    def log(message: str) -> None:
        print(f"[arena] {message}", file=sys.stderr, flush=True)

    command = "python -m bench.arena " + " ".join(argv if argv is not None else sys.argv[1:])
    rows = []
    for slug in args.only or [s for s in engine_slugs() if has_search(get_engine(s))]:
        engine = get_engine(slug)
        for players in args.players:
            if not engine.min_players <= players <= engine.max_players:
                continue
            for pair in args.pairs:
                high, low = pair.split("-")
                rows.append(run_pair(slug, players, high, low, deals, budget, log))
    results = {
        "command": command.strip(),
        "quick": args.quick,
        "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "rows": rows,
    }
    args.out.write_text(json.dumps(results, indent=1) + "\n")
    print("\n".join(summary_lines(results)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
