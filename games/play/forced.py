"""Forced moves play themselves (issue 32), as on BGA and lichess.

When a seat has exactly one legal move and its player keeps the setting on (``User.play_forced_moves``, on
by default), the move is played for them in the same transaction as the move that brought it about
(``MadeBy.FORCED``), logged as such (a ``forced_move`` event everyone sees), and the seat is not told "your
move" by e-mail: ``do_play_move`` leaves such seats out of the ``game_advanced`` signal's newly awaited ones
(``plays_itself``). Bots play their own moves; a seat the bot plays is never forced here.
"""

from __future__ import annotations

from collections.abc import Callable

from games.models import GameEvent, GameStatus, MadeBy, Move, Seat
from games.tables import Table, add_event

FORCED_MOVES_CAP = 50  # in one go (a whole hand of single choices); the rest waits for the next move


def plays_itself(table: Table, seat: Seat) -> bool:
    """Whether ``seat`` (awaited) has exactly one legal move that its player lets the site play."""
    if table.game.status != GameStatus.ACTIVE or seat.is_bot or seat.user_id is None or not seat.awaited:
        return False
    if not getattr(seat.user, "play_forced_moves", False):
        return False
    row = table.views.get(seat.number)
    return row is not None and len(row.legal_moves or []) == 1


def play_forced_moves(table: Table, *, play: Callable[..., Move]) -> list[Move]:
    """Play every forced move of ``table`` (locked) in turn with ``play`` (``do_play_move``, handed in so this
    module stays below the services); the moves played. Re-entrant calls (each forced move goes through
    ``do_play_move``, which calls this again) return at once: the outer loop goes on."""
    if getattr(table, "forcing", False):
        return []
    table.forcing = True
    played: list[Move] = []
    try:
        while len(played) < FORCED_MOVES_CAP:
            seat = next((s for s in table.seats if plays_itself(table, s)), None)
            if seat is None:
                break
            only = table.views[seat.number].legal_moves[0]
            played.append(play(table=table, seat=seat, move=only, made_by=MadeBy.FORCED))
            add_event(table, GameEvent.Kind.FORCED_MOVE, seat)
    finally:
        table.forcing = False
    return played
