"""The lobby's writes: creating a game, joining and leaving it, invitations, and the start.

Reads for the lobby live in ``games.lobby.selectors``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from clocks.arithmetic import InvalidTimeControl, TimeControl
from clocks.controls import game_fields
from games import fairness, policies, signals
from games.engines import engine_slugs, get_engine
from games.exceptions import (
    AlreadySeated,
    BadInput,
    ContributionFixed,
    DealDrawn,
    GameError,
    GameFull,
    GameNotOpen,
    InvitationRefused,
    NotAllowed,
    NotSeated,
)
from games.lobby import commitments
from games.models import (
    BotLevel,
    Game,
    GameEvent,
    GameState,
    GameStatus,
    Invitation,
    Seat,
    TimeLimit,
    Visibility,
    seat_colours,
)
from games.play.forced import play_forced_moves, plays_itself
from games.play.services import do_play_move, schedule_bots
from games.policies import check_may_invite, check_may_join
from games.tables import (
    Table,
    add_event,
    clean_options,
    compute_views,
    lock_table,
    new_seed,
    round_of,
    seat_order,
    seed_sha256,
    store_state,
    update_awaited,
    write_views,
)
from live import publish as live_publish


def invite_token(game: Game) -> str:
    """A new invitation link's token for ``game``, made for its creator (``policies.invite_links``: per link,
    revocable, expiring when the game starts or after INVITE_LINK_HOURS)."""
    return policies.invite_links.create_link(user=game.created_by, game_id=game.pk).token


def game_id_from_invite(token: str) -> int | None:
    """The game a usable invitation link admits to (``policies.invite_links``), or ``None``."""
    return policies.invite_links.game_id_for(token)


@transaction.atomic
def create_game(
    *,
    user,
    engine_slug: str,
    players: int,
    options: dict[str, Any] | None = None,
    time_limit_hours: int = TimeLimit.NONE,
    time_control: TimeControl | None = None,
    visibility: str = Visibility.PUBLIC,
    bots: int = 0,
    bot_levels: Sequence[str] | None = None,
    rated: bool = True,
    allow_stacked_deal: bool = False,
    contribution: str = "",
    commitment: str = "",
    contributions_due_at: dt.datetime | None = None,
) -> Game:
    """A new open game with the creator seated (and ``bots`` bot seats); starts at once if full.

    ``time_control`` (``clocks.arithmetic.TimeControl``) wins over ``time_limit_hours`` (a per-move limit, 0:
    none). ``rated``: counts for the players' ratings (``competition.ratings``); a game with bots never does.

    ``bot_levels``: one ``BotLevel`` per bot seat, in seat order (issue 28); None: all ``normal``.

    ``allow_stacked_deal`` lets tests and tutorials pass the engines' ``deal`` option. ``contribution``: the
    creator's 128 bits to the deal (``games.fairness``), as 32 hex digits; "" for none. ``commitment``: the
    SHA-256 the site showed the creator before their bits were drawn (``games.lobby.commitments``): the game takes
    that secret; "" draws a new one now. ``contributions_due_at``: for a game the site seats (a league's,
    ``games.lobby.seated``): once full it still waits for every seat's contribution, until then.
    """
    contribution = fairness.parse_contribution(contribution)
    if engine_slug not in engine_slugs():
        raise BadInput()
    engine = get_engine(engine_slug)
    options = dict(options or {})
    options.pop("sealed", None)  # the site's to set (fairness.engine_options), e.g. from a rematch's options
    deal = options.pop("deal", None)
    options = clean_options(engine, options)
    if deal is not None:
        if not allow_stacked_deal:
            raise BadInput()
        options["deal"] = deal
    if not isinstance(players, int) or not engine.min_players <= players <= engine.max_players:
        raise BadInput()
    if not isinstance(bots, int) or not 0 <= bots < players:
        raise BadInput()
    bot_levels = _valid_bot_levels(bot_levels, bots)
    if time_limit_hours not in TimeLimit.values or visibility not in Visibility.values:
        raise BadInput()
    if time_control is not None and not isinstance(time_control, TimeControl):
        raise BadInput()
    try:
        clock = game_fields(time_control) if time_control is not None else None
    except InvalidTimeControl:
        raise BadInput() from None
    clock = clock or {"time_limit_hours": time_limit_hours, "clock": "move" if time_limit_hours else "none"}
    try:
        engine.setup(players, seed=0, options=options)
    except ValueError:
        raise BadInput() from None

    seed = commitments.take(user=user, commitment=commitment) if commitment else new_seed()
    game = Game.objects.create(
        engine_slug=engine_slug,
        options=options,
        players=players,
        seed_sha256=seed_sha256(seed),
        visibility=visibility,
        **clock,
        rated=bool(rated) and bots == 0,
        created_by=user,
        contributions_due_at=contributions_due_at,
    )
    GameState.objects.create(game=game, seed=str(seed))
    seats = [Seat(game=game, user=user, join_order=0, contribution=contribution)]
    seats += [
        Seat(
            game=game,
            is_bot=True,
            bot_level=bot_levels[i],
            join_order=i + 1,
            contribution=fairness.bot_contribution(seed, i + 1),
        )
        for i in range(bots)
    ]
    Seat.objects.bulk_create(seats)
    table = Table(game=game, seats=list(Seat.objects.filter(game=game).select_related("user")))
    start_if_ready(table)
    return game


def _valid_bot_levels(levels: Sequence[str] | None, bots: int) -> list[str]:
    """One level per bot seat; ``BadInput`` for a wrong count or an unknown level."""
    if levels is None:
        return [BotLevel.NORMAL] * bots
    levels = list(levels)
    if len(levels) != bots or any(level not in BotLevel.values for level in levels):
        raise BadInput()
    return levels


@transaction.atomic
def join_game(*, user, game_id: int, invite: str | None = None, contribution: str = "") -> Seat:
    """Take a free seat; the game starts when the last seat is taken.

    Private games need an invitation for ``user`` or a valid invitation link token. ``contribution``: the
    player's 128 bits to the deal (``games.fairness``), as 32 hex digits; "" for none.
    """
    contribution = fairness.parse_contribution(contribution)
    table = lock_table(game_id, with_state=False)
    game = table.game
    if game.status != GameStatus.OPEN:
        raise GameNotOpen()
    if table.seat_of(user) is not None:
        raise AlreadySeated()
    invitation = Invitation.objects.filter(game=game, user=user, status=Invitation.Status.PENDING).first()
    if game.visibility == Visibility.PRIVATE and invitation is None and game_id_from_invite(invite or "") != game.pk:
        raise NotAllowed()
    check_may_join(user=user, game=game)
    if len(table.seats) >= game.players:
        raise GameFull()
    if invitation is not None:
        invitation.status = Invitation.Status.ACCEPTED
        invitation.save(update_fields=["status"])
    seat = Seat.objects.create(game=game, user=user, join_order=_next_join_order(table), contribution=contribution)
    seat.user = user
    _seated(table, seat)
    return seat


@transaction.atomic
def contribute(*, user, game_id: int, contribution: str) -> Seat:
    """A seated player who joined without one sends their contribution to the deal before the start.

    Once set a contribution never changes (``ContributionFixed``): the others have seen it, and it is part of
    what the deal is computed from."""
    contribution = fairness.parse_contribution(contribution, required=True)
    table = lock_table(game_id, with_state=False)
    seat = table.seat_of(user)
    if table.game.status != GameStatus.OPEN:
        if seat is not None and seat.contribution == contribution:
            return seat  # the request that drew the deal, sent again: harmless
        raise DealDrawn() if table.game.started_at else GameNotOpen()
    if seat is None:
        raise NotSeated()
    if seat.contribution:
        if seat.contribution == contribution:
            return seat  # the same request again: harmless
        raise ContributionFixed()
    seat.contribution = contribution
    seat.save(update_fields=["contribution"])
    start_if_ready(table)  # a game whose deal waited for this one (games.lobby.seated)
    live_publish.game_changed(game=table.game, seats=table.seats)
    return seat


def _next_join_order(table: Table) -> int:
    return (max(s.join_order for s in table.seats) + 1) if table.seats else 0


def _seated(table: Table, seat: Seat) -> None:
    """``seat`` (a person or a bot) was just taken at the locked open ``table``: log it, start the game if
    that was the last free seat, and tell the open pages."""
    game = table.game
    table.seats.append(seat)
    add_event(table, GameEvent.Kind.JOINED, seat)
    start_if_ready(table)
    live_publish.game_changed(game=game, seats=table.seats)


def deal_ready(table: Table) -> bool:
    """Every seat is taken, and in a game whose deal waits (``Game.contributions_due_at``, games.lobby.seated)
    every seat's contribution is in."""
    game = table.game
    if len(table.seats) < game.players:
        return False
    return game.contributions_due_at is None or all(seat.contribution for seat in table.seats)


