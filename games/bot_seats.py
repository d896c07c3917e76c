"""Adding and removing bot seats of an open game (its creator, before the start).

At creation a game gets its bots; afterwards its creator may add one to a free seat (the game
starts when that fills the last seat) or take one away to make room for a person.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games import tables
from games.exceptions import BadInput, GameFull, GameNotOpen, NotAllowed
from games.lobby import services as lobby_services
from games.models import Game, GameStatus, Seat


@transaction.atomic
def add_bot(*, user, game_id: int) -> Game:
    table = tables.lock_table(game_id, with_state=False)
    game = table.game
    if game.created_by_id != user.pk:
        raise NotAllowed(_("Only the game's creator may add or remove bots."))
    if game.status != GameStatus.OPEN:
        raise GameNotOpen()
    if len(table.seats) >= game.players:
        raise GameFull()
    join_order = max((s.join_order for s in table.seats), default=-1) + 1
    table.seats.append(Seat.objects.create(game=game, is_bot=True, join_order=join_order))
    if len(table.seats) == game.players:
        lobby_services._start(table)
    return game


@transaction.atomic
def remove_bot(*, user, game_id: int) -> Game:
    table = tables.lock_table(game_id, with_state=False)
    game = table.game
    if game.created_by_id != user.pk:
        raise NotAllowed(_("Only the game's creator may add or remove bots."))
    if game.status != GameStatus.OPEN:
        raise GameNotOpen()
    bots = sorted((s for s in table.seats if s.is_bot), key=lambda s: s.join_order)
    if not bots:
        raise BadInput(_("This game has no bot seat."))
    bots[-1].delete()
    return game
