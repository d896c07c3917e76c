"""A test-only panel of the table: one file, and one line in ``apps.py``'s ``ready()`` (the proof that a panel
plugs in, as this folder proves a game does). It shows the viewer how far their hints narrowed the other
seat's number: built from the viewer's own SeatView row, so a spectator has none to show."""

from __future__ import annotations

from games.panels import Panel, Table


def select(table: Table) -> dict:
    seat_view = table.seat_view()
    if seat_view is None:
        return {"hn_range": None}
    low, high = seat_view.view["bounds"][table.seat_number]  # what the viewer's hints left of the other's number
    return {"hn_range": {"low": low, "high": high}}


panel = Panel(
    name="hidden_number.range",
    template="hidden_number/panel_range.html",
    place="main",
    order=50,
    condition=lambda table: table.game.engine_slug == "hidden-number" and table.seat is not None,
    selector=select,
)
