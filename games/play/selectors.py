"""Reads for playing: who may see a game and as whom, the viewer's own ``SeatView``, the page's log
entries, the live partial's token and "My games".

Nothing here loads ``GameState``: pages, partials and API responses are built from the viewer's own
``SeatView`` row. Every function runs a fixed number of queries, whatever the length of a game.
"""

from __future__ import annotations

import bisect
import datetime
from dataclasses import dataclass, field

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import Count, JSONField, OuterRef, Subquery, Value
from django.db.models.functions import JSONObject

from games import policies, precompiled
from games.history.selectors import HistoryPage, history_page, seats_prefetch
from games.models import Game, GameEvent, GameStatus, Invitation, Move, Seat, SeatView, Visibility
from games.tables import viewer_key
from live import tokens as live_tokens

FINISHED_PER_PAGE = 10


def count_games_awaiting(*, user) -> int:
    """How many active games await a move from ``user`` (shown in the navigation): one query.

    ``Seat.awaited`` is only ever true in active games (services clear it at the end).
    """
    return Seat.objects.filter(user=user, awaited=True, is_bot=False).count()


def awaits(*, user, game_id: int) -> bool:
    """Whether the game still awaits a move of ``user`` (a Konamon! card's next step): one query."""
    return Seat.objects.filter(user=user, game_id=game_id, awaited=True, is_bot=False).exists()


