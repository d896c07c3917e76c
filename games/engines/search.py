"""Bots with levels, and the search behind the strong one (issue 28).

    from games.engines import get_engine
    from games.engines.search import choose_move
    move = choose_move(engine, state, seat, "strong", seed=f"{game_seed}:{move_number}")

Three levels:

- ``easy``: today's heuristic, but now and then (``EASY_SLIP``) a beginner's slip: a legal move drawn at
  random. Both come from the seat's own position only.
- ``normal``: the engine's ``bot_move``, unchanged.
- ``strong``: single-observer Information-Set MCTS (Cowling, Powley & Whitehouse, IEEE TCIAIG 2012; the
  algorithm OpenSpiel's ``ismcts.py`` implements). Each iteration draws one full state consistent with the
  bot's view — the game's *sampler*, ``<game folder>/sampler.py: sample_state(view, seat, rng)`` — and walks
  one tree whose nodes are information sets: a node is keyed by what the seat to move may know
  (``engine.view`` of the drawn state for that seat), so the same node is reached whatever the hidden cards
  are, and a move is chosen among those legal in this drawing (UCB with availability counts). Below the
  tree the game is played out with ``bot_move`` (the heuristic is a far better rollout than random play in
  these games). Rewards are a seat's share of first place, plus a part for where its score stands.

It cannot peek: the search reads the real state only through ``engine.view(state, seat)``; everything it
plays on is drawn by the sampler from that view. Pure like the engines: no Django, no clock, no global
randomness; the budget is in iterations, and the seed (e.g. the game's seed and the move number) makes a
decision reproducible.

Simultaneous choices (Konamon!) are searched one seat after another on the drawn state; a seat's choice
made earlier in the same step is not in the next seat's view, so it is a hidden move to that seat.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from types import ModuleType
from typing import Any

from .base import Engine, Move, State, View

LEVELS = ("easy", "normal", "strong")
DEFAULT_BUDGET = 100  # iterations per strong decision: p95 under 1 s of one core (docs/adding-a-game.md "Search bots")
EASY_SLIP = 0.35  # how often the easy bot plays a random legal move instead of the heuristic
EXPLORATION = 0.7  # UCB constant; rewards lie in [0, 1]
WIN_WEIGHT = 0.6  # a playout's reward: this much for first place, the rest for the score's standing
WIDENING = 2.0  # a node tries at most WIDENING * sqrt(its visits) moves (progressive widening)
MAX_PLAYOUT_MOVES = 10_000  # the engines terminate; this only turns a broken engine into an error

Sampler = Callable[[View, int, random.Random], State]


def seeded_rng(*parts: Any) -> random.Random:
    """A ``random.Random`` of its own from any parts (game seed, move number, seat, level)."""
    digest = hashlib.sha256(":".join(str(part) for part in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def move_key(move: Move) -> str:
    """A move as a stable, hashable key (moves are JSON-ready dicts)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


def info_key(view: View) -> str:
    """An information set: everything its seat may know, as one string."""
    return hashlib.blake2b(move_key(view).encode(), digest_size=16).hexdigest()


def _sampler_module(engine: Engine) -> ModuleType | None:
    """The module ``sampler`` in the engine's package, or None (no package, or no such module)."""
    package = type(engine).__module__.rpartition(".")[0]
    if not package:
        return None
    name = f"{package}.sampler"
    try:
        return import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:  # the sampler exists but imports something missing: a real error
            raise
        return None


def sampler_for(engine: Engine) -> Sampler:
    """The game's sampler: ``sample_state`` of the module ``sampler`` beside the engine's module.

    A game gets strong bots by adding that one module (``docs/adding-a-game.md``, "Search bots").
    ``LookupError`` when the game has none.
    """
    module = _sampler_module(engine)
    if module is None:
        raise LookupError(f"{engine.name} has no sampler (a module sampler.py beside its engine)")
    return module.sample_state


def budget_for(engine: Engine) -> int:
    """The game's iterations per strong decision: its sampler module's ``BUDGET`` if set (chosen so that a
    decision stays under 1 s of one core at p95, ``bench/search_cpu.py``), else ``DEFAULT_BUDGET``."""
    module = _sampler_module(engine)
    return int(getattr(module, "BUDGET", DEFAULT_BUDGET))


def has_search(engine: Engine) -> bool:
    """Whether ``engine``'s game provides a sampler, so its bots may play ``strong``."""
    try:
        sampler_for(engine)
    except LookupError:
        return False
    return True