def start_if_ready(table: Table) -> bool:
    """Start the locked open ``table``'s game if ``deal_ready``; whether it started."""
    if not deal_ready(table):
        return False
    table.state_row = table.state_row or GameState.objects.get(game=table.game)
    _start(table)
    return True


def seated_by_the_site(game: Game) -> bool:
    """A game the site seated (a league's): nobody leaves, cancels or invites before its deal (issue 30)."""
    return game.contributions_due_at is not None


@transaction.atomic
def leave_game(*, user, game_id: int) -> None:
    """Give up one's seat before the start (the creator cancels instead)."""
    table = lock_table(game_id, with_state=False)
    if table.game.status != GameStatus.OPEN:
        raise GameNotOpen()
    seat = table.seat_of(user)
    if seat is None:
        raise NotSeated()
    if table.game.created_by_id == user.pk or seated_by_the_site(table.game):
        raise NotAllowed()
    seat.delete()
    GameEvent.objects.create(game=table.game, kind=GameEvent.Kind.LEFT, name=user.public_name, user=user)
    live_publish.game_changed(game=table.game, seats=[s for s in table.seats if s.pk != seat.pk])


def _waiting_table_of_its_creator(*, user, game_id: int):
    """The locked table of a game not started yet, for its creator (bots are theirs to add and remove)."""
    table = lock_table(game_id, with_state=False)
    if table.game.status != GameStatus.OPEN:
        raise GameNotOpen()
    if table.game.created_by_id != user.pk or seated_by_the_site(table.game):
        raise NotAllowed()
    return table


