"""Render realistic mid-game tables of every game to HTML files and, with Chromium, to PNGs.

    DEBUG=1 .venv/bin/python -m tests.games.ui.screenshots /tmp/ui-shots [--lang ja]

Each page is the game's table and move form for the seat to move (site.css +
games.css, no server needed), in a state picked from a seeded bot game because
it shows much at once. PNGs are taken at 1280 and 360 px wide when a
``chromium`` binary is on the PATH.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mammamia.settings")
os.environ.setdefault("DEBUG", "1")

import django  # noqa: E402

django.setup()

from django.urls import set_urlconf  # noqa: E402
from django.utils import translation  # noqa: E402
from django.utils.html import escape  # noqa: E402

from games.engines import get_engine  # noqa: E402
from games.ui import describe_event, get_ui  # noqa: E402
from tests.games.ui.support import ROOT, bot_states, make_players, render  # noqa: E402

Pick = Callable[[dict[str, Any], Any], bool]


def mamma_mia_turn(state, engine) -> bool:
    seat = (engine.waiting_for(state) or [None])[0]
    return (
        state["phase"] == 1
        and state["round"] == 2
        and seat is not None
        and len(state["hands"][seat]["recipes"]) >= 2
        and sum(state["table"].values()) > 0
        and len(state["oven"]) >= 6
    )


def mamma_mia_decision(state, engine) -> bool:
    return state["phase"] == 2 and state["deciding"] is not None and sum(state["table"].values()) >= 4


def konamon_work(state, engine) -> bool:
    return state["phase"] == "act" and len(state["customers"]) >= 2 and state["round"] >= 3


def konamon_choose(state, engine) -> bool:
    return state["phase"] == "choose" and len(state["customers"]) >= 3


def marumiere_trick(state, engine) -> bool:
    return state["phase"] == "play" and len(state["trick"]) == 2 and state["last_trick"] is not None


def marumiere_pick(state, engine) -> bool:
    return state["phase"] == "pick" and state["round"] == 2 and len(state["piles"]) == 3


SCENES: list[tuple[str, str, int, Pick]] = [
    ("mamma-mia-turn", "mamma-mia", 4, mamma_mia_turn),
    ("mamma-mia-decision", "mamma-mia", 3, mamma_mia_decision),
    ("konamon-work", "konamon", 3, konamon_work),
    ("konamon-choose", "konamon", 2, konamon_choose),
    ("marumiere-trick", "marumiere", 4, marumiere_trick),
    ("marumiere-pick", "marumiere", 4, marumiere_pick),
]

PAGE = """<!doctype html><html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>{name}</title>
<link rel="stylesheet" href="{static}/css/site.css"><link rel="stylesheet" href="{static}/css/games.css"></head>
<body><header class="site-header"><nav class="nav"><a class="brand" href="#">mammamia</a></nav></header>
<main id="main">{table}{moves}
<section class="card game-log"><h2>Log</h2><ol class="log-lines">{log}</ol></section></main>
</body></html>"""


def find_state(slug: str, players: int, pick: Pick) -> dict[str, Any]:
    engine = get_engine(slug)
    for seed in range(40):
        for state in bot_states(slug, players=players, seed=seed):
            if pick(state, engine):
                return state
    raise LookupError(f"no bot game of {slug} reached the scene")


def render_scene(slug: str, players: int, state: dict[str, Any]) -> dict[str, str]:
    engine = get_engine(slug)
    ui = get_ui(slug)
    seat = (engine.waiting_for(state) or [0])[0]
    people = make_players(players)
    view = engine.view(state, seat)
    context = ui.page_context(view=view, legal_moves=engine.legal_moves(state, seat), seat=seat, players=people)
    log = "".join(f"<li>{describe_event(slug, event, people)}</li>" for event in view["log"][-12:])
    return {"table": render(slug, "table", context), "moves": render(slug, "moves", context), "log": log}


def screenshot(html: Path, png: Path, width: int) -> None:
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={profile}", f"--window-size={width},2600", f"--screenshot={png}", html.as_uri(),
            ],
            check=False, capture_output=True, timeout=120,
        )  # fmt: skip


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path)
    parser.add_argument("--lang", default="en")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    set_urlconf("tests.games.ui.urls")
    with translation.override(args.lang):
        for name, slug, players, pick in SCENES:
            parts = render_scene(slug, players, find_state(slug, players, pick))
            html = args.out / f"{name}.html"
            static = (ROOT / "static").as_uri()
            html.write_text(PAGE.format(lang=args.lang, name=escape(name), static=static, **parts), encoding="utf-8")
            for width in (1280, 360):
                screenshot(html, args.out / f"{name}-{width}.png", width)
            print(html)


if __name__ == "__main__":
    main(sys.argv[1:])
