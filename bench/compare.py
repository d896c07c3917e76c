"""Before and after, side by side: the targets of a run with ``--before`` (each target a ratio against its own
tree's bare request in that run), or of two ``make bench`` results; and issue 33's table for the README.

    .venv/bin/python -m bench.compare bench/results.json               # a run with --before: its two trees
    .venv/bin/python -m bench.compare BEFORE.json AFTER.json           # two runs
    .venv/bin/python -m bench.compare bench/results.json --issue33     # the README's table
    .venv/bin/python -m bench.compare bench/results.json --readme README.md   # ... written between its markers

A target only one side measured shows "—" on the other (the server tax, the live updates and the scale-out are
measured for the current tree only).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

MARKER = "issue33-table"


def _mark(met) -> str:
    return "met" if met else ("—" if met is None else "missed")


def _key(target: str) -> tuple[str, str]:
    """A target's name without the figures of its run in brackets (the open loop's offered load, which differs with
    each tree's capacity), and those figures: so the two sides of one target share a row."""
    figures = re.findall(r" \(([^()]*\d[^()]*)\)", target)
    return re.sub(r" \([^()]*\d[^()]*\)", "", target), "; ".join(figures)


def table(before: dict, after: dict, *, only: str | None = None) -> str:
    rows: dict[str, dict] = {}
    for side, results in (("before", before), ("after", after)):
        for row in results.get("targets") or []:
            if only and only not in row["target"] and only not in row["goal"]:
                continue
            name, figures = _key(row["target"])
            entry = rows.setdefault(name, {"goal": row["goal"]})
            entry[side] = (f"{figures}: " if figures else "") + f"{row['measured']} ({_mark(row['met'])})"
    lines = ["| target | goal | before | after |", "| --- | --- | --- | --- |"]
    for target, entry in rows.items():
        lines.append(f"| {target} | {entry['goal']} | {entry.get('before', '—')} | {entry.get('after', '—')} |")
    return "\n".join(lines)


def sides(first: dict, second: dict | None = None) -> tuple[dict, dict]:
    """(before, after): a run with --before holds its baseline's results under ``before``."""
    if second is not None:
        return first, second
    if "before" not in first:
        raise SystemExit("this run was made without --before: give the before and the after results")
    return {**first["before"], "machine": first.get("machine", {}), "config": first.get("config", {})}, first


# Issue 33's table ----------------------------------------------------------------------------------


def _cell(text: str | None, met: bool | None) -> str:
    if text is None:
        return "—"
    return f"**{text} (met)**" if met else text


def _closed(results: dict, players: int) -> dict | None:
    return next((row for row in results.get("closed_loop") or [] if row["players"] == players), None)


def move_cpu(results: dict, players: int) -> tuple[str, bool] | None:
    """Stack CPU per move in bare requests, with the absolute figures, the rounds and where it went."""
    from bench import report

    row, bare = _closed(results, players), report.bare_cpu_ms(results)
    if not row or not bare or not row.get("server_cpu_ms_per_move"):
        return None
    move = row["server_cpu_ms_per_move"]
    text = f"{move / bare:.1f} ({move} ms ÷ {bare} ms)"
    rounds = row.get("rounds") or []
    if len(rounds) > 1:
        text += "; rounds " + " / ".join(f"{r['server_cpu_ms_per_move'] / bare:.1f}" for r in rounds
                                          if r.get("server_cpu_ms_per_move"))
    spent, moves = row.get("server_cpu_s") or {}, row.get("moves") or 0
    # Only the processes the run could measure (PostgreSQL only when the bench started it: its postmaster).
    measured = (results.get("config") or {}).get("cpu_measured_for") or list(spent)
    if moves:
        parts = [(label, sum(spent.get(k, 0.0) for k in keys)) for label, keys in
                 (("web", ("web", "live")), ("PostgreSQL", ("db",)), ("Celery", ("workers",)))
                 if any(k in measured for k in keys)]
        text += ": " + ", ".join(f"{label} {1000 * seconds / moves:.1f}" for label, seconds in parts) + " ms"
    return text, move / bare <= report.MOVE_IN_BARE_REQUESTS


def page_queries(results: dict) -> tuple[str, bool] | None:
    from bench import report

    longest = (results.get("growth") or {}).get("longest_game")
    if not longest:
        return None
    cached = max(longest[p]["game_page"]["queries"] for p in ("start", "end"))
    cold = max(report.cold_queries_of(longest[p]) for p in ("start", "end"))
    return f"{cached} / {cold}", max(cached, cold) <= report.PAGE_QUERIES


