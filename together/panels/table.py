"""The table's chat, the viewer's notes and, while the game is played, leaving the table (resign, call off,
hand a stalled seat over): under the board of a started game."""

from __future__ import annotations

from games.models import GameStatus
from games.panels import Panel, Table

STARTED = (GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABANDONED)


def together_data(table: Table) -> dict:
    """``together.page.table_context`` once per request, for every together panel of the page; the table's
    activity stamp goes into the live partial's token."""

    def read() -> dict:
        from together.page import table_context

        data = table_context(user=table.user, access=table)
        table.activity_stamp += data["activity_stamp"]
        return data

    return table.once("together", read)


def select(table: Table) -> dict:
    return {"together": together_data(table)["together"]}


panel = Panel(
    name="together.table",
    template="together/_table_extras.html",
    place="main",
    order=10,
    condition=lambda table: table.game.status in STARTED,
    selector=select,
)
