"""The stored game shared by the lobby, play and history services: the game row locked with its
seats, views and state (``Table``), the engine state in the database, every viewer's stored view,
and the seed arithmetic. Writes only; nothing here is a user-facing service.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.db import connection

from clocks import turns as clock_turns
from games import precompiled
from games.exceptions import (
    BadInput,
    GameNotFound,
    NotSeated,
)
from games.models import (
    Game,
    GameEvent,
    GameLogChunk,
    GameState,
    GameStatus,
    Seat,
    SeatView,
)
from games.seating import seat_order  # noqa: F401 - its home before issue 27; callers import it here

logger = logging.getLogger(__name__)


LOG_TAIL = 30  # engine log events kept on each SeatView for pages, at least


LOG_TAIL_MAX = 200  # ...and at most, when the current round is longer than LOG_TAIL


ROUND_START_EVENTS = frozenset({"round", "round_start"})


SPECTATOR_KEY = "spectator"


def log_tail(log: list[dict]) -> list[dict]:
    """The events a page shows: the whole current round (a Mamma Mia! page lists what
    the viewer heard since the round began), and never fewer than LOG_TAIL or more
    than LOG_TAIL_MAX, so a page's size does not grow with the game."""
    start = max(0, len(log) - LOG_TAIL)
    for index in range(len(log) - 1, max(-1, len(log) - LOG_TAIL_MAX - 1), -1):
        if log[index].get("type") in ROUND_START_EVENTS:
            start = min(start, index)
            break
    return log[start:]


def new_seed() -> int:
    """A fresh 128-bit random number."""
    return secrets.randbits(128)


def seed_sha256(seed: int | str) -> str:
    """What the game page shows from the start: SHA-256 of the seed's decimal digits."""
    return hashlib.sha256(str(int(seed)).encode()).hexdigest()


def viewer_key(seat_number: int | None) -> str:
    return SPECTATOR_KEY if seat_number is None else str(seat_number)


def _split_view(view: dict) -> tuple[dict, list]:
    view = dict(view)
    log = view.pop("log", None) or []
    return view, log


def clean_options(engine, options: dict[str, Any] | None) -> dict[str, Any]:
    """Options a player may choose (the engine's ``options``), validated; ``BadInput`` otherwise."""
    options = dict(options or {})
    for name, value in options.items():
        if name not in engine.options or value not in engine.options[name]:
            raise BadInput()
    return options


@dataclass
class Table:
    """A game row locked FOR UPDATE with everything a move needs."""

    game: Game
    seats: list[Seat]
    views: dict[int | None, SeatView] = field(default_factory=dict)
    state_row: GameState | None = None

    def seat(self, number: int) -> Seat:
        for seat in self.seats:
            if seat.number == number:
                return seat
        raise NotSeated()

    def seat_of(self, user) -> Seat | None:
        for seat in self.seats:
            if seat.user_id == user.pk:
                return seat
        return None


def lock_table(game_id: int, *, with_state: bool = True) -> Table:
    """Lock the game row, then its state row (optionally), and load its seats and seat views: 3-5 queries.

    The one lock order of every path that changes a game (issue 29 item 6): the game row first, alone, then
    what hangs off it (its state, seats, call-off proposal...). Locking the state and the game in one joined
    statement took them state first, so a path holding the game row (adding the last bot starts the game and
    writes its state) and one taking both deadlocked.
    """
    if not isinstance(game_id, int) or isinstance(game_id, bool):
        try:
            game_id = int(str(game_id))
        except (ValueError, TypeError):
            raise GameNotFound() from None
    if not 0 < game_id < 2**63:
        raise GameNotFound()
    # Each statement compiled once per process (``games.precompiled``): a move's path is these and the writes.
    state_row = None
    found = precompiled.fetch(("lock_table", "game"), _locked_game, (game_id,))
    if not found:
        raise GameNotFound()
    game = found[0]
    if with_state:
        # Locked too, not just read: whoever changes a state holds this lock, and a read after it, in a
        # statement of its own, sees the state the last move committed.
        found = precompiled.fetch(("lock_table", "state"), _locked_state, (game.pk,))
        if not found:
            raise GameNotFound()
        state_row = found[0]
        state_row.game = game
    seats = precompiled.fetch(("lock_table", "seats"), _table_seats, (game.pk,))
    table = Table(game=game, seats=seats)
    if game.status != GameStatus.OPEN:
        # The move recomputes every viewer's whole log anyway when the engine does not log per event.
        whole = not logs_per_event(game.engine)
        rows = precompiled.fetch(("lock_table", "views", whole), lambda g: _table_views(g, whole), (game.pk,))
        table.views = {v.seat_number: v for v in rows}
    table.state_row = state_row
    return table


