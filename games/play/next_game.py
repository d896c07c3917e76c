"""The next game awaiting a player (issue 32): after a move, "Next game awaiting you (N)" on the page, or
straight there (``User.next_game_after_move``). The least time left first, as My games orders them."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from games.models import Seat

COUNTED = 99  # "(99)" at most: the link is about the next one


@dataclass(frozen=True)
class NextGame:
    game_id: int
    count: int  # games awaiting the player, besides this one


def next_awaiting(*, user, besides: int) -> NextGame | None:
    """The game (other than ``besides``) whose clock for ``user`` runs out first, and how many await: one
    query (at most ``COUNTED`` rows)."""
    if user is None or not user.is_authenticated:
        return None
    games = list(
        Seat.objects.filter(user=user, awaited=True, is_bot=False)
        .exclude(game_id=besides)
        .order_by(F("deadline_at").asc(nulls_last=True), "awaited_since", "game_id")
        .values_list("game_id", flat=True)[:COUNTED]
    )
    return NextGame(game_id=games[0], count=len(games)) if games else None
