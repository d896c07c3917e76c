"""Bots of two levels against each other over many seeded deals (issue 28): ``make arena``.

For each game with a sampler (``games.engines.search``), each player count (2 and 4, within the game's
bounds) and each pair of levels (strong vs normal, normal vs easy): deal ``d`` (seed ``d``) seats one bot of
the higher level at seat ``d mod players`` (seats rotated) and bots of the lower level everywhere else, and
plays the game to its end with ``choose_move`` as the site does (each decision seeded by the deal and the
move number, the game's own budget). The higher level's share of first places (ties shared) is compared with
its fair share, ``1 / players``, with a 95 % confidence interval (normal approximation over the deals'
shares). The strong bot's CPU per decision (``time.process_time``, one core) is recorded: p50 and p95.

**Resumable and cumulative.** The issue's 400 deals per game, player count and pair are hours of one core,
more than one sitting: every finished deal is appended at once as one line of ``bench/arena-deals.jsonl``
(committed), keyed by game, player count, pair, deal seed and the bots' *fingerprint* — a hash of the code the
bots run (``games/engines/search.py``, the game's ``engine.py`` and ``sampler.py``, comments and docstrings
left out) and the strong budget. A run plays only the deals that have no record with the current
fingerprint, so it extends what earlier runs (and other machines) left; a change to the bots changes the
fingerprint and the old records no longer count. Deals are played in blocks (``--block``) taking turns
between the rows, so a run stopped at any time leaves every row with deals. The summary over the records
(``bench/arena-results.json``, which ``make bench`` reports) is rewritten after every block.

The issue's targets: strong wins at least 1.4x its fair share with the interval above fair share, over at
least 400 deals per game and player count; normal vs easy above fair share. ``--quick`` is a smoke run of
minutes (6 deals at 20 iterations, its records apart in ``bench/out/``).

    python -m bench.arena                       # extend every row towards 400 deals
    python -m bench.arena --deals 100 --only konamon --players 4
    python -m bench.arena --summary             # the table from the records, nothing played
    python -m bench.arena --first 201 --out bench/out/arena-b.json   # a second core: seeds 201-400
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime as dt
import hashlib
import json
import math
import os
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from bench.compare import replace_block
from games.engines import engine_slugs, get_engine
from games.engines.search import budget_for, choose_move, has_search

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "arena-results.json"
RECORDS = HERE / "arena-deals.jsonl"
QUICK_RECORDS = HERE / "out" / "arena-quick-deals.jsonl"
PAIRS = (("strong", "normal"), ("normal", "easy"))
TARGET_RATIO = 1.4  # the strong bot's first places, as a multiple of its fair share
TARGET_DEALS = 400
CPU_BUCKET_S = 0.01  # a decision's CPU is recorded in buckets of this width (compact records)


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile of ``values``."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def first_place_share(outcome: list[dict], seat: int) -> float:
    """``seat``'s share of first place: 1, a tie's share, or 0."""
    firsts = [row["seat"] for row in outcome if row["rank"] == 1]
    return 1 / len(firsts) if seat in firsts else 0.0


def _code_digest(path: Path) -> str:
    """The code of a module without its comments and docstrings (an edit of those does not change the bots)."""
    if not path.exists():
        return "-"
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                node.body = body[1:] or [ast.Pass()]
    return hashlib.sha256(ast.dump(tree).encode()).hexdigest()


def fingerprint(slug: str, budget: int) -> str:
    """What the bots of ``slug`` are: the search, the game's engine (its heuristic) and sampler, the budget."""
    engine = get_engine(slug)
    folder = Path(sys.modules[type(engine).__module__].__file__).parent
    parts = [
        _code_digest(ROOT / "games" / "engines" / "search.py"),
        _code_digest(folder / "engine.py"),
        _code_digest(folder / "sampler.py"),
        str(budget),
    ]
    return hashlib.sha256(":".join(parts).encode()).hexdigest()[:16]


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


def cpu_histogram(cpu: list[float]) -> list[list[int]]:
    """Decisions' CPU as ``[bucket, count]`` pairs (bucket ``b``: ``b * CPU_BUCKET_S`` up to the next)."""
    counts = Counter(int(seconds / CPU_BUCKET_S) for seconds in cpu)
    return [[bucket, counts[bucket]] for bucket in sorted(counts)]


def histogram_percentile(histogram: Counter, share: float) -> float:
    """The nearest-rank percentile of a bucket histogram, as its bucket's upper edge."""
    total = sum(histogram.values())
    rank = min(total, max(1, round(share * total)))
    seen = 0
    for bucket in sorted(histogram):
        seen += histogram[bucket]
        if seen >= rank:
            return round((bucket + 1) * CPU_BUCKET_S, 3)
    return 0.0


