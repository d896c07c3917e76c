"""Reads for history: a user's match history (keyset pages), per-game statistics, and one viewer's
whole log (derived from the full state for that viewer only).

A fixed number of queries whatever the size of a user's history.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import JSONField, OuterRef, Prefetch, Q, QuerySet, Subquery

from games.models import (
    Game,
    GameState,
    PlayerStats,
    Seat,
    SeatView,
)
from games.tables import full_state, with_whole_log

HISTORY_PER_PAGE = 20


OLDEST = "oldest"


_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)


_MICROSECOND = dt.timedelta(microseconds=1)


def seats_prefetch():
    return Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("number", "join_order"))


@dataclass
class HistoryPage:
    object_list: list[Seat]
    newer: str | None = None  # token of the page just newer; None on the newest page
    older: str | None = None  # token of the page just older; None on the oldest page

    @property
    def has_other_pages(self) -> bool:
        return self.newer is not None or self.older is not None


def _key_token(direction: str, seat: Seat) -> str:
    return f"{direction}.{(seat.finished_at - _EPOCH) // _MICROSECOND}.{seat.game_id}"


def _parse_token(page) -> tuple[str, tuple[dt.datetime, int] | None]:
    """(``"newest"``, ``"oldest"``, ``"older"`` or ``"newer"``, the key): anything else is the newest page."""
    token = str(page or "")
    if token == OLDEST:
        return OLDEST, None
    direction, _, key = token.partition(".")
    micros, _, game_id = key.partition(".")
    if direction in ("older", "newer") and micros.lstrip("-").isdigit() and game_id.isdigit():
        try:
            return direction, (_EPOCH + int(micros) * _MICROSECOND, int(game_id))
        except OverflowError:
            pass
    return "newest", None


def _rows(qs: QuerySet, per_page: int) -> tuple[list[Seat], bool]:
    """Up to ``per_page`` rows and whether there are more in that direction (one more row fetched)."""
    rows = list(qs[: per_page + 1])
    return rows[:per_page], len(rows) > per_page


def history_page(*, user, page: int | str | None = None, per_page: int = 20) -> HistoryPage:
    """``user``'s finished games (their Seat, the game and its seats with users), newest first:
    two queries whatever the length of the history or the page asked for."""
    qs = (
        Seat.objects.filter(user=user, finished_at__isnull=False)
        .select_related("game")
        .prefetch_related(seats_prefetch())
    )
    newest_first, oldest_first = qs.order_by("-finished_at", "-game_id"), qs.order_by("finished_at", "game_id")
    direction, key = _parse_token(page)
    if direction == "older":
        when, game_id = key
        # finished_at <= when bounds the index range; the OR only settles ties within it.
        older = Q(finished_at__lt=when) | Q(finished_at=when, game_id__lt=game_id)
        rows, more = _rows(newest_first.filter(older, finished_at__lte=when), per_page)
        if rows:
            return _page(rows, newer=True, older=more)
    elif direction == "newer":
        when, game_id = key
        newer = Q(finished_at__gt=when) | Q(finished_at=when, game_id__gt=game_id)
        rows, more = _rows(oldest_first.filter(newer, finished_at__gte=when), per_page)
        # Short of a full page, these are the newest games: show the newest page as it stands.
        if more or len(rows) == per_page:
            return _page(rows[::-1], newer=more, older=True)
    elif direction == OLDEST:
        rows, more = _rows(oldest_first, per_page)
        return _page(rows[::-1], newer=more, older=False)
    rows, more = _rows(newest_first, per_page)
    return _page(rows, newer=False, older=more)


def _page(rows: list[Seat], *, newer: bool, older: bool) -> HistoryPage:
    return HistoryPage(
        rows,
        newer=_key_token("newer", rows[0]) if newer and rows else None,
        older=_key_token("older", rows[-1]) if older and rows else None,
    )


def match_history(*, user, page: int | str | None = None) -> HistoryPage:
    """``user``'s finished games, newest first, a page at a time (``history_page``): each row is
    their Seat with the game and its other seats prefetched (opponents). Two queries."""
    return history_page(user=user, page=page, per_page=HISTORY_PER_PAGE)


def game_stats(*, user) -> list[dict]:
    """Per game: played, won, win rate, average place and score — from the counters the services keep
    (``PlayerStats``), one query of one row per game whatever the length of the history."""
    stats = []
    for row in PlayerStats.objects.filter(user=user, played__gt=0).order_by("engine_slug"):
        stats.append(
            {
                "engine_slug": row.engine_slug,
                "played": row.played,
                "won": row.won,
                "win_rate": row.won / row.played,
                "average_place": row.average_place,
                "average_score": row.average_score,
                "dropped": row.dropped,
            }
        )
    return stats


def seat_view_with_log(*, game: Game, seat_number: int | None) -> tuple[SeatView | None, list[dict]]:
    """That viewer's SeatView row (``None``: spectators) and their whole engine log, for the
    whole-log page and the API. One query (two with log chunks): the row, the game's state and
    its log length come from the same statement, so the log is of the row's version. The log is
    the engine's view of the current state for this viewer only (no replay), so it holds nothing
    this viewer may not see."""
    states = GameState.objects.filter(game_id=OuterRef("game_id"))
    row = (
        SeatView.objects.filter(game=game, seat_number=seat_number)
        .annotate(
            game_state=Subquery(states.values("state")[:1], output_field=JSONField()),
            game_log_length=Subquery(states.values("log_length")[:1]),
        )
        .first()
    )
    if row is None or not row.game_state:
        return row, []
    state = with_whole_log(game, row.game_state, row.game_log_length)
    return row, game.engine.view(state, seat_number)["log"]


def viewer_log(*, game: Game, seat_number: int | None) -> list[dict]:
    """The whole engine log as ``seat_number`` (``None``: spectators) sees it now: one query
    (two with log chunks)."""
    state = full_state(game)
    return game.engine.view(state, seat_number)["log"] if state else []


def end_screen(*, game: Game, state: dict, players: list[dict], ui, viewer_seat: int | None) -> dict:
    """The end screen of a finished game (issue 19): the ranking in platform places (a resigned seat is
    last, as in history), each score with its unit and how it came about (``ui.final_details``), where a
    tie-break decided, the winners, and the viewer's own place ("you placed 2nd of 4")."""
    by_seat = {p["seat"]: p for p in players}
    details = ui.final_details(state, players) if state else {}
    rows = []
    for row in game.outcome or []:
        player = by_seat.get(row["seat"], {})
        place = player.get("rank") or row["rank"]
        rows.append(
            {
                **row,
                "player": player,
                "place": place,
                "score_text": ui.score_text(row["score"]),
                "parts": (details.get(row["seat"]) or {}).get("parts") or [],
                "tie_break": (details.get(row["seat"]) or {}).get("tie_break") or "",
            }
        )
    rows.sort(key=lambda r: (r["place"], r["seat"]))
    for row in rows:
        same_score = [o for o in rows if o is not row and o["score"] == row["score"]]
        row["shared"] = any(o["place"] == row["place"] for o in rows if o is not row)
        # Equal scores in different places: the rules' tie-break decided (not a resignation).
        row["tie_broken"] = bool(row["tie_break"]) and any(
            o["place"] != row["place"] and not o["player"].get("resigned") for o in same_score
        ) and not row["player"].get("resigned")
        row["is_winner"] = row["place"] == 1
        row["is_viewer"] = viewer_seat is not None and row["seat"] == viewer_seat
    mine = next((row for row in rows if row["is_viewer"]), None)
    return {
        "ranking": rows,
        "winners": [row for row in rows if row["is_winner"]],
        "my_result": mine,
        "seat_count": len(rows),
        "any_tie_broken": any(row["tie_broken"] for row in rows),
    }