def page_cpu(results: dict) -> tuple[str, bool] | None:
    from bench import report

    growth = results.get("growth") or {}
    bare, longest = (growth.get("bare_request") or {}).get("cpu_ms"), growth.get("longest_game")
    if not bare or not longest:
        return None
    page = longest["start"]["game_page"]
    cold = longest["start"].get("game_page_cold") or page
    return (f"{cold['cpu_ms'] / bare:.1f} / {page['cpu_ms'] / bare:.1f} ({cold['cpu_ms']} / {page['cpu_ms']} ms ÷ "
            f"{bare} ms)", cold["cpu_ms"] / bare <= report.PAGE_IN_BARE_REQUESTS)


def open_half(results: dict) -> tuple[str, bool] | None:
    from bench import report

    run = next((r for r in results.get("open_loop_at_capacity") or [] if r.get("fraction") == 0.5), None)
    if not run:
        return None
    page, post = run["game_page"].get("p50_ms"), run["move_post"].get("p50_ms")
    if page is None or post is None:
        return f"no requests at {run['offered_moves_per_s']:g} moves/s", False
    bare = report.bare_cpu_ms(results)
    met = all(value <= absolute or (bare is not None and value / bare <= in_bare) for value, absolute, in_bare in
              ((page, 15, report.OPEN_PAGE_IN_BARE), (post, 25, report.OPEN_POST_IN_BARE)))
    return (f"{page:.0f} / {post:.0f} ms at {run['offered_moves_per_s']:g} moves/s (capacity "
            f"{run['capacity_moves_per_s']})", met)


def from_targets(results: dict, *prefixes: str) -> tuple[str, bool | None] | None:
    """The run's own target rows that start with one of ``prefixes``, their figures joined; met when every row
    that is judged is met (a comparison only reported is not judged)."""
    rows = [row for row in results.get("targets") or [] if row["target"].startswith(prefixes)]
    if not rows:
        return None
    judged = [row["met"] for row in rows if row["met"] is not None]
    return "; ".join(row["measured"] for row in rows), (all(judged) if judged else None)


def server_tax(results: dict) -> tuple[str, bool | None] | None:
    found = from_targets(results, "server tax")
    if found is None:
        return None
    rows = [row for row in results["targets"] if row["target"].startswith("server tax")]
    return "; ".join(f"vs {row['target'].rsplit(' vs ', 1)[-1]}: {row['measured']}" for row in rows), found[1]


def reads_no_feature(results: dict) -> tuple[str, bool | None] | None:
    found = from_targets(results, "game page of a game without chat, rating or clock")
    if found is None:
        return None
    return ("none read", True) if found[1] else found


def closed_rate(results: dict, players: int) -> tuple[str, None] | None:
    row = _closed(results, players)
    if not row:
        return None
    rounds = row.get("rounds") or []
    spread = f" (rounds {' / '.join(str(r['moves_per_s']) for r in rounds)})" if len(rounds) > 1 else ""
    return f"{row['moves_per_s']}{spread}", None


def bare_request(results: dict) -> tuple[str, None] | None:
    from bench import report

    stack, django = report.bare_cpu_ms(results), ((results.get("growth") or {}).get("bare_request") or {}).get("cpu_ms")
    if not stack and not django:
        return None
    return f"{stack or '—'} / {django or '—'} ms", None


