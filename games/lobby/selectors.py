"""Reads for the lobby: open and running public games, and which private games a browser was invited to.

One query each, whatever the number of games on the site.
"""

from __future__ import annotations

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Prefetch

from games.models import Game, GameStatus, Seat, Visibility

INVITED_SESSION_KEY = "games_invited"


LOBBY_PER_PAGE = 20


def invited_games(session) -> set[int]:
    """Games whose signed invitation link this browser session has opened."""
    if session is None:
        return set()
    return {int(key) for key in session.get(INVITED_SESSION_KEY, {})}


def lobby_games(*, engine_slug: str | None = None, page: int | str | None = 1) -> Page:
    """Open public games with a free seat, newest first, optionally of one game."""
    qs = (
        Game.objects.filter(status=GameStatus.OPEN, visibility=Visibility.PUBLIC)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("players"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("join_order")))
        .order_by("-created_at")
    )
    if engine_slug:
        qs = qs.filter(engine_slug=engine_slug)
    return Paginator(qs, LOBBY_PER_PAGE).get_page(page)


def public_games_in_progress(*, engine_slug: str | None = None, limit: int = 10) -> list[Game]:
    """Recently started public games anyone may watch."""
    qs = Game.objects.filter(status=GameStatus.ACTIVE, visibility=Visibility.PUBLIC).order_by("-started_at")
    if engine_slug:
        qs = qs.filter(engine_slug=engine_slug)
    return list(qs.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))[:limit])
