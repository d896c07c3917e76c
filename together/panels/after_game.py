"""After a finished game: the rematch, within reach of the end banner, above the board (issue 19)."""

from __future__ import annotations

from games.models import GameStatus
from games.panels import Panel
from together.panels.table import select

panel = Panel(
    name="together.after_game",
    template="together/_table_actions.html",
    place="above",
    order=10,
    condition=lambda table: table.game.status == GameStatus.FINISHED,
    selector=select,
)
