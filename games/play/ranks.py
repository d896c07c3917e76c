"""Each seat's place in history and stats (issue 17): the engine's ranking, with resigned seats last.

Kept in the core because ``games.play.services`` ends games with it; ``together`` (which resigns seats)
reads it from here.
"""

from __future__ import annotations

from collections.abc import Iterable


def platform_ranks(outcome: Iterable[dict], *, resigned: set[int]) -> dict[int, int]:
    """Each seat's place for history and stats: the engine's ranking of the seats that did not resign
    (competition ranking: ties share a place), and every resigned seat in last place (the number of
    seats: a loss even when everyone resigned)."""
    rows = [row for row in outcome if isinstance(row, dict) and "seat" in row]
    if not resigned:
        return {row["seat"]: row.get("rank") for row in rows}  # the engine's own ranking, as it is
    staying = [row for row in rows if row["seat"] not in resigned]
    ranks: dict[int, int] = {}
    for row in staying:
        better = sum(1 for other in staying if other.get("rank", 0) < row.get("rank", 0))
        ranks[row["seat"]] = better + 1
    for row in rows:
        if row["seat"] in resigned:
            ranks[row["seat"]] = len(rows)
    return ranks
