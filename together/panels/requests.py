"""Requests that need an answer from the players (issue 32): a proposal to call the game off shows as a banner
at the top of the table, above the board, with its answer, not under "Leaving the table". (The rematch, the
other such request, comes after the game: the after-game panel, also above the board.)"""

from __future__ import annotations

from games.models import GameStatus
from games.panels import Panel, Table
from together.panels.table import select


def call_off_pending(table: Table) -> bool:
    return table.game.status == GameStatus.ACTIVE and table.seat is not None and not table.seat.is_bot


panel = Panel(
    name="together.requests",
    template="together/_requests.html",
    place="above",
    order=0,
    condition=call_off_pending,
    selector=select,
)