def read_records(path: Path) -> list[dict]:
    """The deal records of ``path`` (none if it does not exist); a torn last line is skipped."""
    if not path.exists():
        return []
    records = []
    for line in path.read_text().splitlines():
        with contextlib.suppress(json.JSONDecodeError):
            records.append(json.loads(line))
    return records


class Row:
    """One game, player count and pair of levels: its fingerprint and the deals recorded under it."""

    def __init__(self, slug: str, players: int, high: str, low: str, budget: int | None) -> None:
        self.slug, self.players, self.high, self.low = slug, players, high, low
        self.engine = get_engine(slug)
        self.budget = budget if budget is not None else budget_for(self.engine)
        self.fingerprint = fingerprint(slug, self.budget)
        self.shares: dict[int, float] = {}
        self.cpu: Counter = Counter()
        self.cpu_s = 0.0

    def key(self) -> tuple:
        return (self.slug, self.players, self.high, self.low, self.fingerprint)

    def add(self, record: dict) -> None:
        self.shares[record["deal"]] = record["share"]
        self.cpu.update(dict(record.get("cpu_hist", [])))
        self.cpu_s += record.get("cpu_s", 0.0)

    def play(self, deal: int) -> dict:
        cpu: list[float] = []
        started = time.process_time()
        share = play_deal(self.engine, self.players, deal, self.high, self.low, self.budget, cpu)
        record = {
            "game": self.slug,
            "players": self.players,
            "high": self.high,
            "low": self.low,
            "deal": deal,
            "fingerprint": self.fingerprint,
            "budget": self.budget,
            "share": round(share, 4),
            "cpu_s": round(time.process_time() - started, 2),
        }
        if cpu:
            record["cpu_hist"] = cpu_histogram(cpu)
        return record

    def summary(self) -> dict:
        fair = 1 / self.players
        row = {
            "game": self.slug,
            "players": self.players,
            "high": self.high,
            "low": self.low,
            "deals": len(self.shares),
            "budget": self.budget,
            "fingerprint": self.fingerprint,
            "cpu_s": round(self.cpu_s, 1),
        }
        if not self.shares:
            return row
        mean, lower, upper = confidence(list(self.shares.values()))
        row.update(
            first_places=round(sum(self.shares.values()), 2),
            share=round(mean, 3),
            ci95=[round(lower, 3), round(upper, 3)],
            fair_share=round(fair, 3),
            ratio=round(mean / fair, 2),
            above_fair=lower > fair,
            target_met=(lower > fair and mean >= TARGET_RATIO * fair) if self.high == "strong" else lower > fair,
        )
        if self.cpu:
            row["strong_decision_cpu_s"] = {
                "p50": histogram_percentile(self.cpu, 0.5),
                "p95": histogram_percentile(self.cpu, 0.95),
                "decisions": sum(self.cpu.values()),
            }
        return row


def make_rows(
    only: Iterable[str] | None, players: Iterable[int], pairs: Iterable[str], budget: int | None
) -> list[Row]:
    rows = []
    for slug in only or [s for s in engine_slugs() if has_search(get_engine(s))]:
        engine = get_engine(slug)
        for count in players:
            if not engine.min_players <= count <= engine.max_players:
                continue
            for pair in pairs:
                high, low = pair.split("-")
                rows.append(Row(slug, count, high, low, budget))
    return rows


def load(rows: list[Row], records: list[dict]) -> None:
    """Give each row the records made under its current fingerprint (others are another version's)."""
    by_key = {row.key(): row for row in rows}
    for record in records:
        key = (record["game"], record["players"], record["high"], record["low"], record["fingerprint"])
        if key in by_key:
            by_key[key].add(record)


def extend(rows: list[Row], deals: range, block: int, records: Path, after_block: Callable[[], None], log) -> None:
    """Play each row's missing deals among ``deals``, ``block`` deals per row in turn, appending each record."""
    records.parent.mkdir(parents=True, exist_ok=True)
    while True:
        played = False
        for row in rows:
            missing = [deal for deal in deals if deal not in row.shares][:block]
            for deal in missing:
                record = row.play(deal)
                with records.open("a") as out:
                    out.write(json.dumps(record, separators=(",", ":")) + "\n")
                row.add(record)
                played = True
            if missing:
                summary = row.summary()
                log(
                    f"{row.slug} {row.players}p {row.high} vs {row.low}: {summary['first_places']}/"
                    f"{summary['deals']} first places, share {summary['share']} {summary['ci95']} "
                    f"vs fair {summary['fair_share']}"
                )
                after_block()
        if not played:
            return


README_MARKER = "arena-table"


