"""Bots with levels, and the search behind the strong one (issue 28).

    from games.engines import get_engine
    from games.engines.search import choose_move
    move = choose_move(engine, state, seat, "strong", seed=f"{game_seed}:{move_number}")

Three levels:

- ``easy``: today's heuristic, but now and then (``EASY_SLIP``) a beginner's slip: a legal move drawn at
  random. Both come from the seat's own position only.
- ``normal``: the engine's ``bot_move``, unchanged.
- ``strong``: determinized search with paired drawings (``paired_search``): each drawing is one full state
  consistent with the bot's view — the game's *sampler*, ``<game folder>/sampler.py: sample_state(view, seat,
  rng)`` — every candidate move is played on the same drawings and the game then played out by the heuristic
  (``bot_move``) for every seat; sequential halving drops the worse half of the candidates round by round;
  the favourite replaces the heuristic's move only if it is ahead by more than ``CONFIDENCE`` standard errors
  of the paired difference (``heuristic_or_better``). Rewards are a seat's share of first place, plus a part
  for where its score stands. Reviews (``games.engines.review``) run the same search.

The first version's single-observer Information-Set MCTS (Cowling, Powley & Whitehouse, IEEE TCIAIG 2012;
OpenSpiel's ``ismcts.py``: one tree of information sets, UCB with availability counts, heuristic playouts)
lost to the heuristic at the budgets a decision can afford — each of dozens of moves got a few unpaired, noisy
playouts — and was replaced by this search (issue 28's note has the figures; git history has the code).

It cannot peek: the search reads the real state only through ``engine.view(state, seat)``; everything it
plays on is drawn by the sampler from that view. Pure like the engines: no Django, no clock, no global
randomness; the budget is in iterations, and the seed (e.g. the game's seed and the move number) makes a
decision reproducible.

Simultaneous choices (Konamon!): the bot's own choice is played on the drawn state (where the sampler has
drawn the choices the others already made, unseen), and the others still to choose do so in the playout
from their own views, which do not show it: a hidden move to them, as at the table.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from types import ModuleType
from typing import Any

from .base import Engine, Move, State, View

LEVELS = ("easy", "normal", "strong")
DEFAULT_BUDGET = 100  # playouts per strong decision: p95 under 1 s of one core (docs/adding-a-game.md, search bots)
EASY_SLIP = 0.35  # how often the easy bot plays a random legal move instead of the heuristic
WIN_WEIGHT = 0.6  # a playout's reward: this much for first place, the rest for the score's standing
CONFIDENCE = 1.0  # standard errors by which the strong bot's favourite must beat the heuristic's move
MAX_PLAYOUT_MOVES = 10_000  # the engines terminate; this only turns a broken engine into an error

Sampler = Callable[[View, int, random.Random], State]


def seeded_rng(*parts: Any) -> random.Random:
    """A ``random.Random`` of its own from any parts (game seed, move number, seat, level)."""
    digest = hashlib.sha256(":".join(str(part) for part in parts).encode()).digest()
    return random.Random(int.from_bytes(digest[:16], "big"))


def move_key(move: Move) -> str:
    """A move as a stable, hashable key (moves are JSON-ready dicts)."""
    return json.dumps(move, sort_keys=True, separators=(",", ":"))


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
    """The game's playouts per strong decision: its sampler module's ``BUDGET`` if set (chosen so that a
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


def _heuristic_key(engine: Engine, state: State, mover: int) -> str:
    """The key of the heuristic's move here: the move every other is compared with."""
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
class PairedStats:
    """What a paired search learnt: per candidate, its reward on each determinization it was played on (the
    same determinizations, in the same order, for every candidate), the heuristic's key and the favourite."""

    moves: dict[str, Move]
    rewards: dict[str, list[float]]
    heuristic: str
    forced: Move | None = None

    def mean(self, key: str) -> float:
        values = self.rewards[key]
        return sum(values) / len(values) if values else 0.0

    def favourite(self) -> str:
        """The best mean among the candidates evaluated longest (the last halving's survivors)."""
        most = max(len(values) for values in self.rewards.values())
        finalists = [key for key, values in self.rewards.items() if len(values) == most]
        return max(finalists, key=lambda key: (self.mean(key), key == self.heuristic, key))

    def gain(self, key: str, over: str) -> tuple[float, float]:
        """The mean of ``key``'s reward less ``over``'s on the determinizations both were played on, and that
        mean's standard error (a paired comparison: the deal's luck cancels out)."""
        count = min(len(self.rewards[key]), len(self.rewards[over]))
        gains = [a - b for a, b in zip(self.rewards[key][:count], self.rewards[over][:count], strict=True)]
        if count < 2:
            return (gains[0] if gains else 0.0), math.inf
        mean = sum(gains) / count
        variance = sum((gain - mean) ** 2 for gain in gains) / (count - 1)
        return mean, math.sqrt(variance / count)


def paired_search(
    engine: Engine,
    view: View,
    seat: int,
    rng: random.Random,
    budget: int = DEFAULT_BUDGET,
    sampler: Sampler | None = None,
    keep: str | None = None,
) -> PairedStats:
    """Determinized search with common deals and sequential halving, ``budget`` playouts from ``view`` alone.

    Each determinization is one state drawn by the game's sampler from the seat's view; every candidate move
    is played on the *same* determinizations and the game then played out by the heuristic (``bot_move``) for
    every seat — the opponent model, and a far better rollout than random play. A drawn state carries its own
    seed, so a playout is a function of the drawing and the move: comparing two moves over the same drawings
    cancels the luck of the deal, which otherwise drowns the difference between moves at any budget a
    decision can afford (common random numbers). Sequential halving (Karnin, Koren & Somekh, ICML 2013)
    spends the budget in rounds: each round the surviving candidates are played on more drawings and the
    worse half is dropped, so where a seat has dozens of moves the budget goes to the promising few.
    The heuristic's move is never dropped: the final choice is compared with it (``heuristic_or_better``);
    nor is ``keep``, the key of another move to be compared with the favourite (a review's played move).
    """
    sample = sampler or sampler_for(engine)
    first = sample(view, seat, rng)
    legal = engine.legal_moves(first, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to choose")
    moves = {move_key(move): move for move in legal}
    heuristic = _heuristic_key(engine, first, seat)
    if len(moves) == 1:
        return PairedStats(moves, {heuristic: []}, heuristic, forced=legal[0])
    drawings = [first]
    rewards: dict[str, list[float]] = {key: [] for key in moves}
    players = len(view["scores"])

    def evaluate(key: str, upto: int) -> None:
        while len(drawings) < upto:
            drawings.append(sample(view, seat, rng))
        done = rewards[key]
        for drawing in drawings[len(done) : upto]:
            done.append(reward(engine, _playout(engine, engine.play(drawing, seat, moves[key])), players)[seat])

    alive = list(moves)
    rounds = max(1, math.ceil(math.log2(len(alive))))
    spent = 0
    depth = 0
    for round_number in range(rounds):
        share = (budget - spent) // (rounds - round_number)
        depth += max(1, share // len(alive))
        for key in alive:
            before = len(rewards[key])
            evaluate(key, depth)
            spent += len(rewards[key]) - before
        if len(alive) <= 2:
            continue
        alive.sort(key=lambda key: (sum(rewards[key]) / len(rewards[key]), key == heuristic), reverse=True)
        survivors = alive[: max(2, math.ceil(len(alive) / 2))]
        survivors += [key for key in (heuristic, keep) if key in moves and key not in survivors]
        alive = survivors
    return PairedStats(moves, rewards, heuristic)


def heuristic_or_better(stats: PairedStats, confidence: float) -> Move:
    """The search's favourite if it beats the heuristic's move by more than ``confidence`` standard errors of
    the paired difference; else the heuristic's move. Picking the best of many noisy estimates favours a lucky
    one (the winner's curse); a favourite that is not clearly better plays no better than the heuristic."""
    if stats.forced is not None:
        return stats.forced
    best = stats.favourite()
    if best == stats.heuristic:
        return stats.moves[best]
    gain, error = stats.gain(best, stats.heuristic)
    return stats.moves[best] if gain > 0 and gain > confidence * error else stats.moves[stats.heuristic]


def confidence_for(engine: Engine) -> float:
    """The game's ``CONFIDENCE`` (its sampler module; default ``CONFIDENCE``): see ``heuristic_or_better``."""
    return float(getattr(_sampler_module(engine), "CONFIDENCE", CONFIDENCE))


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
        stats = paired_search(engine, engine.view(state, seat), seat, rng, iterations)
        return heuristic_or_better(stats, confidence_for(engine))
    return engine.bot_move(state, seat)
