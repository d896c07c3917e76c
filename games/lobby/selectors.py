"""Reads for the lobby: open and running public games, which private games a browser was invited to, and the
waiting room's invitations (pending ones, and whom to suggest).

One query each, whatever the number of games on the site.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q

from games import policies
from games.models import Game, GameStatus, Invitation, Seat, Visibility

INVITE_SUGGESTIONS = 10  # names offered under the invitation box
RECENT_GAMES_FOR_SUGGESTIONS = 50  # whose players are suggested before anything is typed

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


def pending_invitations(*, game: Game) -> list[Invitation]:
    """The game's invitations by username nobody has answered yet, oldest first (the waiting room lists them)."""
    return list(
        Invitation.objects.filter(game=game, status=Invitation.Status.PENDING)
        .select_related("user", "invited_by")
        .order_by("created_at", "pk")
    )


def invite_suggestions(*, game: Game, user, query: str = "", limit: int = INVITE_SUGGESTIONS) -> list:
    """Players ``user`` may invite to ``game``, by username: those whose username starts with ``query`` or whose
    display name contains it; with fewer than two characters typed, the players of ``user``'s latest games. Never
    ``user``, a seated or already invited player, or anyone blocked either way (``together``). One query."""
    users = get_user_model().objects.filter(is_active=True).exclude(pk=user.pk)
    users = users.exclude(Exists(Seat.objects.filter(game=game, user=OuterRef("pk"))))
    users = users.exclude(
        Exists(Invitation.objects.filter(game=game, user=OuterRef("pk"), status=Invitation.Status.PENDING))
    )
    users = policies.invitable(users, user=user)  # without blocked players (together)
    query = " ".join((query or "").split())[:150]
    if len(query) >= 2:
        users = users.filter(Q(username__istartswith=query) | Q(display_name__icontains=query))
    else:
        recent = Seat.objects.filter(user=user).order_by("-game_id").values("game_id")[:RECENT_GAMES_FOR_SUGGESTIONS]
        users = users.filter(pk__in=Seat.objects.filter(game_id__in=recent, user__isnull=False).values("user_id"))
    return list(users.order_by("username").only("username", "display_name")[:limit])