def reward(engine: Engine, state: State, players: int) -> list[float]:
    """Per seat, in [0, 1]: mostly its share of first place (ties share), partly where its score lies between
    the lowest and the highest. The score part gives a long game's playouts a signal a win alone is too
    rare to give with a small budget."""
    outcome = engine.outcome(state)
    firsts = sum(1 for row in outcome if row["rank"] == 1)
    low = min(row["score"] for row in outcome)
    spread = max(row["score"] for row in outcome) - low
    values = [0.0] * players
    for row in outcome:
        share = 1.0 / firsts if row["rank"] == 1 else 0.0
        standing = (row["score"] - low) / spread if spread else 0.5
        values[row["seat"]] = WIN_WEIGHT * share + (1 - WIN_WEIGHT) * standing
    return values


@dataclass
class _Child:
    visits: int = 0
    total: float = 0.0
    available: int = 0  # times this move was legal when its node was visited (availability count)


@dataclass
class _Node:
    visits: int = 0
    children: dict[str, _Child] = field(default_factory=dict)


def _select(node: _Node, moves: dict[str, Move], rng: random.Random, heuristic: Callable[[], str]) -> tuple[str, bool]:
    """The move to follow from ``node`` among ``moves`` (legal in this drawing); whether it is new.

    Progressive widening: a node tries at most ``WIDENING * sqrt(visits)`` moves, the heuristic's first,
    so where a seat has many moves (a number to guess, cards to choose) the budget deepens the promising
    few instead of trying each once.
    """
    for child in (node.children.get(key) for key in moves):
        if child is not None:
            child.available += 1
    tried = [key for key in moves if key in node.children]
    if len(tried) < len(moves) and len(tried) < WIDENING * math.sqrt(node.visits + 1):
        key = heuristic()
        if key in node.children or key not in moves:
            key = rng.choice([key for key in moves if key not in node.children])
        node.children[key] = _Child(available=1)
        return key, True
    best_key, best_value = "", -math.inf
    for key in tried:
        child = node.children[key]
        value = child.total / child.visits + EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
        if value > best_value:
            best_key, best_value = key, value
    return best_key, False


def _heuristic_key(engine: Engine, state: State, mover: int) -> str:
    """The key of the heuristic's move here: the first move a node tries."""
    return move_key(engine.bot_move(state, mover))


def _playout(engine: Engine, state: State) -> State:
    """The drawn game played to its end by the heuristic."""
    for _ in range(MAX_PLAYOUT_MOVES):
        if engine.is_over(state):
            return state
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, engine.bot_move(state, seat))
    raise RuntimeError(f"{engine.name}: no end after {MAX_PLAYOUT_MOVES} moves")


@dataclass
class RootStats:
    """What a search learnt about the seat's own decision: each root move's visits and mean reward."""

    moves: dict[str, Move]
    children: dict[str, _Child]
    forced: Move | None = None  # the only legal move: nothing was searched
    heuristic: str | None = None  # the key of the heuristic's move at the root (bot_move on the first drawing)

    def mean(self, key: str) -> float:
        child = self.children[key]
        return child.total / max(1, child.visits)

    def best_key(self) -> str:
        """The most visited move, the usual robust final choice; ties go to the better mean, then the key."""
        return max(self.children, key=lambda key: (self.children[key].visits, self.mean(key), key))