def issue33_rows(before: dict, after: dict) -> list[tuple[str | None, str, str, str, bool | None]]:
    """(short name, target, before, after, after met) for each of issue 33's targets (and two rows of context),
    figures from the results themselves."""
    levels = [p for p in (32, *sorted({r["players"] for r in after.get("closed_loop") or []}, reverse=True))
              if _closed(after, p)]
    players = next((p for p in levels if p <= 32), levels[0] if levels else 32)
    specs = [
        ("the move", f"stack CPU per move (closed loop, {players} players) ≤ 6 bare requests",
         lambda r: move_cpu(r, players)),
        ("the page's queries", "game page ≤ 4 queries (board cached / first view of a version)", page_queries),
        ("the page's CPU", "game page Django CPU ≤ 2 bare requests (first view / cached; start of the game)",
         page_cpu),
        ("no feature read", "a page of a game without chat, rating or clock reads none of them", reads_no_feature),
        ("the server tax", "server tax: the site's requests no dearer than under a plain WSGI server (≤ 1.05×)",
         server_tax),
        ("the open loop", "open loop at half capacity: page p50 ≤ 15 ms, move POST p50 ≤ 25 ms", open_half),
        ("the live updates", "live updates with 1,000 idle streams: p50 ≤ 150 / p99 ≤ 500 ms; 5,000 streams held",
         lambda r: from_targets(r, "update latency", "5,000 open streams")),
        ("the scale-out", "scale-out through PgBouncer (transaction mode), two web servers",
         lambda r: from_targets(r, "scale-out")),
        (None, f"closed loop {players} players: moves/s", lambda r: closed_rate(r, players)),
        (None, "the unit: a bare request's stack CPU / Django CPU", bare_request),
    ]
    rows = []
    for short, name, measure in specs:
        found = {side: measure(results) for side, results in (("before", before), ("after", after))}
        cells = {side: _cell(*value) if value else "—" for side, value in found.items()}
        rows.append((short, name, cells["before"], cells["after"], found["after"][1] if found["after"] else None))
    return rows


def _describe(results: dict) -> str:
    machine = results.get("machine") or {}
    commit = f" at `{machine['git']}`" if machine.get("git") else ""
    return f"{machine.get('date_utc', '?')} UTC{commit}"


def issue33_markdown(before: dict, after: dict, *, same_run: bool) -> str:
    rows = issue33_rows(before, after)
    machine, config = after.get("machine") or {}, after.get("config") or {}
    load = machine.get("load_average_at_start")
    if same_run:
        command = " ".join(["python -m bench", *config.get("argv", [])])
        head = (f"One run, `{command}`: {_describe(after)}, {after.get('elapsed_s', '?')} s, load average at start "
                f"{load[0] if load else '?'}; **before** = `{str(config.get('before', '?'))[:7]}` served beside it "
                "(bench/before.py).")
    else:
        head = f"Two runs: **before** {_describe(before)}, **after** {_describe(after)}."
    if config.get("quick"):
        head += " **Quick run: a smoke test, not figures.**"
    met = [short for short, _, _, _, ok in rows if short and ok]
    missed = [short for short, _, _, _, ok in rows if short and ok is False]
    lines = [head + " Each figure is a ratio against its own tree's bare request (a logged-in POST doing one "
             "transaction through the same server and middleware), absolute values beside; bold: met.", "",
             "| target | before | after |", "| --- | --- | --- |"]
    lines += [f"| {name} | {b} | {a} |" for _, name, b, a, _ in rows]
    lines += ["", f"Met after: {', '.join(met) or 'none'}. Not met: {', '.join(missed) or 'none'}."]
    return "\n".join(lines) + "\n"


def replace_block(text: str, block: str, name: str = MARKER) -> str:
    """``text`` with what lies between the ``<!-- name -->`` and ``<!-- /name -->`` lines replaced by ``block``."""
    start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        raise ValueError(f"expected one {start} … {end} pair")
    head, rest = text.split(start, 1)
    _, tail = rest.split(end, 1)
    return f"{head}{start}\n{block.strip()}\n{end}{tail}"


def write_readme(path: Path, block: str) -> None:
    path.write_text(replace_block(path.read_text(), block))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("results", type=Path, help="a run with --before, or the before run of two")
    parser.add_argument("after", type=Path, nargs="?", help="the after run, when two runs are compared")
    parser.add_argument("--only", help="targets whose name or goal contains this text (e.g. 'bare request')")
    parser.add_argument("--issue33", action="store_true", help="issue 33's table (the README's) instead")
    parser.add_argument("--readme", type=Path, help="write issue 33's table into this file between its markers")
    args = parser.parse_args(argv)
    first = json.loads(args.results.read_text())
    before, after = sides(first, json.loads(args.after.read_text()) if args.after else None)
    for label, results in (("before", before), ("after", after)):
        machine = results.get("machine") or {}
        print(f"{label}: {machine.get('date_utc')} UTC, {machine.get('git')}, "
              f"load average at start {machine.get('load_average_at_start')}", file=sys.stderr)
    if args.issue33 or args.readme:
        block = issue33_markdown(before, after, same_run=args.after is None)
        if args.readme:
            write_readme(args.readme, block)
            print(f"wrote issue 33's table into {args.readme}", file=sys.stderr)
        else:
            print(block)
        return 0
    print(table(before, after, only=args.only))
    return 0


if __name__ == "__main__":
    sys.exit(main())
