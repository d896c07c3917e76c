"""Reads for the games platform (writes live in games/services.py).

Nothing here loads ``GameState``: pages, partials and API responses are built
from the viewer's own ``SeatView`` row. Every function runs a fixed number of
queries, whatever the length of a game or of a user's history.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.core.paginator import Page, Paginator
from django.db.models import Avg, Count, F, Prefetch, Q

from games.models import Game, GameEvent, GameStatus, Invitation, Seat, SeatView, Visibility

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
    """The game, its seats (with users) and what ``user`` may see of it: two queries (three for
    a private game seen by someone not seated). ``None`` if there is no such game."""
    game = Game.objects.filter(pk=game_id).select_related("created_by").first()
    if game is None:
        return None
    seats = list(game.seats.select_related("user").order_by("number", "join_order"))
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
    finished: Page | None = None


def _seats_prefetch():
    return Prefetch("game__seats", queryset=Seat.objects.select_related("user").order_by("number", "join_order"))


def my_games(*, user, finished_page: int | str | None = 1) -> MyGames:
    """The "My games" sections; a fixed number of queries however many games the user played."""
    result = MyGames()
    current = (
        Seat.objects.filter(user=user, game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
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
    finished = (
        Seat.objects.filter(user=user, game__status=GameStatus.FINISHED)
        .select_related("game")
        .prefetch_related(_seats_prefetch())
        .order_by("-game__finished_at", "-game_id")
    )
    result.finished = Paginator(finished, FINISHED_PER_PAGE).get_page(finished_page)
    return result


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


def match_history(*, user, page: int | str | None = 1) -> Page:
    """``user``'s finished games, newest first, paginated: each row is their Seat with the game
    and its other seats prefetched (opponents). Three queries for any history length."""
    qs = (
        Seat.objects.filter(user=user, game__status=GameStatus.FINISHED)
        .select_related("game")
        .prefetch_related(_seats_prefetch())
        .order_by("-game__finished_at", "-game_id")
    )
    return Paginator(qs, HISTORY_PER_PAGE).get_page(page)


def game_stats(*, user) -> list[dict]:
    """Per game: played, won, win rate, average place — aggregated in SQL, one query."""
    rows = (
        Seat.objects.filter(user=user, game__status=GameStatus.FINISHED)
        .values("game__engine_slug")
        .annotate(
            played=Count("id"),
            won=Count("id", filter=Q(final_rank=1)),
            average_place=Avg("final_rank"),
            dropped=Count("id", filter=Q(dropped_out=True)),
        )
        .order_by("game__engine_slug")
    )
    stats = []
    for row in rows:
        stats.append(
            {
                "engine_slug": row["game__engine_slug"],
                "played": row["played"],
                "won": row["won"],
                "win_rate": row["won"] / row["played"] if row["played"] else 0,
                "average_place": row["average_place"],
                "dropped": row["dropped"],
            }
        )
    return stats
