"""A game's tutorial script (``<game folder>/tutorial.json``) and where a tutorial stands: pure, no Django.

The script is data the game brings beside its ``data.json``::

    {
      "players": 3, "seed": 168, "options": {},
      "moves": [[seat, move], ...],          # every move of the scripted deal, in order (bots' and the player's)
      "steps": [
        {"point": "[data-tutorial=oven]", "text": {"en": "...", "ja": "...", "zh-hant": "...", "fr": "..."}},
        {"move": 4, "point": "...", "text": {...}},
        {"after": 6, "point": "...", "text": {...}},   # shown once 6 moves are played
        ...
      ],
      "end": {"en": "...", ...}
    }

The player sits in the seat the seed gives the first to join (``player_seat``). A step without ``move`` is read
and passed with "Next" (once ``after`` moves are played, when it talks about what the others did); a step with
``move`` asks for the player's move at that index of ``moves`` (every move of the player's seat before the last
step has its own step). ``point`` is a CSS selector of the part of the
table the step talks about. Bots play the scripted moves; after the script, the game goes on as any other.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from games.seating import seat_order

FILE_NAME = "tutorial.json"
LANGUAGES = ("en", "ja", "zh-hant", "fr")


class ScriptError(ValueError):
    """A tutorial.json that the platform cannot run."""


@dataclass(frozen=True)
class Step:
    number: int  # 0-based position among the steps
    point: str
    text: Mapping[str, str]
    move: int | None = None  # index in the script's moves of the move this step asks for
    after: int = 0  # shown once this many moves are played (a reading step about what the others just did)

    @property
    def asks_move(self) -> bool:
        return self.move is not None


@dataclass(frozen=True)
class Script:
    players: int
    seed: int
    options: Mapping[str, Any]
    moves: tuple[tuple[int, dict[str, Any]], ...]
    steps: tuple[Step, ...]
    end: Mapping[str, str]

    @property
    def player_seat(self) -> int:
        """The seat of the player (the first to join): the seat the seed's draw gives join position 0."""
        return seat_order(self.seed, self.players).index(0)

    def scripted_move(self, position: int, seat: int) -> dict[str, Any] | None:
        """The script's move for ``seat`` when ``position`` moves have been played; ``None`` past the script or
        when the script has another seat move there."""
        if 0 <= position < len(self.moves) and self.moves[position][0] == seat:
            return self.moves[position][1]
        return None

    def step_asking(self, position: int) -> Step | None:
        """The step that asks for the move at ``position``, if any."""
        return next((step for step in self.steps if step.move == position), None)


def text_in(texts: Mapping[str, str], language: str | None) -> str:
    """The text in ``language`` ("zh-hant", "ja-jp"...), English when the script lacks it."""
    language = (language or "en").lower()
    return texts.get(language) or texts.get(language.split("-")[0]) or texts.get("en", "")


def load(folder: str | Path) -> Script | None:
    """The script in ``folder``'s tutorial.json, ``None`` when the game brings none; ``ScriptError`` if broken."""
    path = Path(folder) / FILE_NAME
    if not path.exists():
        return None
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ScriptError(f"{path}: {exc}") from exc
    return parse(raw, where=str(path))


def parse(raw: Any, *, where: str = "tutorial.json") -> Script:
    """A ``Script`` from the decoded JSON; ``ScriptError`` naming what is wrong."""

    def fail(message: str) -> ScriptError:
        return ScriptError(f"{where}: {message}")

    if not isinstance(raw, dict):
        raise fail("not an object")
    players, seed = raw.get("players"), raw.get("seed")
    if not isinstance(players, int) or not isinstance(seed, int):
        raise fail("players and seed must be whole numbers")
    moves = raw.get("moves")
    if not isinstance(moves, list) or not all(
        isinstance(m, list) and len(m) == 2 and isinstance(m[0], int) and isinstance(m[1], dict) for m in moves
    ):
        raise fail("moves must be a list of [seat, move]")
    steps = []
    for number, item in enumerate(raw.get("steps") or []):
        if not isinstance(item, dict) or not isinstance(item.get("point"), str):
            raise fail(f"step {number + 1} needs a point")
        move = item.get("move")
        if move is not None and not (isinstance(move, int) and 0 <= move < len(moves)):
            raise fail(f"step {number + 1}: move {move!r} is not an index of moves")
        after = item.get("after", 0)
        if not isinstance(after, int) or not 0 <= after <= len(moves):
            raise fail(f"step {number + 1}: after {after!r} is not a position of the script")
        steps.append(
            Step(number=number, point=item["point"], text=_texts(item.get("text"), fail), move=move, after=after)
        )
    if not steps:
        raise fail("no steps")
    script = Script(
        players=players,
        seed=seed,
        options=dict(raw.get("options") or {}),
        moves=tuple((seat, move) for seat, move in moves),
        steps=tuple(steps),
        end=_texts(raw.get("end"), fail),
    )
    asked = [step.move for step in script.steps if step.move is not None]
    if asked != sorted(set(asked)):
        raise fail("the steps must ask for moves in order, each once")
    seat = script.player_seat
    for index in asked:
        if script.moves[index][0] != seat:
            raise fail(f"move {index} is not the player's (seat {seat})")
    last = asked[-1] if asked else -1
    missing = [i for i, (s, _) in enumerate(script.moves[: last + 1]) if s == seat and i not in asked]
    if missing:
        raise fail(f"the player's moves {missing} have no step")
    return script


def _texts(value: Any, fail) -> dict[str, str]:
    if not isinstance(value, dict) or not all(isinstance(value.get(lang), str) and value[lang] for lang in LANGUAGES):
        raise fail(f"every text needs {', '.join(LANGUAGES)}")
    return {lang: value[lang] for lang in LANGUAGES}


@dataclass(frozen=True)
class Progress:
    """Where the tutorial stands for the player: the step to show (``None`` once every step is done)."""

    step: Step | None
    waiting: bool  # the step asks for a move the others must reach first (the bots are playing)
    done: int  # steps behind the player
    total: int

    @property
    def finished(self) -> bool:
        return self.step is None


def progress(script: Script, *, position: int, read: int) -> Progress:
    """The step to show when ``position`` moves have been played and the player has passed ``read`` steps
    with "Next". A move step is done once its move is played; a reading step once passed, or once a later
    move step is done (the player moved on without pressing "Next")."""
    steps = script.steps
    last_done_move = max((s.number for s in steps if s.move is not None and s.move < position), default=-1)
    for step in steps:
        passed = step.number < read or step.number < last_done_move
        done = step.move < position if step.move is not None else passed
        if not done:
            waiting = position < step.after or (step.move is not None and step.move > position)
            return Progress(step=step, waiting=waiting, done=step.number, total=len(steps))
    return Progress(step=None, waiting=False, done=len(steps), total=len(steps))
