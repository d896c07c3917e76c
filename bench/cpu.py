"""CPU time of process trees, read from /proc: what each part of the stack cost, whatever else the machine runs.

On a shared machine wall-clock figures depend on the neighbours; CPU seconds
per move or per page do not (much), so the suite reports both.
"""

from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            try:
                found += [int(child) for child in (task / "children").read_text().split()]
            except OSError:
                continue
    except OSError:
        pass
    return found


def _own_seconds(pid: int) -> float:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = text[text.rindex(")") + 2 :].split()
    # utime, stime of the process itself, plus cutime, cstime of its waited-for children.
    return sum(int(x) for x in fields[11:15]) / TICKS


def tree_seconds(pid: int | None) -> float:
    """CPU seconds used so far by ``pid`` and all its living descendants (and their reaped children)."""
    if not pid:
        return 0.0
    total, stack, seen = 0.0, [pid], set()
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        total += _own_seconds(current)
        stack += _children(current)
    return total


def tree_pids(pid: int | None) -> list[int]:
    """``pid`` and its living descendants."""
    if not pid:
        return []
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        if current not in found:
            found.append(current)
            stack += _children(current)
    return found


def snapshot(roots: dict[str, int | None]) -> dict[str, float]:
    return {name: tree_seconds(pid) for name, pid in roots.items()}


def delta(before: dict[str, float], after: dict[str, float]) -> dict[str, float]:
    return {name: round(max(0.0, after.get(name, 0.0) - before.get(name, 0.0)), 3) for name in before}


def postmaster_pid(data_dir: Path) -> int | None:
    try:
        return int((data_dir / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def find_process(program: str, *needles: str) -> int | None:
    """The first process running ``program`` whose command line holds every needle (the broker on our socket)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().decode(errors="replace").split("\0")
        except OSError:
            continue
        head = argv[0].split()[0] if argv and argv[0].strip() else ""  # a rewritten title is one string
        if Path(head).name == program and all(needle in " ".join(argv) for needle in needles):
            return int(entry.name)
    return None
