"""Shared helpers for the game UI tests: seeded bot games, a template engine, form simulation."""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Iterator
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from django.template import Context, Engine

from games.engines import get_engine
from games.registry import all_games
from games.ui import get_ui

ROOT = Path(__file__).resolve().parents[3]
# The platform's partial, faked so these tests do not depend on it (and see exactly what we render).
FAKE_PARTIALS = {
    "games/_move_hidden_fields.html": '<input type="hidden" name="csrfmiddlewaretoken" value="x">'
    '<input type="hidden" name="version" value="7"><input type="hidden" name="idempotency_key" value="k">',
}
PLATFORM_FIELDS = {"csrfmiddlewaretoken", "version", "idempotency_key"}
COLOURS = ["green", "red", "yellow", "purple", "brown"]


@cache
def template_engine() -> Engine:
    return Engine(
        dirs=[str(ROOT / "templates"), *(str(Path(game.path) / "templates") for game in all_games())],
        loaders=[("django.template.loaders.locmem.Loader", FAKE_PARTIALS), "django.template.loaders.filesystem.Loader"],
        libraries={
            "i18n": "django.templatetags.i18n",
            "games_tags": "games.templatetags.games_tags",
            "static": "django.templatetags.static",
            "konamon_cards": "konamon.templatetags.konamon_cards",
            "mamma_mia_cards": "mamma_mia.templatetags.mamma_mia_cards",
            "marumiere_cards": "marumiere.templatetags.marumiere_cards",
        },
        string_if_invalid="",
        debug=True,
    )


def make_players(count: int) -> list[dict[str, Any]]:
    names = ["Alice", "Bob <b>", "Chiyo", "Dmitri", "Émile"]
    return [
        {
            "seat": seat,
            "name": names[seat],
            "is_bot": seat == 2,
            "colour": COLOURS[seat],
            "user_id": seat + 10,
            "dropped_out": False,
            "away": seat == 3,
        }
        for seat in range(count)
    ]


def render(slug: str, which: str, context: dict[str, Any]) -> str:
    ui = get_ui(slug)
    name = {"table": ui.table_template, "moves": ui.moves_template, "revealed": ui.revealed_template}[which]
    full = {"game": SimpleNamespace(id=42), **context}
    return template_engine().get_template(name).render(Context(full))


def bot_states(
    slug: str, *, players: int, seed: int, options: dict | None = None, max_moves: int = 5000, every: int = 1
) -> Iterator[dict[str, Any]]:
    """States along a seeded bot game, every ``every`` moves, ending with the final one."""
    engine = get_engine(slug)
    state = engine.setup(players=players, seed=seed, options=options)
    yield state
    for index in range(max_moves):
        waiting = engine.waiting_for(state)
        if not waiting:
            return
        seat = waiting[index % len(waiting)]
        state = engine.play(state, seat, engine.bot_move(state, seat))
        if index % every == 0 or engine.is_over(state):
            yield state


def final_state(slug: str, *, players: int, seed: int, options: dict | None = None) -> dict[str, Any]:
    """The last state of a seeded bot game played to its end."""
    return deque(bot_states(slug, players=players, seed=seed, options=options, max_moves=5000, every=10**9), maxlen=1)[
        0
    ]


class FormCollector(HTMLParser):
    """Every move form in rendered HTML: its fields and its submit buttons, as a browser sees them."""

    def __init__(self) -> None:
        super().__init__()
        self.forms: list[dict[str, Any]] = []
        self.current: dict[str, Any] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: (v if v is not None else "") for k, v in attrs}
        if tag == "form":
            self.current = {"action": a.get("action"), "fields": [], "buttons": []}
            self.forms.append(self.current)
        elif self.current is None:
            return
        elif tag == "input":
            self.current["fields"].append(a)
        elif tag == "button":
            self.current["buttons"].append(a)
        elif tag in ("select", "textarea"):
            raise AssertionError(f"unexpected <{tag}> in a move form")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self.current = None


def forms_in(html: str) -> list[dict[str, Any]]:
    parser = FormCollector()
    parser.feed(html)
    return parser.forms


def possible_posts(form: dict[str, Any]) -> Iterator[dict[str, str]]:
    """Every POST a person could send with this form: each submit button × each radio choice per group."""
    fixed: dict[str, str] = {}
    radios: dict[str, list[str]] = {}
    for field in form["fields"]:
        kind = field.get("type", "text")
        if kind == "radio":
            radios.setdefault(field["name"], []).append(field.get("value", "on"))
        elif kind == "hidden":
            fixed[field["name"]] = field.get("value", "")
        else:
            raise AssertionError(f"unexpected input type {kind!r}")
    buttons = form["buttons"] or [{}]
    combos: list[dict[str, str]] = [{}]
    for name, values in radios.items():
        combos = [{**combo, name: value} for combo in combos for value in values]
    for button in buttons:
        extra = {button["name"]: button.get("value", "")} if button.get("name") else {}
        for combo in combos:
            yield {**fixed, **combo, **extra}


def canonical(move: dict[str, Any]) -> str:
    return json.dumps(move, sort_keys=True)