@transaction.atomic
def add_bot(*, user, game_id: int, level: str = BotLevel.NORMAL) -> Seat:
    """The creator fills a free seat with a bot of ``level`` (``BotLevel``) before the start; the game starts
    when that was the last seat.

    A game with a bot is never rated (``competition``): a rated game becomes unrated, and stays so if the bot
    goes again (the waiting room says so before).
    """
    if level not in BotLevel.values:
        raise BadInput()
    table = _waiting_table_of_its_creator(user=user, game_id=game_id)
    game = table.game
    if len(table.seats) >= game.players:
        raise GameFull()
    if game.rated:
        game.rated = False
        game.save(update_fields=["rated"])
    join_order = _next_join_order(table)
    seat = Seat.objects.create(
        game=game,
        is_bot=True,
        bot_level=level,
        join_order=join_order,
        contribution=fairness.bot_seat_contribution(game, join_order),
    )
    _seated(table, seat)
    return seat


@transaction.atomic
def remove_bot(*, user, game_id: int, seat_id: int | None = None) -> None:
    """The creator takes a bot out of a game that has not started: the seat ``seat_id`` (the page names it),
    or the last bot to sit down (the API)."""
    from django.utils.translation import gettext as _

    table = _waiting_table_of_its_creator(user=user, game_id=game_id)
    game = table.game
    bots = sorted((s for s in table.seats if s.is_bot), key=lambda s: s.join_order)
    if seat_id is None:
        if not bots:
            raise BadInput(_("This game has no bot seat."))
        seat = bots[-1]
    else:
        seat = next((s for s in bots if s.pk == seat_id), None)
        if seat is None:
            raise BadInput(_("That bot has left already."))
    name = seat.name
    seat.delete()
    GameEvent.objects.create(game=game, kind=GameEvent.Kind.LEFT, name=name)
    live_publish.game_changed(game=game, seats=[s for s in table.seats if s.pk != seat.pk])


@transaction.atomic
def cancel_game(*, user, game_id: int) -> None:
    """The creator calls an open game off."""
    table = lock_table(game_id, with_state=False)
    game = table.game
    if game.created_by_id != user.pk or seated_by_the_site(game):
        raise NotAllowed()
    if game.status != GameStatus.OPEN:
        raise GameNotOpen()
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    Invitation.objects.filter(game=game, status=Invitation.Status.PENDING).update(status=Invitation.Status.DECLINED)
    GameEvent.objects.create(game=game, kind=GameEvent.Kind.CANCELLED)
    signals.game_cancelled.send(sender=Game, game=game)
    live_publish.game_changed(game=game, seats=table.seats)


def find_invitee(text: str):
    """The active user ``text`` names: their username (any capitalisation), else their display name when exactly one
    player has it; ``BadInput`` saying why not."""
    from django.utils.translation import gettext as _

    text = " ".join(str(text or "").split())
    users = get_user_model().objects.filter(is_active=True)
    invitee = users.filter(username__iexact=text).first() if text else None
    if invitee is not None:
        return invitee
    named = list(users.filter(display_name__iexact=text)[:2]) if text else []
    if len(named) == 1:
        return named[0]
    if named:
        raise BadInput(_("Several players are called “%(name)s”: give the username.") % {"name": text})
    raise BadInput(_("There is no player called “%(name)s”.") % {"name": text})


