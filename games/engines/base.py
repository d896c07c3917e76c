"""The protocol every engine speaks, and the small helpers they share."""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any

State = dict[str, Any]
Move = dict[str, Any]
View = dict[str, Any]


class IllegalMove(ValueError):
    """A move that is not legal for that seat now.

    ``message`` is plain English a player can read; ``code`` and ``params``
    let the platform show the same message in the reader's language
    (``games/engine_messages.py`` maps codes to translatable strings).
    """

    def __init__(self, message: str, *, code: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.params = params


class Engine:
    """Base class of the engines; see ``shared/rules/ENGINE.md``."""

    slug: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 2
    options: dict[str, list[Any]] = {}
    # A hint for the platform's speed, not part of the protocol in ENGINE.md. True promises that
    # ``view(state, seat)["log"]`` is ``state["log"]`` filtered (and copied) event by event, each
    # event kept or dropped on its own, and that nothing else in the view reads ``state["log"]``.
    # ``play`` only ever appends to the log, so a move's new events for a viewer are then the log
    # of ``view({**state, "log": <the appended events>}, seat)``: the platform computes those
    # instead of every viewer's whole log on every move (which grew with the game). False (the
    # safe default) when a viewer's log depends on other events or on the rest of the state,
    # as Mamma Mia!'s ``memory`` option hides older announcements.
    per_event_log: bool = False

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """A new state for ``players`` seats, all randomness drawn from ``seed``."""
        raise NotImplementedError

    def waiting_for(self, state: State) -> list[int]:
        """The seats whose move the game awaits now, ascending; ``[]`` once over."""
        raise NotImplementedError

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every distinct legal move of ``seat`` now; ``[]`` when not awaited."""
        raise NotImplementedError

    def play(self, state: State, seat: int, move: Move) -> State:
        """The next state; raises ``IllegalMove``; never changes ``state``."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> View:
        """Everything ``seat`` may know and nothing more (``None``: a spectator)."""
        raise NotImplementedError

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""
        raise NotImplementedError

    def outcome(self, state: State) -> list[dict[str, int]]:
        """Once over: ``[{"seat", "rank", "score"}, ...]`` for every seat."""
        raise NotImplementedError

    def sealed_choices(self, log: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The commitments in a log (a view's or the whole game's), oldest first, each
        ``{"round", "seat", "kind", "commitment", "salt", "choice"}``; ``salt`` and ``choice`` are ``None`` until
        the log holds the reveal. Only games dealt with ``sealed`` have any (``games.engines.sealing``)."""
        return []

    def bot_move(self, state: State, seat: int) -> Move:
        """A sensible legal move for ``seat``, deterministic for a given state."""
        raise NotImplementedError

    # Shared helpers -------------------------------------------------------

    def check_options(
        self, options: dict[str, Any] | None, *, extra: tuple[str, ...] = ("deal", "sealed")
    ) -> dict[str, Any]:
        """Options with defaults filled in; ``ValueError`` for unknown names or values.

        Names in ``extra`` (the stacked ``deal``; ``sealed``, set by the site, never chosen by a player:
        commitments to secret choices in the log, ``games.engines.sealing``) are passed through for the
        engine to read itself.
        """
        options = dict(options or {})
        resolved: dict[str, Any] = {}
        for name, value in options.items():
            if name in extra:
                resolved[name] = value
                continue
            if name not in self.options:
                raise ValueError(f"unknown option {name!r}")
            if value not in self.options[name]:
                raise ValueError(f"option {name!r} does not allow {value!r}")
            resolved[name] = value
        for name, allowed in self.options.items():
            resolved.setdefault(name, allowed[0])
        return resolved

    def check_players(self, players: Any) -> int:
        """``players`` if it is within bounds, else ``ValueError``."""
        if not isinstance(players, int) or isinstance(players, bool):
            raise ValueError("players must be an integer")
        if not self.min_players <= players <= self.max_players:
            raise ValueError(f"{self.name} takes {self.min_players} to {self.max_players} players")
        return players


def next_rng(state: State) -> random.Random:
    """A fresh ``random.Random`` derived from the state's seed and draw counter.

    The counter lives in ``state["rng"]`` (an int), so a state that went through
    ``json.dumps``/``json.loads`` draws exactly the same numbers; every call
    advances it. ``state["seed"]`` must hold the game's seed.
    """
    counter = state.get("rng", 0)
    state["rng"] = counter + 1
    digest = hashlib.sha256(f"{state['seed']}:{counter}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def labelled_rng(seed: Any, label: str) -> random.Random:
    """A ``random.Random`` derived from the game's seed and a label alone, apart from ``next_rng``'s
    counter: for draws tied to a fixed point of the game (e.g. a round) that must not shift the
    counter's later draws."""
    digest = hashlib.sha256(f"{seed}:{label}".encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def copy_state(state: State) -> State:
    """A deep copy, so ``play`` never changes its input."""
    return copy.deepcopy(state)


def rank_by(keys: list[tuple]) -> list[int]:
    """1-based ranks for per-seat sort keys (higher is better); ties share a rank."""
    ranks = []
    for key in keys:
        ranks.append(1 + sum(1 for other in keys if other > key))
    return ranks
