"""Flame graphs (SVG) from py-spy's collapsed stacks, with no tool beyond Python (issue 33: a flame graph per request
kind in ``bench/out/``).

A collapsed stack is ``frame;frame;...;frame COUNT`` per line, root first. The graph stacks each frame on its
caller, its width its share of the samples; frames are merged per function (``name (path)``, whatever line ran),
and the worker processes py-spy sampled (its ``process N: ...`` root frames) into one graph.
Open the SVG in a browser: each frame's title (hover) gives its samples and share.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

WIDTH = 1200.0
ROW = 16
MIN_WIDTH = 0.5  # narrower frames are left out (their samples still count in their callers')


def function_of(frame: str) -> str:
    """``name (path:line)`` -> ``name (path)``: one entry per function, whatever line was running."""
    head, sep, location = frame.rpartition(" (")
    return f"{head} ({location.rsplit(':', 1)[0]})" if sep and ":" in location else frame


def parse(lines: list[str]) -> dict:
    """The call tree of collapsed stacks: ``{"n": samples, "children": {frame: subtree}}``."""
    root: dict = {"n": 0, "children": {}}
    for line in lines:
        stack, _, count = line.rstrip().rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        root["n"] += n
        node = root
        frames = stack.split(";")
        if frames[0].startswith("process "):  # py-spy --subprocesses: every worker process merged into one graph
            frames = frames[1:]
        for frame in frames:
            node = node["children"].setdefault(function_of(frame), {"n": 0, "children": {}})
            node["n"] += n
    return root


def _colour(name: str) -> str:
    """Warm colours, the site's own code redder (py-spy's paths are relative to the tree for it)."""
    seed = sum(name.encode()) % 60
    ours = "site-packages" not in name and "/lib/python" not in name and "<" not in name
    return f"rgb({225 + seed % 30},{80 + seed if ours else 140 + seed},{40 + seed // 2})"


def render(lines: list[str], title: str) -> str:
    """An SVG flame graph of ``lines`` (collapsed stacks)."""
    root = parse(lines)
    total = root["n"] or 1
    rects: list[str] = []
    depth_max = 0

    def walk(node: dict, x: float, depth: int) -> None:
        nonlocal depth_max
        for name, child in sorted(node["children"].items()):
            width = WIDTH * child["n"] / total
            if width >= MIN_WIDTH:
                depth_max = max(depth_max, depth)
                rects.append((x, depth, width, name, child["n"]))
                walk(child, x, depth + 1)
            x += width

    walk(root, 0.0, 0)
    height = (depth_max + 1) * ROW + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0f}" height="{height}" '
           f'font-family="monospace" font-size="11">',
           f'<text x="4" y="16" font-size="14">{escape(title)} ({root["n"]} samples)</text>']
    for x, depth, width, name, n in rects:
        y = height - (depth + 1) * ROW
        label = escape(name)
        out.append(f'<g><title>{label}: {n} samples, {100 * n / total:.1f} %</title>'
                   f'<rect x="{x:.2f}" y="{y}" width="{width:.2f}" height="{ROW - 1}" fill="{_colour(name)}"/>')
        chars = int(width / 7)
        if chars >= 3:
            text = name if len(name) <= chars else name[: chars - 2] + ".."
            out.append(f'<text x="{x + 2:.2f}" y="{y + ROW - 4}">{escape(text)}</text>')
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_svgs(directory: Path, stem: str) -> list[Path]:
    """``<stem>.svg`` and ``<stem>-<kind>.svg`` beside each collapsed-stack file of that name; their paths."""
    written = []
    for source in sorted([directory / f"{stem}.txt", *directory.glob(f"{stem}-*.txt")]):
        try:
            lines = source.read_text().splitlines()
        except OSError:
            continue
        target = source.with_suffix(".svg")
        target.write_text(render(lines, source.stem))
        written.append(target)
    return written