@transaction.atomic
def invite_user(*, user, game_id: int, username: str) -> Invitation:
    """A seated player invites another user, by username or display name, to an open game."""
    table = lock_table(game_id, with_state=False)
    if table.game.status != GameStatus.OPEN:
        raise GameNotOpen()
    if table.seat_of(user) is None:
        raise NotSeated()
    if seated_by_the_site(table.game):
        raise NotAllowed()
    from django.utils.translation import gettext as _

    invitee = find_invitee(username)
    check_may_invite(inviter=user, invitee=invitee)
    if table.seat_of(invitee) is not None:
        raise AlreadySeated(_("%(name)s already has a seat at this game.") % {"name": invitee.public_name})
    invitation, created = Invitation.objects.get_or_create(game=table.game, user=invitee, defaults={"invited_by": user})
    if not created:
        if invitation.status == Invitation.Status.PENDING:
            raise BadInput(_("%(name)s is already invited.") % {"name": invitee.public_name})
        invitation.status, invitation.invited_by = Invitation.Status.PENDING, user
        invitation.save(update_fields=["status", "invited_by"])
    signals.invitation_created.send(sender=Game, invitation=invitation)
    live_publish.users_changed(user_ids=[invitee.pk], game=table.game)
    return invitation


@transaction.atomic
def create_game_and_invite(*, user, invite: str = "", **game_settings) -> Game:
    """``create_game``, then ``invite_user`` for ``invite`` (a username or display name; "" none) in the same
    transaction: a refused invitation leaves no game behind and raises ``InvitationRefused`` saying why."""
    game = create_game(user=user, **game_settings)
    if invite:
        try:
            invite_user(user=user, game_id=game.pk, username=invite)
        except GameError as exc:
            raise InvitationRefused(exc.message) from exc
    return game


@transaction.atomic
def decline_invitation(*, user, invitation_id: int) -> None:
    invitation = (
        Invitation.objects.select_for_update()
        .select_related("user")
        .filter(pk=invitation_id, user=user, status=Invitation.Status.PENDING)
        .first()
    )
    if invitation is None:
        raise NotAllowed()
    invitation.status = Invitation.Status.DECLINED
    invitation.save(update_fields=["status"])
    signals.invitation_declined.send(sender=Game, invitation=invitation)


def start_full_table(table: Table) -> None:
    """Start a game whose every seat is taken (``_start``): for games seated another way (a tutorial)."""
    _start(table)


def _start(table: Table) -> None:
    """Draw the seed from the secret and the contributions, the seat order from it, set the engine up and write
    every view."""
    game = table.game
    state_row = table.state_row or GameState.objects.get(game=game)
    table.state_row = state_row
    seed = fairness.deal_seed(game, state_row.seed, table.seats)
    if fairness.is_joint(game):
        state_row.deal_seed = str(seed)
        state_row.save(update_fields=["deal_seed"])
    by_join = sorted(table.seats, key=lambda s: s.join_order)
    order = seat_order(seed, game.players)
    colours = seat_colours(game.engine_slug, game.players)
    seats = []
    for number, join_position in enumerate(order):
        seat = by_join[join_position]
        seat.number, seat.colour = number, colours[number] if number < len(colours) else ""
        seats.append(seat)
    Seat.objects.bulk_update(seats, ["number", "colour"])
    table.seats = seats

    engine = game.engine
    state = engine.setup(game.players, seed=seed, options=fairness.engine_options(game))
    store_state(table, state)
    now = timezone.now()
    computed = compute_views(engine, state, game.players)
    game.status, game.started_at, game.round = GameStatus.ACTIVE, now, round_of(computed)
    game.save(update_fields=["status", "started_at", "round"])
    logs = write_views(table, computed, version=game.version, movers=set())
    newly = update_awaited(table, engine.waiting_for(state), movers=set(), now=now)
    newly = [s for s in newly if not plays_itself(table, s)]  # played at once below: no "your move" (issue 32)
    add_event(table, GameEvent.Kind.STARTED)
    signals.game_started.send(sender=Game, game=game, seats=list(table.seats))
    signals.game_advanced.send(
        sender=Game, game=game, newly_awaited_seats=newly, moves=[], seat_views=dict(table.views), seat_logs=logs
    )
    # A seat whose very first move is its only one plays it now, like any later forced move (issue 32).
    play_forced_moves(table, play=do_play_move)
    schedule_bots(table)