def _locked_game(game_id: int):
    return Game.objects.select_for_update().filter(pk=game_id)


def _locked_state(game_id: int):
    return GameState.objects.select_for_update().filter(game_id=game_id)


def _table_seats(game_id: int):
    return Seat.objects.filter(game_id=game_id).select_related("user").order_by("number", "join_order")


def _table_views(game_id: int, whole_log: bool):
    rows = SeatView.objects.filter(game_id=game_id)
    return rows.defer("log_tail") if whole_log else rows


def logs_per_event(engine) -> bool:
    """The engine only appends to its log, and views it event by event: its state row is stored
    without the log (``store_state``), and a move views only its new events."""
    return getattr(engine, "per_event_log", False)


def store_state(table: Table, state: dict) -> None:
    """Write ``state`` to the locked state row: one query.

    For a ``per_event_log`` engine the row keeps ``"log": []`` and ``state["log"]`` (which must
    hold only events not stored yet: a state played from the stored one, or a fresh set-up) is
    inserted as one ``GameLogChunk`` in the same statement, so a move reads and rewrites a row of
    the same size early or late in a game, and ``play`` copies an empty log. Other engines (Mamma
    Mia!'s ``memory`` option views the log as a whole) keep the whole state in the row.
    """
    state_row = table.state_row
    if not logs_per_event(table.game.engine):
        state_row.state = state
        state_row.save(update_fields=["state"])
        return
    events = state["log"]
    stored = {**state, "log": []}
    first = state_row.log_length
    update = f"UPDATE {GameState._meta.db_table} SET state = %s::jsonb, log_length = %s WHERE game_id = %s"  # noqa: S608
    params: list[Any] = [json.dumps(stored), first + len(events), state_row.game_id]
    if events:
        # A data-modifying CTE: the chunk's INSERT costs no query of its own.
        chunk = GameLogChunk._meta.db_table
        insert = f"INSERT INTO {chunk} (game_id, first_index, events) VALUES (%s, %s, %s::jsonb)"  # noqa: S608
        update = f"WITH chunk AS ({insert}) {update}"
        params = [state_row.game_id, first, json.dumps(events), *params]
    with connection.cursor() as cursor:
        cursor.execute(update, params)
    state_row.state, state_row.log_length = stored, first + len(events)


def with_whole_log(game: Game, stored: dict | None, log_length: int) -> dict | None:
    """``stored`` (a state row's ``state``) with the engine's whole log: for a ``per_event_log``
    engine, the first ``log_length`` events of its chunks (so a state row read earlier gets the log
    of its own version, not a later move's). One query for those engines, none for others."""
    if not stored or not logs_per_event(game.engine):
        return stored
    chunks = GameLogChunk.objects.filter(game_id=game.pk, first_index__lt=log_length).order_by("first_index")
    log = [event for events in chunks.values_list("events", flat=True) for event in events]
    return {**stored, "log": log[:log_length]}


def full_state(game: Game) -> dict | None:
    """The engine's whole state of ``game`` now, log included (``None`` before the start): what
    the replay, snapshot and deal checks, the whole-log page, the API and e-mails derive from.
    Server-only, like ``GameState``. Two queries for a ``per_event_log`` engine, else one."""
    row = GameState.objects.filter(game_id=game.pk).values("state", "log_length").first()
    return with_whole_log(game, row["state"], row["log_length"]) if row else None


def compute_views(engine, state: dict, players: int, *, since: int = 0) -> dict[int | None, tuple[dict, list, list]]:
    """Per viewer: (view without log, log, legal moves).

    With ``since`` (only for an engine with ``per_event_log``), the log is only that viewer's
    share of the events from ``state["log"][since]`` on: the engine views a shallow copy of the
    state whose log holds just those, so a move costs the same early or late in a game.
    """
    if since:
        state = {**state, "log": state["log"][since:]}
    result: dict[int | None, tuple[dict, list, list]] = {}
    for seat_number in [*range(players), None]:
        view, log = _split_view(engine.view(state, seat_number))
        legal = engine.legal_moves(state, seat_number) if seat_number is not None else []
        result[seat_number] = (view, log, legal)
    return result


def round_of(computed) -> int | None:
    """The round every viewer's view shows (``compute_views``' spectator view), for ``Game.round``."""
    number = computed[None][0].get("round") if None in computed else None
    return number if isinstance(number, int) and not isinstance(number, bool) and 0 <= number < 32768 else None