def search_root(
    engine: Engine,
    view: View,
    seat: int,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    sampler: Sampler | None = None,
    search_others: bool = True,
    include: str | None = None,
) -> RootStats:
    """Single-observer ISMCTS for ``seat`` from its ``view`` alone, ``budget`` iterations; the root's statistics.

    ``search_others``: the other seats' decisions are nodes of the tree too (each searched from what that seat
    may know); False: the others play the game's heuristic (``bot_move``) in the tree as in the playouts, an
    opponent model that spends the whole budget on the bot's own decisions (the game's sampler module says
    which, ``SEARCH_OTHERS``). ``include``: the key of a root move that is tried first whenever legal (a
    review's played move, so that it gets an estimate of its own).
    """
    sample = sampler or sampler_for(engine)
    root = _Node()  # the seat's own information set: one node whatever was drawn
    tree: dict[str, _Node] = {}
    root_moves: dict[str, Move] = {}
    root_heuristic: str | None = None
    for _ in range(max(1, budget)):
        state = sample(view, seat, rng)
        if root_heuristic is None and not engine.is_over(state):
            # on a drawing, like every node's first move: nothing hidden is read
            root_heuristic = _heuristic_key(engine, state, seat)
        path: list[tuple[_Node, str, int]] = []
        expanded = False
        first = True  # the bot's own decision, the root
        while not engine.is_over(state):
            waiting = engine.waiting_for(state)
            # At the root the bot chooses first, also among simultaneous choosers: the others then choose
            # without seeing its choice, as at the table.
            mover = seat if first else waiting[0]
            legal = engine.legal_moves(state, mover)
            moves = {move_key(move): move for move in legal}
            if first:
                if not moves:
                    raise ValueError(f"seat {seat} has no move to choose")
                root_moves.update(moves)
                if len(moves) == 1:  # the bot's move is forced: nothing to search
                    return RootStats(root_moves, root.children, forced=legal[0], heuristic=root_heuristic)
            if len(moves) == 1:  # forced: no decision to learn, no node
                state = engine.play(state, mover, legal[0])
                continue
            if not first and mover != seat and not search_others:
                state = engine.play(state, mover, engine.bot_move(state, mover))
                continue
            if expanded:
                break
            node = root if first else tree.setdefault(info_key(engine.view(state, mover)), _Node())
            heuristic = functools.partial(_heuristic_key, engine, state, mover)
            if first and include in moves and include not in root.children:
                heuristic = functools.partial(lambda key: key, include)
            first = False
            key, expanded = _select(node, moves, rng, heuristic)
            path.append((node, key, mover))
            state = engine.play(state, mover, moves[key])
        values = reward(engine, _playout(engine, state), len(view["scores"]))
        for node, key, mover in path:
            node.visits += 1
            child = node.children[key]
            child.visits += 1
            child.total += values[mover]
    return RootStats(root_moves, root.children, heuristic=root_heuristic)


def ismcts_move(
    engine: Engine,
    view: View,
    seat: int,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    sampler: Sampler | None = None,
    search_others: bool = True,
    margin: float = 0.0,
) -> Move:
    """The move of single-observer ISMCTS for ``seat`` from its ``view`` alone, after ``budget`` iterations.

    ``margin``: the search's favourite replaces the heuristic's move only if its mean reward is higher by at
    least this much (0: always the favourite). Where a seat has many moves and the budget is small, each move
    gets a few noisy playouts, and a favourite that is merely lucky plays worse than the heuristic."""
    stats = search_root(engine, view, seat, rng, budget, sampler, search_others)
    if stats.forced is not None:
        return stats.forced
    if not stats.children:
        return next(iter(stats.moves.values()))
    best = stats.best_key()
    heuristic = stats.heuristic
    close = heuristic in stats.children and stats.mean(best) - stats.mean(heuristic) < margin
    if margin and best != heuristic and close:
        return stats.moves[heuristic]
    return stats.moves[best]


def margin_for(engine: Engine) -> float:
    """The game's ``ROOT_MARGIN`` (its sampler module; default 0): see ``ismcts_move``."""
    return float(getattr(_sampler_module(engine), "ROOT_MARGIN", 0.0))


def search_others_for(engine: Engine) -> bool:
    """Whether the game's search trees hold the other seats' decisions (its sampler module's ``SEARCH_OTHERS``,
    default True) or model the others by the heuristic."""
    return bool(getattr(_sampler_module(engine), "SEARCH_OTHERS", True))


def easy_move(engine: Engine, state: State, seat: int, rng: random.Random) -> Move:
    """A beginner: usually the heuristic, now and then a random legal move. Needs nothing hidden: the legal
    moves and ``bot_move`` are the seat's own."""
    moves = engine.legal_moves(state, seat)
    if len(moves) > 1 and rng.random() < EASY_SLIP:
        return rng.choice(moves)
    return engine.bot_move(state, seat)


def choose_move(
    engine: Engine,
    state: State,
    seat: int,
    level: str,
    seed: Any,
    budget: int | None = None,
) -> Move:
    """The move of a bot of ``level`` for ``seat``; the same arguments always give the same move.

    ``budget``: iterations of the strong bot's search; by default the game's (``budget_for``).

    ``seed`` should change with every decision (the game's seed and the move number). ``strong`` falls back
    to ``normal`` for a game without a sampler. ``ValueError`` for an unknown level.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; one of {', '.join(LEVELS)}")
    rng = seeded_rng(seed, seat, level)
    if level == "easy":
        return easy_move(engine, state, seat, rng)
    if level == "strong" and has_search(engine):
        moves = engine.legal_moves(state, seat)
        if len(moves) == 1:
            return moves[0]
        iterations = budget if budget is not None else budget_for(engine)
        return ismcts_move(
            engine,
            engine.view(state, seat),
            seat,
            rng,
            iterations,
            search_others=search_others_for(engine),
            margin=margin_for(engine),
        )
    return engine.bot_move(state, seat)
