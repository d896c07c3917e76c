"""Ratings beside the players' names at the table (``games.panels``): read only for a rated game."""

from __future__ import annotations

from games.panels import Panel, Table


def select(table: Table) -> dict:
    """Each seat's ``rating`` (a ``Shown`` or ``None``): read with the seats (``access_columns``), else one query."""
    from competition.selectors import Shown, ratings_for

    if table.seats and all(hasattr(seat, "rating_value") for seat in table.seats):
        by_seat = {seat.number: seat for seat in table.seats}
        return {
            p["seat"]: {"rating": _shown(by_seat.get(p["seat"]), Shown) if p.get("user_id") else None}
            for p in table.players
        }
    ratings = ratings_for(user_ids=[p.get("user_id") for p in table.players], engine_slug=table.game.engine_slug)
    return {p["seat"]: {"rating": ratings.get(p.get("user_id"))} for p in table.players}


def _shown(seat, shown_class):
    if seat is None or seat.rating_value is None:
        return None
    return shown_class(value=seat.rating_value, games=seat.rating_games)


panel = Panel(
    name="competition.ratings",
    template="competition/_player_rating.html",
    place="player",
    order=10,
    condition=lambda table: table.game.rated,
    selector=select,
)
