"""Before and after, side by side: the targets table of two ``make bench`` results (each target a ratio against
its own run's bare request), for the README.

    .venv/bin/python -m bench.compare bench/results-issue33-before.json bench/results.json

A target only one of the runs measured shows "—" on the other side.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def _mark(met) -> str:
    return "met" if met else ("—" if met is None else "missed")


def table(before: dict, after: dict, *, only: str | None = None) -> str:
    rows: dict[str, dict] = {}
    for side, results in (("before", before), ("after", after)):
        for row in results.get("targets") or []:
            if only and only not in row["target"] and only not in row["goal"]:
                continue
            entry = rows.setdefault(row["target"], {"goal": row["goal"]})
            entry[side] = f"{row['measured']} ({_mark(row['met'])})"
    lines = ["| target | goal | before | after |", "| --- | --- | --- | --- |"]
    for target, entry in rows.items():
        lines.append(f"| {target} | {entry['goal']} | {entry.get('before', '—')} | {entry.get('after', '—')} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--only", help="targets whose name or goal contains this text (e.g. 'bare request')")
    args = parser.parse_args(argv)
    before, after = (json.loads(path.read_text()) for path in (args.before, args.after))
    for label, results in (("before", before), ("after", after)):
        machine = results.get("machine") or {}
        print(f"{label}: {machine.get('date_utc')} UTC, {machine.get('git')}, "
              f"load average at start {machine.get('load_average_at_start')}", file=sys.stderr)
    print(table(before, after, only=args.only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
