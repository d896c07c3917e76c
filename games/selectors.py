"""Reads for the games platform (writes live in games/services.py).

Nothing here loads ``GameState``: pages, partials and API responses are built
from the viewer's own ``SeatView`` row. Every function runs a fixed number of
queries, whatever the length of a game or of a user's history.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.db.models import Count, F, Prefetch, Q, QuerySet

from games.models import Game, GameEvent, GameStatus, Invitation, PlayerStats, Seat, SeatView, Visibility

INVITED_SESSION_KEY = "games_invited"
FINISHED_PER_PAGE = 10
HISTORY_PER_PAGE = 20
LOBBY_PER_PAGE = 20


def count_games_awaiting(*, user) -> int:
    """How many active games await a move from ``user`` (shown in the navigation): one query.

    ``Seat.awaited`` is only ever true in active games (services clear it at the end).
    """
    return Seat.objects.filter(user=user, awaited=True, is_bot=False).count()


# Players -----------------------------------------------------------------------


def player_dicts(seats: list[Seat]) -> list[dict]:
    """The players as the UI contract wants them, in seat order (seats need ``user`` loaded)."""
    players = []
    for seat in sorted(seats, key=lambda s: (s.number is None, s.number, s.join_order)):
        user = seat.user if seat.user_id else None
        players.append(
            {
                "seat": seat.number,
                "name": seat.name,
                "is_bot": seat.is_bot,
                "colour": seat.colour,
                "user_id": seat.user_id,
                "dropped_out": seat.dropped_out,
                "away": bool(user and user.is_away()),
                "awaited": seat.awaited,
                "awaited_since": seat.awaited_since,
                "deadline_at": seat.deadline_at,
                "rank": seat.final_rank,
                "score": seat.final_score,
                "username": user.username if user else None,
            }
        )
    return players


# The game page -------------------------------------------------------------------


@dataclass
class GameAccess:
    game: Game
    seats: list[Seat]
    seat: Seat | None  # the viewer's seat, if seated
    may_view: bool
    invited: bool = False  # holds the link or a pending invitation

    @property
    def seat_number(self) -> int | None:
        return self.seat.number if self.seat is not None else None


def invited_games(session) -> set[int]:
    """Games whose signed invitation link this browser session has opened."""
    if session is None:
        return set()
    return {int(key) for key in session.get(INVITED_SESSION_KEY, {})}


def game_access(*, game_id: int, user, session=None) -> GameAccess | None:
    """The game, its seats (with users) and what ``user`` may see of it: one query (two for a game
    without seats, one more for a private game seen by someone not seated). ``None`` if there is no
    such game."""
    # The seats with their game in one query (a query's ORM overhead is ~0.5 ms of a ~6 ms page); the
    # game row alone only when it has no seat. Only the creator's id is ever needed (``created_by_id``):
    # no join to the users table for it.
    seats = list(
        Seat.objects.filter(game_id=game_id).select_related("user", "game").order_by("number", "join_order")
    )
    if seats:
        game = seats[0].game
        cache_game = Seat.game.field.set_cached_value
        for seat in seats[1:]:
            cache_game(seat, game)  # one Game instance, as game.seats would give
    else:
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            return None
    seat = None
    if user is not None and user.is_authenticated:
        seat = next((s for s in seats if s.user_id == user.pk), None)
    invited = game.pk in invited_games(session)
    if not invited and seat is None and user is not None and user.is_authenticated and not game.is_public:
        invited = Invitation.objects.filter(game=game, user=user, status=Invitation.Status.PENDING).exists()
    may_view = seat is not None or game.visibility == Visibility.PUBLIC or invited
    return GameAccess(game=game, seats=seats, seat=seat, may_view=may_view, invited=invited)


def seat_view_for(*, game: Game, seat_number: int | None) -> SeatView | None:
    """The one SeatView row of that viewer (``None``: spectators); the whole log is not stored
    (``games.services.seat_view_with_log`` derives it for one viewer)."""
    return SeatView.objects.filter(game=game, seat_number=seat_number).first()


def page_token(*, game: Game, seats: list[Seat]) -> str:
    """What the live partial compares: changes with every move, the start/end, and each join or leave."""
    return f"{game.version}.{game.status}.{len(seats)}"


def poll_token(*, game_id: int) -> tuple[str, bool] | None:
    """(page token, is public) in one query: the cheap "anything new?" of the polling partial."""
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(seat_count=Count("seats"))
        .values_list("version", "status", "seat_count", "visibility")
        .first()
    )
    if row is None:
        return None
    version, status, seat_count, visibility = row
    return f"{version}.{status}.{seat_count}", visibility == Visibility.PUBLIC


@dataclass
class LogEntry:
    kind: str  # "engine" or "platform"
    event: dict | None = None
    platform: GameEvent | None = None


def log_entries(
    *,
    game: Game,
    seat_view: SeatView | None,
    seat_number: int | None,
    full_log: list[dict] | None = None,
    limit: int | None = None,
) -> list[LogEntry]:
    """The viewer's log, oldest first: engine events from the viewer's own view, with the table's
    platform events (joined, timeouts, dropped out) at the places they happened. One query.

    ``full_log``: the viewer's whole engine log (``games.services.seat_view_with_log``), for the
    whole-log page; without it only the stored tail of the engine log is used (constant size).
    """
    full = full_log is not None
    if seat_view is None:
        engine_events, offset = [], 0
    elif full:
        engine_events, offset = list(full_log), 0
    else:
        engine_events = list(seat_view.log_tail)
        offset = seat_view.log_size - len(engine_events)
    key = "spectator" if seat_number is None else str(seat_number)
    events_qs = GameEvent.objects.filter(game=game).exclude(kind=GameEvent.Kind.LEFT).order_by("-id")
    if not full:
        events_qs = events_qs[: (limit or 30)]
    platform = sorted(events_qs, key=lambda e: e.id)
    entries: list[LogEntry] = []
    queue = [(e.log_positions.get(key, 0) if e.log_positions else 0, e) for e in platform]
    qi = 0
    for index, event in enumerate(engine_events, start=offset):
        while qi < len(queue) and queue[qi][0] <= index:
            if full or queue[qi][0] >= offset:
                entries.append(LogEntry("platform", platform=queue[qi][1]))
            qi += 1
        entries.append(LogEntry("engine", event=event))
    for _pos, event in queue[qi:]:
        entries.append(LogEntry("platform", platform=event))
    if limit is not None:
        entries = entries[-limit:]
    return entries


# My games ------------------------------------------------------------------------


@dataclass
class MyGames:
    awaiting: list[Seat] = field(default_factory=list)
    waiting: list[Seat] = field(default_factory=list)
    open: list[Seat] = field(default_factory=list)
    invitations: list[Invitation] = field(default_factory=list)
    finished: HistoryPage | None = None


def _seats_prefetch():
    return Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("number", "join_order"))


def my_games(*, user, finished_page: int | str | None = 1) -> MyGames:
    """The "My games" sections; a fixed number of queries however many games the user played."""
    result = MyGames()
    # finished_at IS NULL: a range of games_seat_unfinished_idx, not every seat the user ever had.
    current = (
        Seat.objects.filter(user=user, finished_at__isnull=True, game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
        .select_related("game")
        .prefetch_related(_seats_prefetch())
        .order_by("awaited_since", "-game__started_at", "-game__created_at")
    )
    for seat in current:
        game = seat.game
        if game.status == GameStatus.OPEN:
            result.open.append(seat)
        elif seat.awaited and not seat.is_bot:
            result.awaiting.append(seat)
        else:
            result.waiting.append(seat)
    # My turns: the least time left first (the clock that runs out first; games without one last).
    result.awaiting.sort(key=lambda s: (s.deadline_at is None, s.deadline_at or s.awaited_since))
    for seat in result.awaiting:
        seat.user = user  # the page shows each one's clock, which pauses on the user's quiet days
    # Games waiting on others: the longest-waiting first.
    result.waiting.sort(
        key=lambda s: min(
            (o.awaited_since for o in s.game.seats.all() if o.awaited_since),
            default=s.game.started_at or s.game.created_at,
        )
    )
    result.invitations = list(
        Invitation.objects.filter(user=user, status=Invitation.Status.PENDING, game__status=GameStatus.OPEN)
        .select_related("game", "invited_by")
        .order_by("-created_at")
    )
    result.finished = history_page(user=user, page=finished_page, per_page=FINISHED_PER_PAGE)
    return result


# Finished games, newest first, paged by keyset -------------------------------------------
#
# A page is a range of games_seat_history_idx (user, finished_at DESC, game DESC): no COUNT(*)
# and no OFFSET, so the newest, the oldest and any page between cost the same for 10 or
# 10,000 finished games. The ``page`` parameter is a token: empty (the newest games),
# "oldest", or "older.<key>" / "newer.<key>" (the games just older / newer than a row's key).

OLDEST = "oldest"
_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
_MICROSECOND = dt.timedelta(microseconds=1)


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
        .prefetch_related(_seats_prefetch())
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


# Lobby ------------------------------------------------------------------------------


def lobby_games(*, engine_slug: str | None = None, page: int | str | None = 1) -> Page:
    """Open public games with a free seat, newest first, optionally of one game."""
    qs = (
        Game.objects.filter(status=GameStatus.OPEN, visibility=Visibility.PUBLIC)
        .annotate(taken=Count("seats"))
        .filter(taken__lt=F("players"))
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("join_order")))
        .order_by("-created_at")
    )
    if engine_slug:
        qs = qs.filter(engine_slug=engine_slug)
    return Paginator(qs, LOBBY_PER_PAGE).get_page(page)


def public_games_in_progress(*, engine_slug: str | None = None, limit: int = 10) -> list[Game]:
    """Recently started public games anyone may watch."""
    qs = Game.objects.filter(status=GameStatus.ACTIVE, visibility=Visibility.PUBLIC).order_by("-started_at")
    if engine_slug:
        qs = qs.filter(engine_slug=engine_slug)
    return list(qs.prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user")))[:limit])


# Match history -------------------------------------------------------------------------


def match_history(*, user, page: int | str | None = None) -> HistoryPage:
    """``user``'s finished games, newest first, a page at a time (``history_page``): each row is
    their Seat with the game and its other seats prefetched (opponents). Two queries."""
    return history_page(user=user, page=page, per_page=HISTORY_PER_PAGE)


def game_stats(*, user) -> list[dict]:
    """Per game: played, won, win rate, average place — from the counters the services keep
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
                "dropped": row.dropped,
            }
        )
    return stats
