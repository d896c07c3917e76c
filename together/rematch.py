"""Rematches: the same game again, with the same people, options, time control, visibility and bots.

A rematch is an ordinary game of the platform (``games.lobby.services.create_game``) made like the original:
the same game, seat count and options (a stacked test deal aside), the same time control of whatever kind
(per move, bank, none), the same visibility and rating; the proposer seated and the bots in their seats;
every other human of the original game is invited
(``invite_user``: their invitation e-mail and My games entry). It starts, as any game, when the last
invited player takes their seat: the seat order is drawn from the new game's seed. A refusal
cancels it (it could never fill) and tells the others.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.exceptions import GameError, GameNotActive, NotAllowed, NotSeated
from games.lobby import services as lobby
from games.models import Game, GameEvent, GameStatus, Invitation, Seat
from together import live
from together.models import Block, Rematch

logger = logging.getLogger(__name__)

ENDED = (GameStatus.FINISHED, GameStatus.ABANDONED)


def live_rematch(original_id: int) -> Rematch | None:
    """The rematch of a game that nobody has declined (open, or started already)."""
    return Rematch.objects.filter(original_id=original_id, declined_at__isnull=True).select_related("game").first()


def propose_rematch(*, user, game_id: int, contribution: str = "") -> Rematch:
    """The rematch of ended game ``game_id``: the one proposed already, or a new one by ``user``.

    ``contribution``: the proposer's 128 random bits for the new game's deal (issue 30: drawn by the page's
    ``static/js/fairness.js`` or sent by an API client), as when creating any game."""
    with transaction.atomic():
        original = Game.objects.select_for_update().filter(pk=game_id).first()
        if original is None:
            raise NotSeated()
        seats = list(Seat.objects.filter(game=original).select_related("user"))
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            raise NotSeated()
        if original.status not in ENDED:
            raise GameNotActive(_("A rematch can be proposed once the game is over."))
        existing = live_rematch(original.pk)
        if existing is not None:
            return existing
        bot_seats = sorted((s for s in seats if s.user_id is None), key=lambda s: s.join_order)
        options = {name: value for name, value in original.options.items() if name != "deal"}
        game = lobby.create_game(
            user=user,
            engine_slug=original.engine_slug,
            players=original.players,
            options=options,
            time_control=original.time_control,
            visibility=original.visibility,
            bots=len(bot_seats),
            bot_levels=[s.bot_level for s in bot_seats],
            rated=original.rated,
            contribution=contribution,
        )
        rematch = Rematch.objects.create(original=original, game=game, proposed_by=user)
        others = [s.user for s in seats if s.user_id is not None and s.user_id != user.pk and s.user.is_active]
        # Blocking is private: nobody is told; a player who blocked the proposer is not asked, nor is one
        # the proposer blocked (they could not join a game the proposer created).
        skipped = set(Block.objects.filter(blocker__in=others, blocked=user).values_list("blocker_id", flat=True))
        skipped |= set(Block.objects.filter(blocker=user, blocked__in=others).values_list("blocked_id", flat=True))
        for other in others:
            if other.pk in skipped:
                continue
            try:
                lobby.invite_user(user=user, game_id=game.pk, username=other.username)
            except GameError:
                logger.info("rematch %s: could not invite user %s", game.pk, other.pk)
        live.table_changed(game_id=original.pk, reason="rematch")
        return rematch


def accept_rematch(*, user, game_id: int, contribution: str = "") -> Game:
    """``user`` takes their seat in the rematch of ended game ``game_id``; the rematch game. ``contribution``:
    their 128 random bits for its deal, as when taking any seat (issue 30)."""
    rematch = live_rematch(game_id)
    if rematch is None:
        raise NotAllowed(_("There is no rematch of this game to accept."))
    with transaction.atomic():
        if rematch.game.status == GameStatus.OPEN:
            lobby.join_game(user=user, game_id=rematch.game_id, contribution=contribution)
        elif not Seat.objects.filter(game_id=rematch.game_id, user=user).exists():
            raise NotAllowed(_("The rematch has started without you."))
        live.table_changed(game_id=game_id, reason="rematch")
    return rematch.game


def decline_rematch(*, user, game_id: int) -> Rematch:
    """``user`` declines the rematch of ended game ``game_id``: it is cancelled and the others are told."""
    rematch = live_rematch(game_id)
    if rematch is None:
        raise NotAllowed(_("There is no rematch of this game to decline."))
    invitation = Invitation.objects.filter(game_id=rematch.game_id, user=user, status=Invitation.Status.PENDING).first()
    if invitation is None:
        raise NotAllowed(_("You have no invitation to this rematch."))
    lobby.decline_invitation(user=user, invitation_id=invitation.pk)  # the receiver cancels the rematch
    rematch.refresh_from_db()
    return rematch


def rematch_declined(*, invitation: Invitation) -> None:
    """A player declined their invitation to a rematch (from any page or the API): cancel it and tell
    the others. Runs in the transaction that declined (the ``invitation_declined`` receiver)."""
    rematch = Rematch.objects.select_for_update().filter(game_id=invitation.game_id, declined_at__isnull=True).first()
    if rematch is None:
        return
    game = Game.objects.select_for_update().get(pk=rematch.game_id)
    if game.status != GameStatus.OPEN:
        return
    now = timezone.now()
    rematch.declined_by, rematch.declined_at = invitation.user, now
    rematch.save(update_fields=["declined_by", "declined_at"])
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    Invitation.objects.filter(game=game, status=Invitation.Status.PENDING).update(status=Invitation.Status.DECLINED)
    GameEvent.objects.create(game=game, kind=GameEvent.Kind.CANCELLED, name=invitation.user.public_name)
    live.table_changed(game_id=rematch.original_id, reason="rematch")
    from together.emails import queue_table_news

    original_seats = (
        Seat.objects.filter(game_id=rematch.original_id, user__isnull=False)
        .exclude(user=invitation.user)
        .select_related("user", "game")
    )
    queue_table_news(
        game=rematch.original,
        seats=list(original_seats),
        what="rematch_declined",
        name=invitation.user.public_name,
        key=rematch.pk,
    )