def readme_block(results: dict) -> str:
    """The README's arena block: when, the command, whether every row has its deals, and the table."""
    short = [row["deals"] for row in results["rows"] if row["deals"] < TARGET_DEALS]
    if short:
        state = (
            f"{len(short)} of {len(results['rows'])} rows at {min(short)}–{max(short)} of the {TARGET_DEALS} deals "
            "the targets ask: **those rows are not judged yet**"
        )
    else:
        state = f"every row at its {TARGET_DEALS} deals or more"
    head = (
        f"Records as of {results['when']} (`make arena ARENA_ARGS=\"--summary --readme\"` rewrites this block from "
        f"`{results['records']}`; {state}):"
    )
    return "\n".join([head, "", *summary_lines(results)])


def summary_lines(results: dict) -> list[str]:
    """The arena as Markdown table rows, for this command's output and ``make bench``'s report."""
    lines = [
        "| Game | Players | Levels | Deals | First places | Share (95 % CI) | Fair share | Ratio | Target | "
        "Strong CPU/decision p50 / p95 |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for row in results["rows"]:
        if not row["deals"]:
            lines.append(f"| {row['game']} | {row['players']} | {row['high']} vs {row['low']} | 0 | | | | | | |")
            continue
        cpu = row.get("strong_decision_cpu_s")
        cpu_text = f"{cpu['p50']} / {cpu['p95']} s" if cpu else "–"
        target = "1.4x fair, CI above" if row["high"] == "strong" else "CI above fair"
        enough = row["deals"] >= TARGET_DEALS
        verdict = (
            ("met" if row["target_met"] else "not met")
            if enough
            else f"{'on course' if row['target_met'] else 'not yet'}, {row['deals']}/{TARGET_DEALS} deals"
        )
        lines.append(
            f"| {row['game']} | {row['players']} | {row['high']} vs {row['low']} | {row['deals']} | "
            f"{row['first_places']} | {row['share']:.3f} ({row['ci95'][0]:.3f}–{row['ci95'][1]:.3f}) | "
            f"{row['fair_share']:.3f} | {row['ratio']} | {target}: {verdict} | {cpu_text} |"
        )
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.arena", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--deals", type=int, default=TARGET_DEALS, help="deal seeds 1..N per game, player count and pair"
    )
    parser.add_argument(
        "--first", type=int, default=1, help="first deal seed (a second process may take the seeds from here up)"
    )
    parser.add_argument("--quick", action="store_true", help="6 deals at 20 iterations: a smoke run of minutes")
    parser.add_argument("--summary", action="store_true", help="only summarise the records; play nothing")
    parser.add_argument("--only", nargs="*", default=None, help="game slugs (default: every game with a sampler)")
    parser.add_argument("--players", type=int, nargs="*", default=[2, 4])
    parser.add_argument(
        "--pairs", nargs="*", default=[f"{h}-{lo}" for h, lo in PAIRS], help="e.g. strong-normal normal-easy"
    )
    parser.add_argument("--budget", type=int, default=None, help="strong iterations (default: the game's)")
    parser.add_argument("--block", type=int, default=5, help="deals per row before the next row's turn")
    parser.add_argument("--records", type=Path, default=None, help=f"deal records (default {RECORDS.name})")
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--cpu", type=int, default=None, help="pin to this CPU (default: the last one allowed)")
    parser.add_argument(
        "--readme", type=Path, nargs="?", const=ROOT / "README.md", default=None,
        help="rewrite the arena table of the README (or of this file) from the records",
    )
    args = parser.parse_args(argv)
    deals, budget = (6, 20) if args.quick else (args.deals, args.budget)
    records = args.records or (QUICK_RECORDS if args.quick else RECORDS)
    if hasattr(os, "sched_setaffinity"):
        cpus = sorted(os.sched_getaffinity(0))
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {args.cpu if args.cpu is not None else cpus[-1]})

    def log(message: str) -> None:
        print(f"[arena] {message}", file=sys.stderr, flush=True)

    command = "python -m bench.arena " + " ".join(argv if argv is not None else sys.argv[1:])
    rows = make_rows(args.only, args.players, args.pairs, budget)
    load(rows, read_records(records))

    def write_summary() -> dict:
        results = {
            "command": command.strip(),
            "quick": args.quick,
            "records": str(records.relative_to(ROOT)) if records.is_relative_to(ROOT) else str(records),
            "when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
            "target_deals": TARGET_DEALS,
            "rows": [row.summary() for row in rows],
        }
        args.out.parent.mkdir(parents=True, exist_ok=True)  # a fresh clone has no bench/out/
        args.out.write_text(json.dumps(results, indent=1) + "\n")
        return results

    if not args.summary:
        extend(rows, range(args.first, deals + 1), args.block, records, write_summary, log)
    results = write_summary()
    print("\n".join(summary_lines(results)))
    if args.readme:
        args.readme.write_text(replace_block(args.readme.read_text(), readme_block(results), name=README_MARKER))
        log(f"{args.readme.name}: the {README_MARKER} block rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())
