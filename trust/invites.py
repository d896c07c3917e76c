"""Per-link invitations to a game, and who may watch a private game.

A seated player of an open game makes a link; each link has its own random token, may be revoked by any seated
player, and stops working when the game starts or after ``INVITE_LINK_HOURS``. Opening a usable link remembers
it in the browser's session: the holder may watch the waiting room and take a seat. A private game is watched
only by its seats, users invited by name, and (while it is open) holders of a usable link; once it starts, a
link holder who did not take a seat sees nothing more.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from games.exceptions import GameNotOpen, NotAllowed, NotSeated
from games.models import Game, GameStatus, Seat
from trust.models import InviteLink

INVITED_SESSION_KEY = "games_invited"


def create_link(*, user, game_id: int, hours: int | None = None) -> InviteLink:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not Seat.objects.filter(game_id=game_id, user=user).exists():
        raise NotSeated()
    if game.status != GameStatus.OPEN:
        raise GameNotOpen()
    hours = hours or settings.INVITE_LINK_HOURS
    return InviteLink.objects.create(
        game=game,
        created_by=user,
        token=InviteLink.new_token(),
        expires_at=timezone.now() + dt.timedelta(hours=hours),
    )


def revoke_link(*, user, game_id: int, link_id: int) -> None:
    if not Seat.objects.filter(game_id=game_id, user=user).exists():
        raise NotSeated()
    updated = InviteLink.objects.filter(pk=link_id, game_id=game_id, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if not updated:
        raise NotAllowed()


def links_for(game) -> list[InviteLink]:
    """The game's usable links, newest first (for its seated players' waiting room)."""
    return list(InviteLink.objects.usable().filter(game=game))


def link_url(request, link: InviteLink) -> str:
    return request.build_absolute_uri(reverse("game-invite-link", args=[link.token]))


def game_id_for(token: str) -> int | None:
    """The game a usable link's token admits to, or ``None`` (unknown, revoked, expired, game started)."""
    if not isinstance(token, str) or not token or len(token) > 64 or "\x00" in token:
        return None
    return InviteLink.objects.usable().filter(token=token).values_list("game_id", flat=True).first()


def note_use(token: str) -> None:
    InviteLink.objects.filter(token=token).update(uses=F("uses") + 1)


def session_holds_usable_link(session, game) -> bool:
    """Whether this browser opened a link to ``game`` that still works (one query, only if it opened one)."""
    if session is None:
        return False
    token = session.get(INVITED_SESSION_KEY, {}).get(str(game.pk))
    return bool(token) and game.status == GameStatus.OPEN and game_id_for(token) == game.pk
