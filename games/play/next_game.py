"""The next game awaiting a player (issue 32): after a move, "Next game awaiting you (N)" on the page, or
straight there (``User.next_game_after_move``). The least time left first, as My games orders them."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import F

from games import precompiled
from games.models import Seat

COUNTED = 99  # "(99)" at most: the link is about the next one


@dataclass(frozen=True)
class NextGame:
    game_id: int
    count: int  # games awaiting the player, besides this one


AWAITED_READ = 1000  # the nav badge counts from the same rows: far more than anyone plays at once


def _awaited_rows(user_id: int):
    return (
        Seat.objects.filter(user_id=user_id, awaited=True, is_bot=False)
        .order_by(F("deadline_at").asc(nulls_last=True), "awaited_since", "game_id")
        .values_list("game_id")[:AWAITED_READ]
    )


def awaited_game_ids(*, user, request=None) -> list[int]:
    """The games awaiting ``user``, the least time left first: one query, kept on ``request`` (when given) so
    the page's "next game" and the navigation's badge (``mammamia.context_processors``) share it."""
    cached = getattr(request, "_awaited_game_ids", None) if request is not None else None
    if cached is not None:
        return cached
    # Compiled once per process (``games.precompiled``): it runs on every page of a signed-in user.
    games = [row[0] for row in precompiled.fetch_rows(("awaited_game_ids",), _awaited_rows, (user.pk,))]
    if request is not None:
        request._awaited_game_ids = games
    return games


def next_awaiting(*, user, besides: int, request=None) -> NextGame | None:
    """The game (other than ``besides``) whose clock for ``user`` runs out first, and how many await (at most
    ``COUNTED``): one query, none more when the request already read them."""
    if user is None or not user.is_authenticated:
        return None
    games = [game_id for game_id in awaited_game_ids(user=user, request=request) if game_id != besides][:COUNTED]
    return NextGame(game_id=games[0], count=len(games)) if games else None