def player_dicts(seats: list[Seat]) -> list[dict]:
    """The players as the UI contract wants them, in seat order (seats need ``user`` loaded)."""
    players = []
    for seat in sorted(seats, key=lambda s: (s.number is None, s.number, s.join_order)):
        user = seat.user if seat.user_id else None
        players.append(
            {
                "seat": seat.number,
                "seat_id": seat.pk,
                "name": seat.name,
                "listed_name": seat.listed_name,  # with its one bracket of state (bot, dropped out)
                "is_bot": seat.is_bot,
                "colour": seat.colour,
                "user_id": seat.user_id,
                "dropped_out": seat.dropped_out,
                "resigned": seat.resigned_at is not None,
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


def game_access(*, game_id: int, user, session=None) -> GameAccess | None:
    """The game, its seats (with users) and what ``user`` may see of it: one query (two for a game
    without seats, one more for a private game seen by someone not seated). ``None`` if there is no
    such game."""
    # The seats with their game in one query (a query's ORM overhead is ~0.5 ms of a ~6 ms page); the
    # game row alone only when it has no seat. Only the creator's id is ever needed (``created_by_id``):
    # no join to the users table for it.
    # The features' columns (games.policies: the table's activity, the viewer's note, ratings) in the same query.
    # Its SQL is compiled once per process (``games.precompiled``): building and compiling it cost more CPU
    # than running it (issue 33).
    signed_in = user is not None and user.is_authenticated
    if isinstance(game_id, int) and not isinstance(game_id, bool):
        if signed_in:
            seats = precompiled.fetch(("game_access", True), _access_rows_of_user, (game_id, user.pk))
        else:
            seats = precompiled.fetch(("game_access", False), _access_rows_of_anyone, (game_id,))
    else:
        seats = list(_access_rows(game_id, user))
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
    invited = seat is None and not game.is_public and policies.invite_links.session_holds_usable_link(session, game)
    if not invited and seat is None and user is not None and user.is_authenticated and not game.is_public:
        invited = Invitation.objects.filter(game=game, user=user, status=Invitation.Status.PENDING).exists()
    may_view = seat is not None or game.visibility == Visibility.PUBLIC or invited
    return GameAccess(game=game, seats=seats, seat=seat, may_view=may_view, invited=invited)


def _access_rows(game_id, user):
    rows = Seat.objects.filter(game_id=game_id).select_related("user", "game")
    return rows.annotate(**policies.access_annotations(user=user)).order_by("number", "join_order")


@dataclass(frozen=True)
class _Viewer:
    """The viewer as the features' access columns see it (``games.policies.register_access_columns``)."""

    pk: int
    is_authenticated: bool = True


def _access_rows_of_user(game_id: int, user_id: int):
    return _access_rows(game_id, _Viewer(user_id))


def _access_rows_of_anyone(game_id: int):
    from django.contrib.auth.models import AnonymousUser

    return _access_rows(game_id, AnonymousUser())


def _seat_view_rows(game_id: int, seat_number: int | None, log_times_for: int):
    rows = SeatView.objects.filter(game_id=game_id, seat_number=seat_number)
    if log_times_for:
        rows = rows.annotate(**_log_time_annotations(log_times_for))
    return rows.order_by("pk")[:1]


def seat_view_for(*, game: Game, seat_number: int | None, log_times_for: int = 0) -> SeatView | None:
    """The one SeatView row of that viewer (``None``: spectators); the whole log is not stored
    (``games.history.selectors.seat_view_with_log`` derives it for one viewer). ``log_times_for``: in the
    same query, what ``add_log_times`` needs to time the last that many events of the log."""
    if seat_number is None:
        found = precompiled.fetch(
            ("seat_view", None, log_times_for), lambda g: _seat_view_rows(g, None, log_times_for), (game.pk,)
        )
    else:
        found = precompiled.fetch(
            ("seat_view", "seat", log_times_for), lambda g, s: _seat_view_rows(g, s, log_times_for),
            (game.pk, seat_number),
        )
    row = found[0] if found else None
    if row is not None and log_times_for:
        row.log_platform_limit = log_times_for  # how many platform events came with it (``log_entries``)
    return row


@dataclass(frozen=True)
class PendingMove:
    """A one-tap move waiting for its player's confirmation (issue 19): what the move form calls it."""

    label: str


def pending_move(*, access, post) -> PendingMove | None:
    """The one-tap move ``post`` asks for, as the viewer's own move form names it, if it is one of the
    viewer's legal moves now; ``None`` otherwise (the post then goes its normal way and is refused with
    the reason). One query: the viewer's SeatView row."""
    from games.ui import BadMoveInput, get_ui

    seat = access.seat
    if seat is None or seat.is_bot or access.game.status != GameStatus.ACTIVE:
        return None
    row = seat_view_for(game=access.game, seat_number=seat.number)
    if row is None or not row.legal_moves:
        return None
    ui = get_ui(access.game.engine_slug)
    try:
        move = ui.parse_move(post, legal_moves=row.legal_moves)
    except BadMoveInput:
        return None
    view = {**row.view, "log": row.log_tail}
    label = ui.confirm_label(
        view=view, legal_moves=row.legal_moves, seat=seat.number, players=player_dicts(access.seats), move=move
    )
    return PendingMove(label=label)


def page_token(*, game: Game, seats: list[Seat], activity: int = 0) -> str:
    """What the live partial compares: changes with every move, the start/end, each join or leave, and
    the table's activity (``together``: a chat message, a resignation, a call-off, a rematch)."""
    return live_tokens.page_token(version=game.version, status=game.status, seat_count=len(seats), activity=activity)


def poll_token(*, game_id: int) -> tuple[str, bool] | None:
    """(page token, is public) in one query: the cheap "anything new?" of the polling partial."""
    activity = policies.activity_stamp_expression(OuterRef("pk"))
    row = (
        Game.objects.filter(pk=game_id)
        .annotate(seat_count=Count("seats"), activity_stamp=activity if activity is not None else Value(0))
        .values_list("version", "status", "seat_count", "visibility", "activity_stamp")
        .first()
    )
    if row is None:
        return None
    version, status, seat_count, visibility, activity = row
    token = live_tokens.page_token(version=version, status=status, seat_count=seat_count, activity=activity or 0)
    return token, visibility == Visibility.PUBLIC


@dataclass
class LogEntry:
    kind: str  # "engine" or "platform"
    event: dict | None = None
    platform: GameEvent | None = None
    index: int | None = None  # an engine event's place in the viewer's whole log
    at: datetime.datetime | None = None  # when it happened (the move that made it; the start for the deal)


def _log_time_annotations(events: int) -> dict:
    """For the game page's SeatView query (no query of their own): the log positions and times of the moves
    that logged the last ``events`` events, and each viewer's log length at the start (the STARTED event's
    positions). Every move logs at least one event for every viewer, so the latest ``events`` moves hold them
    all, and one more tells that the oldest of them began after an earlier move (``add_log_times``): a page
    reads as many moves as it shows lines, however long the game (it read 400, issue 33)."""
    moves = (
        Move.objects.filter(game_id=OuterRef("game_id"))
        .order_by("-sequence")
        .values(row=JSONObject(sequence="sequence", positions="log_positions", at="created_at"))[: events + 1]
    )
    started = GameEvent.objects.filter(game_id=OuterRef("game_id"), kind=GameEvent.Kind.STARTED).values(
        "log_positions"
    )[:1]
    # The table's latest platform events (joined, timeouts, ...) for ``log_entries``: no query of their own.
    platform = (
        GameEvent.objects.filter(game_id=OuterRef("game_id"))
        .exclude(kind=GameEvent.Kind.LEFT)
        .order_by("-id")
        .values(row=JSONObject(**{name: name for name in PLATFORM_EVENT_FIELDS}))[:events]
    )
    return {
        "log_moves": ArraySubquery(moves),
        "log_dealt": Subquery(started, output_field=JSONField()),
        "log_platform": ArraySubquery(platform),
    }


# What a log line of a platform event reads (``games.page.platform_event_text``, ``LogEntry.at``).
PLATFORM_EVENT_FIELDS = ("id", "game_id", "kind", "seat_number", "name", "version", "log_positions", "created_at")


def _platform_events_of(seat_view: SeatView | None, needed: int) -> list[GameEvent] | None:
    """The latest ``needed`` platform events, newest first, if they came with ``seat_view``
    (``seat_view_for(log_times_for=n)`` with n ≥ ``needed``); ``None``: they must be read."""
    rows = getattr(seat_view, "log_platform", None)
    if rows is None or needed > getattr(seat_view, "log_platform_limit", 0):
        return None
    return [
        GameEvent(**{**row, "created_at": datetime.datetime.fromisoformat(row["created_at"])})
        for row in rows[:needed]
    ]


def add_log_times(
    *, game: Game, seat_number: int | None, entries: list[LogEntry], seat_view: SeatView | None = None
) -> None:
    """Give each engine event the time of the move that logged it, from the moves' ``log_positions`` (each
    viewer's log length after the move): the event at index ``i`` belongs to the first move whose length
    exceeds ``i``; an event of the deal (before the STARTED event's length) to the start. Platform events
    have their own time. With a ``seat_view`` from ``seat_view_for(log_times_for=n)`` no query (the
    moves it needs came with it); else two (the whole-log page: every move). Moves
    made before positions were kept give no time."""
    for entry in entries:
        if entry.kind == "platform":
            entry.at = entry.platform.created_at
    if not any(entry.kind == "engine" and entry.index is not None for entry in entries):
        return
    key = viewer_key(seat_number)
    if seat_view is not None and hasattr(seat_view, "log_moves"):
        rows = [
            (row["sequence"], row["positions"], datetime.datetime.fromisoformat(row["at"]))
            for row in seat_view.log_moves or []
        ]
        dealt_positions = seat_view.log_dealt
    else:
        rows = list(
            Move.objects.filter(game=game).order_by("-sequence").values_list("sequence", "log_positions", "created_at")
        )
        dealt_positions = (
            GameEvent.objects.filter(game=game, kind=GameEvent.Kind.STARTED).values_list("log_positions", flat=True)
        ).first()
    dealt = dealt_positions.get(key, 0) if isinstance(dealt_positions, dict) else 0
    known = sorted(
        (sequence, positions[key], at)
        for sequence, positions, at in rows
        if isinstance(positions, dict) and key in positions
    )
    sizes = [size for _sequence, size, _at in known]
    for entry in entries:
        if entry.kind != "engine" or entry.index is None:
            continue
        if entry.index < dealt and game.started_at is not None:
            entry.at = game.started_at
            continue
        position = bisect.bisect_right(sizes, entry.index)
        # Past the last known move, or before the first one when older moves kept no positions: unknown.
        if position < len(known) and (position > 0 or known[0][0] == 1):
            entry.at = known[position][2]


def log_entries(
    *,
    game: Game,
    seat_view: SeatView | None,
    seat_number: int | None,
    full_log: list[dict] | None = None,
    limit: int | None = None,
    annotate=None,
) -> list[LogEntry]:
    """The viewer's log, oldest first: engine events from the viewer's own view, with the table's
    platform events (joined, timeouts, dropped out) at the places they happened. One query; none when the
    events came with ``seat_view`` (``seat_view_for(log_times_for=n)``, n ≥ ``limit``: the game page).

    ``full_log``: the viewer's whole engine log (``games.history.selectors.seat_view_with_log``), for the
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
    if annotate is not None:
        engine_events = annotate(engine_events)  # one for one (GameUI.annotated_log)
    key = "spectator" if seat_number is None else str(seat_number)
    events_qs = GameEvent.objects.filter(game=game).exclude(kind=GameEvent.Kind.LEFT).order_by("-id")
    came_along = None if full else _platform_events_of(seat_view, limit or 30)
    if came_along is not None:
        events_qs = came_along
    elif not full:
        events_qs = events_qs[: (limit or 30)]
    platform = sorted(events_qs, key=lambda e: e.id)
    entries: list[LogEntry] = []
    # The start is told before the deal it brought ("The game started", then "Round 1 begins", issue 19): its
    # stored position (the log's length after the deal) stays as it is, for the deal's times and the replay.
    queue = sorted(
        (
            (0 if e.kind == GameEvent.Kind.STARTED else (e.log_positions.get(key, 0) if e.log_positions else 0), e)
            for e in platform
        ),
        key=lambda item: item[0],
    )
    qi = 0
    for index, event in enumerate(engine_events, start=offset):
        while qi < len(queue) and queue[qi][0] <= index:
            if full or queue[qi][0] >= offset:
                entries.append(LogEntry("platform", platform=queue[qi][1]))
            qi += 1
        entries.append(LogEntry("engine", event=event, index=index))
    for _pos, event in queue[qi:]:
        entries.append(LogEntry("platform", platform=event))
    if limit is not None:
        entries = entries[-limit:]
    return entries


@dataclass
class MyGames:
    awaiting: list[Seat] = field(default_factory=list)
    waiting: list[Seat] = field(default_factory=list)
    open: list[Seat] = field(default_factory=list)
    invitations: list[Invitation] = field(default_factory=list)
    finished: HistoryPage | None = None


def my_games(*, user, finished_page: int | str | None = 1) -> MyGames:
    """The "My games" sections; a fixed number of queries however many games the user played."""
    result = MyGames()
    # finished_at IS NULL: a range of games_seat_unfinished_idx, not every seat the user ever had.
    current = (
        Seat.objects.filter(user=user, finished_at__isnull=True, game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE])
        .select_related("game")
        .prefetch_related(seats_prefetch())
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
