"""Reads for the games platform (writes live in games/services.py)."""

from __future__ import annotations


def count_games_awaiting(*, user) -> int:
    """How many active games await a move from ``user`` (shown in the navigation)."""
    from games.models import Seat

    return Seat.objects.filter(user=user, awaited=True, game__status="active").count()
