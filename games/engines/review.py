"""The review of a finished game (issue 28): for one decision of a seat, from what that seat could see then.

    from games.engines.review import review_decision
    verdict = review_decision(engine, engine.view(state_before, seat), seat, played, seed=..., budget=40)

The strong bot's search (``games.engines.search.paired_search``) is run from the seat's view at that moment
alone — the view the seat had, never the state — with the played move kept to the end beside the search's
favourite, both played on the same drawn deals. The estimate of a move is its mean reward over those deals:
mostly the seat's share of first place, partly where its score stands (``search.reward``), in [0, 1]. The
*loss* is the favourite's estimate less the played move's, over the deals both were played on.

Marks (documented for players in docs/playing.md, "Review of your game"):

- *mistake*: the loss is at least ``MISTAKE`` (0.15: e.g. 15 points less chance of first place);
- *inaccuracy*: at least ``INACCURACY`` (0.06);
- *good*: less, or the played move is the favourite, or the search saw too little to be sure (the two were
  compared on fewer than ``MIN_DRAWINGS`` deals, or the favourite is ahead by no more than ``SURE`` standard
  errors of the paired difference).

Pure like the search: no Django, no clock; the budget is in iterations and the seed makes a review
reproducible.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .base import Engine, Move, View
from .search import move_key, paired_search, seeded_rng

INACCURACY = 0.06
MISTAKE = 0.15
MIN_DRAWINGS = 4  # the favourite and the played move compared on at least this many drawn deals
SURE = 1.0  # and the favourite ahead by more than this many standard errors of the paired difference


@dataclass(frozen=True)
class DecisionVerdict:
    """The review of one decision: the search's favourite, both estimates, the loss and the mark."""

    played: Move
    best: Move
    played_value: float
    best_value: float
    loss: float
    mark: str  # "good", "inaccuracy" or "mistake"


def mark_for(loss: float) -> str:
    if loss >= MISTAKE:
        return "mistake"
    if loss >= INACCURACY:
        return "inaccuracy"
    return "good"


def review_decision(engine: Engine, view: View, seat: int, played: Move, seed: Any, budget: int) -> DecisionVerdict:
    """How ``played`` compares with the strong search's favourite from ``view`` (``seat``'s view before it)."""
    played_key = move_key(played)
    stats = paired_search(engine, view, seat, seeded_rng(seed, seat, "review"), budget, keep=played_key)
    if stats.forced is not None or played_key not in stats.rewards:
        return DecisionVerdict(played, played, 0.0, 0.0, 0.0, "good")
    best_key = stats.favourite()
    best_value, played_value = stats.mean(best_key), stats.mean(played_key)
    loss = 0.0
    if best_key != played_key:
        gain, error = stats.gain(best_key, played_key)
        sure = len(stats.rewards[best_key]) >= MIN_DRAWINGS and gain > SURE * error
        loss = max(0.0, gain) if sure else 0.0
    return DecisionVerdict(
        played=played,
        best=stats.moves[best_key],
        played_value=round(played_value, 3),
        best_value=round(best_value, 3),
        loss=round(loss, 3),
        mark=mark_for(loss),
    )