def write_views(
    table: Table, computed, *, version: int, movers: set[int], appended: bool = False
) -> dict[int | None, list[dict]]:
    """Update (or create) every SeatView row from freshly computed views: one query.

    Each row keeps only the bounded ``log_tail`` and ``log_size``, never the whole
    log: rewriting every viewer's whole log made a move near the end of a long game
    cost ten times one near its start. ``appended``: each computed log holds only the
    viewer's events since its row was written (``compute_views`` with ``since``); they
    extend the stored tail, which is cut again (the tail keeps at least LOG_TAIL events,
    so this is the tail of the whole log). Returns each viewer's whole log when it was
    computed (already in memory) for the receivers of this move's signal; else ``{}``.
    """
    to_update, to_create = [], []
    logs: dict[int | None, list[dict]] = {}
    for seat_number, (view, log, legal) in computed.items():
        row = table.views.get(seat_number)
        creating = row is None
        if creating:
            row = SeatView(game=table.game, seat_number=seat_number)
        if appended:
            size, tail = row.log_size + len(log), log_tail(row.log_tail + log) if log else row.log_tail
        else:
            size, tail = len(log), log_tail(log)
            logs[seat_number] = log
        view_changed = creating or row.view != view or row.log_size != size
        moves_changed = creating or seat_number in movers or row.legal_moves != legal
        row.view = view
        row.log_tail = tail
        row.log_size = size
        row.legal_moves = legal
        if view_changed:
            row.view_version = version
        if moves_changed:
            row.moves_version = version
        (to_create if creating else to_update).append(row)
        table.views[seat_number] = row
    if to_create:
        SeatView.objects.bulk_create(to_create)
    if to_update:
        update_rows(to_update, ["view", "log_tail", "log_size", "legal_moves", "view_version", "moves_version"])
    return logs


def update_rows(rows: list, fields: list[str]) -> None:
    """Write ``fields`` of ``rows`` (saved instances of one model) in one ``UPDATE ... FROM (VALUES ...)``.

    What ``QuerySet.bulk_update`` does in one query too, but its ``CASE WHEN id = ... THEN ...`` per
    field and row is built from ORM expressions: for the five SeatView rows of a move that cost about
    a quarter of the move's Django CPU. Values are prepared by each field as ``save()`` would.
    """
    meta = type(rows[0])._meta
    columns = [meta.pk, *(meta.get_field(name) for name in fields)]
    quote = connection.ops.quote_name
    row_sql = "(" + ", ".join(f"%s::{column.cast_db_type(connection)}" for column in columns) + ")"
    names = ", ".join(quote(column.column) for column in columns)
    assignments = ", ".join(f"{quote(column.column)} = v.{quote(column.column)}" for column in columns[1:])
    pk = quote(meta.pk.column)
    sql = (
        f"UPDATE {quote(meta.db_table)} AS t SET {assignments} "  # noqa: S608 - names from the model, values as parameters
        f"FROM (VALUES {', '.join([row_sql] * len(rows))}) AS v ({names}) WHERE t.{pk} = v.{pk}"
    )
    params = [column.get_db_prep_save(getattr(row, column.attname), connection) for row in rows for column in columns]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def update_awaited(table: Table, waiting: list[int], *, movers: set[int], now) -> list[Seat]:
    """Set ``awaited`` / ``awaited_since`` and each seat's clock (``clocks.turns``) from ``waiting``; the newly
    awaited seats. Each awaited seat has its own clock, so simultaneous turns charge each player their own."""
    control = table.game.time_control
    waiting_set = set(waiting)
    newly, changed = [], []
    for seat in table.seats:
        now_awaited = seat.number in waiting_set
        if now_awaited and (not seat.awaited or seat.number in movers):
            if seat.awaited:  # its turn goes on after its own move: charged, no increment yet
                clock_turns.stop_turn(seat, control, now, turn_over=False)
            seat.awaited, seat.awaited_since = True, now
            clock_turns.start_turn(seat, control, now)
            newly.append(seat)
            changed.append(seat)
        elif not now_awaited and seat.awaited:
            clock_turns.stop_turn(seat, control, now, turn_over=seat.number in movers)
            seat.awaited, seat.awaited_since = False, None
            changed.append(seat)
    if changed:
        update_rows(changed, ["awaited", "awaited_since", *clock_turns.CLOCK_FIELDS])
    return newly


def add_event(table: Table, kind: str, seat: Seat | None = None) -> GameEvent:
    positions = {viewer_key(number): row.log_size for number, row in table.views.items()}
    return GameEvent.objects.create(
        game=table.game,
        kind=kind,
        seat_number=seat.number if seat is not None else None,
        name=seat.name if seat is not None else "",
        user_id=seat.user_id if seat is not None else None,
        version=table.game.version,
        log_positions=positions,
    )
