"""Games the site seats (a league's, issue 30): dealt only once every seated person has shaped the deal.

``competition.leagues`` creates each game of a league with every seat filled, long before anyone opens it. A game
started at once would be dealt from the site's secret alone; so such a game (``Game.contributions_due_at`` set)
stays open, seated, **not dealt**, until every seat has its contribution (``games.fairness``):

- each player's page sends 128 bits the first time it is opened (static/js/fairness.js, or the page's form without
  JavaScript), an API client its own (``POST /api/games/{id}/contribution/``): ``services.contribute``, which
  starts the game when the last one arrives; a player without JavaScript may also ask the site to draw theirs
  (``draw_mine``);
- at ``contributions_due_at`` (``DEAL_WAIT_HOURS`` after the seating) the beat task draws the missing ones
  (``draw_missing``) and starts the game;
- a player whose account is closed before the deal hands their seat to the bot (``give_up_unstarted_seat``).

What the site draws for a person's seat is ``fairness.site_contribution``: derived from the secret it committed to
when the game was created, as a bot's is, so at the deadline it cannot pick bits that steer the deal; the seat is
marked ``contribution_by_site`` and the check page and the API say so. The clocks start, and "game started" and
"your move" go out, when the deal is drawn (``services._start``), as for any game.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games import fairness
from games.exceptions import DealDrawn, GameNotOpen, NotSeated
from games.lobby import services
from games.models import TAKEOVER_BOT_LEVEL, Game, GameState, GameStatus, Seat
from games.tables import Table, lock_table
from live import publish as live_publish


def contributions_due(now: dt.datetime | None = None) -> dt.datetime:
    """When a game seated now draws the contributions still missing (``DEAL_WAIT_HOURS`` on)."""
    return (now or timezone.now()) + dt.timedelta(hours=settings.DEAL_WAIT_HOURS)


def _draw_for(table: Table, seats: list[Seat]) -> None:
    """The site's contribution for each of ``seats`` (persons' seats of ``table`` that sent none)."""
    if not seats:
        return
    secret = GameState.objects.only("seed").get(game=table.game).seed
    for seat in seats:
        seat.contribution = fairness.site_contribution(secret, seat.join_order)
        seat.contribution_by_site = True
    Seat.objects.bulk_update(seats, ["contribution", "contribution_by_site"])


def _waiting_table(game_id: int) -> Table:
    """The locked table of a seated game whose deal has not been drawn (``DealDrawn`` once it has)."""
    table = lock_table(game_id, with_state=False)
    if table.game.status != GameStatus.OPEN:
        raise DealDrawn() if table.game.started_at else GameNotOpen()
    if not services.seated_by_the_site(table.game):
        raise GameNotOpen()
    return table


@transaction.atomic
def draw_mine(*, user, game_id: int) -> Seat:
    """A seated player (without JavaScript, say) asks the site to draw their contribution now rather than wait
    for the deadline; the game starts if it was the last. Already set: nothing changes."""
    table = _waiting_table(game_id)
    seat = table.seat_of(user)
    if seat is None:
        raise NotSeated()
    if not seat.contribution:
        _draw_for(table, [seat])
        services.start_if_ready(table)
        live_publish.game_changed(game=table.game, seats=table.seats)
    return seat


@transaction.atomic
def draw_missing(*, game_id: int, now: dt.datetime | None = None) -> bool:
    """At its deadline, the site draws the contributions a seated game still misses and starts it. Whether it
    did: a game already dealt, or not due yet, is left as it is (a repeated or late task does nothing)."""
    now = now or timezone.now()
    try:
        table = _waiting_table(game_id)
    except GameNotOpen:
        return False
    if table.game.contributions_due_at > now:
        return False
    _draw_for(table, [seat for seat in table.seats if not seat.contribution])
    started = services.start_if_ready(table)
    live_publish.game_changed(game=table.game, seats=table.seats)
    return started


def due_game_ids(*, now: dt.datetime | None = None, limit: int = 200) -> list[int]:
    """Seated games past their deadline whose deal is not drawn (games_deal_due_idx)."""
    return list(
        Game.objects.filter(status=GameStatus.OPEN, contributions_due_at__lte=now or timezone.now())
        .order_by("contributions_due_at")
        .values_list("pk", flat=True)[:limit]
    )


@transaction.atomic
def give_up_unstarted_seat(*, user, game_id: int) -> bool:
    """``user`` goes (account closed or deactivated) from a game not started: a game the site seated keeps its
    players, so the bot takes the seat, the site draws its contribution if none came, and the deal is drawn if it
    was the last; from another the user leaves (its creator cancels it). Whether anything changed."""
    table = lock_table(game_id, with_state=False)
    game = table.game
    seat = table.seat_of(user)
    if game.status != GameStatus.OPEN or seat is None or seat.is_bot:
        return False
    if not services.seated_by_the_site(game):
        if game.created_by_id == user.pk:
            services.cancel_game(user=user, game_id=game.pk)
        else:
            services.leave_game(user=user, game_id=game.pk)
        return True
    seat.is_bot, seat.dropped_out, seat.bot_level = True, True, TAKEOVER_BOT_LEVEL
    seat.save(update_fields=["is_bot", "dropped_out", "bot_level"])
    if not seat.contribution:
        _draw_for(table, [seat])
    services.start_if_ready(table)
    live_publish.game_changed(game=game, seats=table.seats)
    return True
