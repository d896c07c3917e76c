"""Each player's clock and quiet days at the end of their row (``games.panels``): no query (the seats and
their users are read already)."""

from __future__ import annotations

from clocks.display import player_clocks
from games.panels import Panel, Table


def select(table: Table) -> dict:
    rows = player_clocks(game=table.game, seats=table.seats, players=table.players)
    return {row["seat"]: {key: row[key] for key in ("clock", "quiet_days", "time_zone")} for row in rows}


panel = Panel(
    name="clocks.clocks",
    template="clocks/_player_clock.html",
    place="player_end",
    order=10,
    selector=select,
)
