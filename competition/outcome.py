"""What a finished game means for ratings and league standings: the one place that reads it.

Issue 17 adds resigning (the bot takes the seat; the seat counts as last whatever the bot scores) and
calling a game off ("abandoned": no ranking). Whatever fields those land as, only this module needs
to learn of them: ``seat_resigned`` and ``game_result``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

FINISHED = "finished"


def seat_resigned(seat: Any) -> bool:
    """Whether the player of ``seat`` resigned (issue 17): such a seat is placed last."""
    return bool(getattr(seat, "resigned", False) or getattr(seat, "resigned_at", None))


def game_result(*, game: Any, seats: Iterable[Any]) -> dict[int, int] | None:
    """``{user id: place}`` (1 = best, equal places tie) of a finished game, or ``None`` when it
    has no result to rate: not finished (cancelled, abandoned, still going), a seat without a place
    or without a person (a bot from the start), or fewer than two people.

    Resigned seats share the place after everyone else's, whatever the bot later scored for them.
    ``game`` needs ``status``; ``seats`` ``user_id``, ``final_rank`` (and the resign mark).
    """
    if getattr(game, "status", None) != FINISHED or getattr(game, "abandoned", False):
        return None
    seats = list(seats)
    if len(seats) < 2 or any(seat.user_id is None for seat in seats):
        return None
    playing = [seat for seat in seats if not seat_resigned(seat)]
    if any(seat.final_rank is None for seat in playing):
        return None
    places = {seat.user_id: seat.final_rank for seat in playing}
    last = max(places.values(), default=0) + 1
    places.update({seat.user_id: last for seat in seats if seat_resigned(seat)})
    return places if len(places) >= 2 else None
