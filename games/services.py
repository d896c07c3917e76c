"""Writes of the games platform (reads live in games.selectors).

A move flows: ``check_play_move`` locks the game row, checks version, seat,
turn and the stored legal moves, then ``do_play_move`` applies the engine and
writes the Move, the state and every SeatView in the same transaction. Bots
move later from a Celery task (``play_bot_turns``), never in someone's request.

Staleness: ``expected_version`` is the game version the player's page showed.
A move is stale when, since then, that seat moved or its legal moves changed
(``SeatView.moves_version``): another player's move that leaves my choices as
they were (a Konamon! neighbour choosing at the same time) does not make my
form stale, while two submissions for the same turn can never both apply.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import connection, transaction
from django.db.models import JSONField, OuterRef, Subquery
from django.utils import timezone

from clocks import turns as clock_turns
from clocks.arithmetic import InvalidTimeControl, TimeControl
from clocks.controls import game_fields
from games import signals
from games.engines import ENGINE_MODULES, get_engine
from games.engines import IllegalMove as EngineIllegalMove
from games.exceptions import (
    AlreadySeated,
    BadInput,
    GameError,
    GameFull,
    GameNotActive,
    GameNotOpen,
    IllegalMove,
    NotAllowed,
    NotSeated,
    NotYourTurn,
    StaleVersion,
)
from games.models import (
    Game,
    GameEvent,
    GameLogChunk,
    GameState,
    GameStatus,
    Invitation,
    MadeBy,
    Move,
    PlayerStats,
    Seat,
    SeatView,
    TimeLimit,
    Visibility,
    seat_colours,
)

logger = logging.getLogger(__name__)

LOG_TAIL = 30  # engine log events kept on each SeatView for pages, at least
LOG_TAIL_MAX = 200  # ...and at most, when the current round is longer than LOG_TAIL
ROUND_START_EVENTS = frozenset({"round", "round_start"})
BOT_MOVES_PER_TASK = 200  # a bot task re-queues itself after this many moves
TIMEOUT_MOVES_CAP = 50  # moves the bot may make for a timed-out seat in one go
DROP_OUT_AFTER_TIMEOUTS = 3
INVITE_SALT = "games.invite"

SPECTATOR_KEY = "spectator"


# Small helpers ---------------------------------------------------------------


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


def seat_order(seed: int | str, players: int) -> list[int]:
    """Which join position sits in which seat: ``order[seat] = join position``, drawn from the seed."""
    digest = hashlib.sha256(f"{int(seed)}:seats".encode()).digest()
    order = list(range(players))
    random.Random(int.from_bytes(digest[:16], "big")).shuffle(order)
    return order


def invite_token(game: Game) -> str:
    """A signed token for the invitation link of ``game``."""
    return signing.dumps(game.pk, salt=INVITE_SALT, compress=True)


def game_id_from_invite(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=INVITE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, int) else None


def _viewer_key(seat_number: int | None) -> str:
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


# Loading a game under its lock -----------------------------------------------


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


def _lock_table(game_id: int, *, with_state: bool = True) -> Table:
    """Lock the game row and load its seats, seat views and (optionally) state: 3-4 queries."""
    # The state row is locked too, not just joined: after waiting for a lock PostgreSQL
    # re-reads only the rows it locks, so a merely joined state could predate the move
    # that had just committed, and this move would apply to a stale state.
    state_row = None
    try:
        if with_state:
            state_row = GameState.objects.select_for_update().select_related("game").get(game_id=game_id)
            game = state_row.game
        else:
            game = Game.objects.select_for_update().get(pk=game_id)
    except (Game.DoesNotExist, GameState.DoesNotExist, ValueError, TypeError):
        raise NotSeated() from None
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("number", "join_order"))
    table = Table(game=game, seats=seats)
    if game.status != GameStatus.OPEN:
        rows = SeatView.objects.filter(game=game)
        if not _per_event_log(game.engine):
            rows = rows.defer("log_tail")  # the move recomputes every viewer's whole log anyway
        table.views = {v.seat_number: v for v in rows}
    table.state_row = state_row
    return table


# Storing the state --------------------------------------------------------------


def _per_event_log(engine) -> bool:
    """The engine only appends to its log, and views it event by event: its state row is stored
    without the log (``_store_state``), and a move views only its new events."""
    return getattr(engine, "per_event_log", False)


def _store_state(table: Table, state: dict) -> None:
    """Write ``state`` to the locked state row: one query.

    For a ``per_event_log`` engine the row keeps ``"log": []`` and ``state["log"]`` (which must
    hold only events not stored yet: a state played from the stored one, or a fresh set-up) is
    inserted as one ``GameLogChunk`` in the same statement, so a move reads and rewrites a row of
    the same size early or late in a game, and ``play`` copies an empty log. Other engines (Mamma
    Mia!'s ``memory`` option views the log as a whole) keep the whole state in the row.
    """
    state_row = table.state_row
    if not _per_event_log(table.game.engine):
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


def _with_whole_log(game: Game, stored: dict | None, log_length: int) -> dict | None:
    """``stored`` (a state row's ``state``) with the engine's whole log: for a ``per_event_log``
    engine, the first ``log_length`` events of its chunks (so a state row read earlier gets the log
    of its own version, not a later move's). One query for those engines, none for others."""
    if not stored or not _per_event_log(game.engine):
        return stored
    chunks = GameLogChunk.objects.filter(game_id=game.pk, first_index__lt=log_length).order_by("first_index")
    log = [event for events in chunks.values_list("events", flat=True) for event in events]
    return {**stored, "log": log[:log_length]}


def full_state(game: Game) -> dict | None:
    """The engine's whole state of ``game`` now, log included (``None`` before the start): what
    the replay, snapshot and deal checks, the whole-log page, the API and e-mails derive from.
    Server-only, like ``GameState``. Two queries for a ``per_event_log`` engine, else one."""
    row = GameState.objects.filter(game_id=game.pk).values("state", "log_length").first()
    return _with_whole_log(game, row["state"], row["log_length"]) if row else None


# Computing views ---------------------------------------------------------------


def _compute_views(engine, state: dict, players: int, *, since: int = 0) -> dict[int | None, tuple[dict, list, list]]:
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


def _write_views(
    table: Table, computed, *, version: int, movers: set[int], appended: bool = False
) -> dict[int | None, list[dict]]:
    """Update (or create) every SeatView row from freshly computed views: one query.

    Each row keeps only the bounded ``log_tail`` and ``log_size``, never the whole
    log: rewriting every viewer's whole log made a move near the end of a long game
    cost ten times one near its start. ``appended``: each computed log holds only the
    viewer's events since its row was written (``_compute_views`` with ``since``); they
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
        _update_rows(to_update, ["view", "log_tail", "log_size", "legal_moves", "view_version", "moves_version"])
    return logs


def _update_rows(rows: list, fields: list[str]) -> None:
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


def _update_awaited(table: Table, waiting: list[int], *, movers: set[int], now) -> list[Seat]:
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
        _update_rows(changed, ["awaited", "awaited_since", *clock_turns.CLOCK_FIELDS])
    return newly


def _add_event(table: Table, kind: str, seat: Seat | None = None) -> GameEvent:
    positions = {_viewer_key(number): row.log_size for number, row in table.views.items()}
    return GameEvent.objects.create(
        game=table.game,
        kind=kind,
        seat_number=seat.number if seat is not None else None,
        name=seat.name if seat is not None else "",
        version=table.game.version,
        log_positions=positions,
    )


def _schedule_bots(table: Table) -> None:
    """After commit, queue the bot task if a bot seat is awaited."""
    game = table.game
    if game.status != GameStatus.ACTIVE or not any(s.awaited and s.is_bot for s in table.seats):
        return
    game_id, version = game.pk, game.version

    def queue() -> None:
        from games.tasks import play_bot_moves

        play_bot_moves.apply_async(args=[game_id, version], countdown=settings.BOT_MOVE_DELAY_SECONDS)

    transaction.on_commit(queue)


# Creating, joining, leaving ----------------------------------------------------


@transaction.atomic
def create_game(
    *,
    user,
    engine_slug: str,
    players: int,
    options: dict[str, Any] | None = None,
    time_limit_hours: int = TimeLimit.NONE,
    time_control: TimeControl | None = None,
    visibility: str = Visibility.PUBLIC,
    bots: int = 0,
    allow_stacked_deal: bool = False,
) -> Game:
    """A new open game with the creator seated (and ``bots`` bot seats); starts at once if full.

    ``time_control`` (``clocks.arithmetic.TimeControl``) wins over ``time_limit_hours`` (a per-move limit, 0:
    none). ``allow_stacked_deal`` lets tests and tutorials pass the engines' ``deal`` option.
    """
    if engine_slug not in ENGINE_MODULES:
        raise BadInput()
    engine = get_engine(engine_slug)
    options = dict(options or {})
    deal = options.pop("deal", None)
    options = clean_options(engine, options)
    if deal is not None:
        if not allow_stacked_deal:
            raise BadInput()
        options["deal"] = deal
    if not isinstance(players, int) or not engine.min_players <= players <= engine.max_players:
        raise BadInput()
    if not isinstance(bots, int) or not 0 <= bots < players:
        raise BadInput()
    if time_limit_hours not in TimeLimit.values or visibility not in Visibility.values:
        raise BadInput()
    if time_control is not None and not isinstance(time_control, TimeControl):
        raise BadInput()
    try:
        clock = game_fields(time_control) if time_control is not None else None
    except InvalidTimeControl:
        raise BadInput() from None
    clock = clock or {
        "time_limit_hours": time_limit_hours, "clock": "move" if time_limit_hours else "none"
    }
    try:
        engine.setup(players, seed=0, options=options)
    except ValueError:
        raise BadInput() from None

    seed = new_seed()
    game = Game.objects.create(
        engine_slug=engine_slug,
        options=options,
        players=players,
        seed_sha256=seed_sha256(seed),
        visibility=visibility,
        **clock,
        created_by=user,
    )
    GameState.objects.create(game=game, seed=str(seed))
    seats = [Seat(game=game, user=user, join_order=0)]
    seats += [Seat(game=game, is_bot=True, join_order=i + 1) for i in range(bots)]
    Seat.objects.bulk_create(seats)
    table = Table(game=game, seats=list(Seat.objects.filter(game=game).select_related("user")))
    if len(table.seats) == players:
        _start(table)
    return game


@transaction.atomic
def join_game(*, user, game_id: int, invite: str | None = None) -> Seat:
    """Take a free seat; the game starts when the last seat is taken.

    Private games need an invitation for ``user`` or a valid invitation link token.
    """
    table = _lock_table(game_id, with_state=False)
    game = table.game
    if game.status != GameStatus.OPEN:
        raise GameNotOpen()
    if table.seat_of(user) is not None:
        raise AlreadySeated()
    invitation = Invitation.objects.filter(game=game, user=user, status=Invitation.Status.PENDING).first()
    if game.visibility == Visibility.PRIVATE and invitation is None and game_id_from_invite(invite or "") != game.pk:
        raise NotAllowed()
    if len(table.seats) >= game.players:
        raise GameFull()
    join_order = (max(s.join_order for s in table.seats) + 1) if table.seats else 0
    seat = Seat.objects.create(game=game, user=user, join_order=join_order)
    seat.user = user
    table.seats.append(seat)
    if invitation is not None:
        invitation.status = Invitation.Status.ACCEPTED
        invitation.save(update_fields=["status"])
    _add_event(table, GameEvent.Kind.JOINED, seat)
    if len(table.seats) == game.players:
        table.state_row = GameState.objects.get(game=game)
        _start(table)
    return seat


@transaction.atomic
def leave_game(*, user, game_id: int) -> None:
    """Give up one's seat before the start (the creator cancels instead)."""
    table = _lock_table(game_id, with_state=False)
    if table.game.status != GameStatus.OPEN:
        raise GameNotOpen()
    seat = table.seat_of(user)
    if seat is None:
        raise NotSeated()
    if table.game.created_by_id == user.pk:
        raise NotAllowed()
    seat.delete()
    GameEvent.objects.create(game=table.game, kind=GameEvent.Kind.LEFT, name=user.public_name)


@transaction.atomic
def cancel_game(*, user, game_id: int) -> None:
    """The creator calls an open game off."""
    table = _lock_table(game_id, with_state=False)
    game = table.game
    if game.created_by_id != user.pk:
        raise NotAllowed()
    if game.status != GameStatus.OPEN:
        raise GameNotOpen()
    game.status = GameStatus.CANCELLED
    game.save(update_fields=["status"])
    Invitation.objects.filter(game=game, status=Invitation.Status.PENDING).update(status=Invitation.Status.DECLINED)
    GameEvent.objects.create(game=game, kind=GameEvent.Kind.CANCELLED)
    signals.game_cancelled.send(sender=Game, game=game)


@transaction.atomic
def invite_user(*, user, game_id: int, username: str) -> Invitation:
    """A seated player invites another user by username to an open game."""
    table = _lock_table(game_id, with_state=False)
    if table.game.status != GameStatus.OPEN:
        raise GameNotOpen()
    if table.seat_of(user) is None:
        raise NotSeated()
    from django.utils.translation import gettext as _

    invitee = get_user_model().objects.filter(username__iexact=(username or "").strip(), is_active=True).first()
    if invitee is None:
        raise BadInput(_("There is no player called “%(name)s”.") % {"name": username})
    if table.seat_of(invitee) is not None:
        raise AlreadySeated(_("%(name)s already has a seat at this game.") % {"name": invitee.public_name})
    invitation, created = Invitation.objects.get_or_create(game=table.game, user=invitee, defaults={"invited_by": user})
    if not created:
        if invitation.status == Invitation.Status.PENDING:
            raise BadInput(_("%(name)s is already invited.") % {"name": invitee.public_name})
        invitation.status, invitation.invited_by = Invitation.Status.PENDING, user
        invitation.save(update_fields=["status", "invited_by"])
    signals.invitation_created.send(sender=Game, invitation=invitation)
    return invitation


def decline_invitation(*, user, invitation_id: int) -> None:
    updated = Invitation.objects.filter(pk=invitation_id, user=user, status=Invitation.Status.PENDING).update(
        status=Invitation.Status.DECLINED
    )
    if not updated:
        raise NotAllowed()


def _start(table: Table) -> None:
    """Draw the seat order from the seed, set the engine up and write every view."""
    game = table.game
    state_row = table.state_row or GameState.objects.get(game=game)
    table.state_row = state_row
    seed = int(state_row.seed)
    by_join = sorted(table.seats, key=lambda s: s.join_order)
    order = seat_order(seed, game.players)
    colours = seat_colours(game.engine_slug, game.players)
    seats = []
    for number, join_position in enumerate(order):
        seat = by_join[join_position]
        seat.number, seat.colour = number, colours[number] if number < len(colours) else ""
        seats.append(seat)
    Seat.objects.bulk_update(seats, ["number", "colour"])
    table.seats = seats

    engine = game.engine
    state = engine.setup(game.players, seed=seed, options=game.options)
    _store_state(table, state)
    now = timezone.now()
    game.status, game.started_at = GameStatus.ACTIVE, now
    game.save(update_fields=["status", "started_at"])
    logs = _write_views(table, _compute_views(engine, state, game.players), version=game.version, movers=set())
    newly = _update_awaited(table, engine.waiting_for(state), movers=set(), now=now)
    _add_event(table, GameEvent.Kind.STARTED)
    signals.game_started.send(sender=Game, game=game, seats=list(table.seats))
    signals.game_advanced.send(
        sender=Game, game=game, newly_awaited_seats=newly, moves=[], seat_views=dict(table.views), seat_logs=logs
    )
    _schedule_bots(table)


# Moves -----------------------------------------------------------------------


@dataclass
class MoveResult:
    game: Game
    move: Move | None
    replayed: bool = False  # the idempotency key had been applied already: nothing changed


def _parse_key(idempotency_key) -> uuid.UUID | None:
    if idempotency_key in (None, ""):
        return None
    try:
        return idempotency_key if isinstance(idempotency_key, uuid.UUID) else uuid.UUID(str(idempotency_key))
    except (ValueError, TypeError, AttributeError):
        raise BadInput() from None


def parse_version(expected_version) -> int:
    if isinstance(expected_version, bool):
        raise BadInput()
    try:
        version = int(expected_version)
    except (ValueError, TypeError, OverflowError):
        raise BadInput() from None
    if version < 0:
        raise BadInput()
    return version


def check_play_move(*, user, game_id, move, expected_version, idempotency_key=None) -> MoveResult:
    """Check and apply ``user``'s move in one transaction; raises a ``GameError`` and changes nothing otherwise.

    ``move`` is the move dict, or a callable ``parse(game, legal_moves) -> move``
    run under the lock with the seat's stored legal moves (the page's form
    parser: it saves reading the SeatView twice). A replay of an idempotency key
    already applied for the same seat returns ``replayed=True`` and changes
    nothing; the key is looked up only when the move is refused, as a replay
    always is (its seat has moved since).
    """
    key = _parse_key(idempotency_key)
    version = parse_version(expected_version)
    with transaction.atomic():
        table = _lock_table(game_id)
        game = table.game
        seat = table.seat_of(user)
        try:
            if seat is None:
                raise NotSeated()
            if game.status != GameStatus.ACTIVE:
                raise GameNotActive()
            seat_view = table.views[seat.number]
            if version > game.version or version < seat_view.moves_version:
                raise StaleVersion()
            if not seat.awaited:
                raise NotYourTurn()
            if seat.is_bot:
                from django.utils.translation import gettext as _

                raise NotYourTurn(_("The bot plays this seat now."))
            chosen = move(game, seat_view.legal_moves) if callable(move) else move
            try:
                canonical = seat_view.legal_moves[seat_view.legal_moves.index(chosen)]
            except ValueError:
                raise _refusal(game, table.state_row.state, seat.number, chosen) from None
        except GameError:
            if key is not None:
                done = Move.objects.filter(game=game, idempotency_key=key).first()
                if done is not None and seat is not None and done.seat_number == seat.number:
                    return MoveResult(game=game, move=done, replayed=True)
            raise
        applied = do_play_move(table=table, seat=seat, move=canonical, made_by=MadeBy.PLAYER, idempotency_key=key)
        _schedule_bots(table)
        return MoveResult(game=game, move=applied)


def _refusal(game: Game, state: dict, seat_number: int, move: dict) -> IllegalMove:
    """The engine's own reason for refusing ``move`` (translated), or a generic one."""
    try:
        game.engine.play(state, seat_number, move)
    except EngineIllegalMove as exc:
        return IllegalMove(engine_error=exc)
    except Exception:  # noqa: BLE001 - whatever the engine thinks of garbage, it stays a refusal
        logger.info("engine raised on a refused move in game %s", game.pk, exc_info=True)
    return IllegalMove()


def do_play_move(
    *,
    game: Game | None = None,
    seat: Seat,
    move: dict,
    made_by: str,
    table: Table | None = None,
    idempotency_key: uuid.UUID | None = None,
) -> Move:
    """Apply a checked move: the engine, the Move row, the state, every SeatView and the awaited seats.

    Must run inside the transaction that locked the game (``table`` from
    ``_lock_table``); sends ``game_advanced`` (and ``game_finished``) inside it.
    """
    if table is None:
        table = _lock_table(game.pk)
    game = table.game
    engine = game.engine
    state_row = table.state_row
    try:
        state = engine.play(state_row.state, seat.number, move)
    except EngineIllegalMove as exc:
        raise IllegalMove(engine_error=exc) from exc
    # ``play`` never changes its input, so the old log's length says where this move's events begin
    # (0 for a ``per_event_log`` engine: its stored state has an empty log).
    since = len(state_row.state["log"])
    now = timezone.now()
    game.version += 1
    # The row lock makes the sequence (and the idempotency key, checked under it) unique.
    applied = Move.objects.create(
        game=game,
        sequence=game.version,
        seat_number=seat.number,
        move=move,
        made_by=made_by,
        idempotency_key=idempotency_key,
    )
    _store_state(table, state)
    movers = {seat.number}
    # Each viewer's new events only, added to its stored tail, when the engine allows it and every
    # row is there to extend (always, once started); else every viewer's whole log.
    appended = _per_event_log(engine) and all(n in table.views for n in [*range(game.players), None])
    if appended:
        computed = _compute_views(engine, state, game.players, since=since)
    else:
        whole = _with_whole_log(game, state_row.state, state_row.log_length) if _per_event_log(engine) else state
        computed = _compute_views(engine, whole, game.players)
    logs = _write_views(table, computed, version=game.version, movers=movers, appended=appended)
    over = engine.is_over(state)
    waiting = [] if over else engine.waiting_for(state)
    newly = _update_awaited(table, waiting, movers=movers, now=now)
    fields = ["version"]
    if over:
        _finish(table, state, now)
        fields += ["status", "finished_at", "outcome", "revealed_seed"]
    game.save(update_fields=fields)
    signals.game_advanced.send(
        sender=Game, game=game, newly_awaited_seats=newly, moves=[applied], seat_views=dict(table.views), seat_logs=logs
    )
    if over:
        signals.game_finished.send(sender=Game, game=game)
    return applied


def _finish(table: Table, state: dict, now) -> None:
    game = table.game
    outcome = game.engine.outcome(state)
    game.status, game.finished_at, game.outcome = GameStatus.FINISHED, now, outcome
    game.revealed_seed = table.state_row.seed
    by_number = {row["seat"]: row for row in outcome}
    for seat in table.seats:
        row = by_number.get(seat.number, {})
        seat.final_rank, seat.final_score = row.get("rank"), row.get("score")
        seat.finished_at = now
    Seat.objects.bulk_update(table.seats, ["final_rank", "final_score", "finished_at"])
    record_finished_seats(engine_slug=game.engine_slug, seats=table.seats)


# Player statistics ----------------------------------------------------------------

STATS_COUNTERS = ("played", "won", "ranked", "places_sum", "dropped")


def record_finished_seats(*, engine_slug: str, seats: Iterable[Seat]) -> None:
    """Add finished seats of ``engine_slug`` games to their players' ``PlayerStats``: one query.

    ``_finish`` calls it in the transaction that ends the game (the bench's bulk histories
    too), so the counters always equal the aggregate over the player's finished seats.
    """
    totals: dict[tuple[int, str], list[int]] = {}
    for seat in seats:
        if seat.user_id is None:
            continue
        counts = totals.setdefault((seat.user_id, engine_slug), [0] * len(STATS_COUNTERS))
        counts[0] += 1
        counts[1] += seat.final_rank == 1
        if seat.final_rank is not None:
            counts[2] += 1
            counts[3] += seat.final_rank
        counts[4] += seat.dropped_out
    _add_to_player_stats(totals)


def _add_to_player_stats(deltas: dict[tuple[int, str], list[int]]) -> None:
    """Add ``deltas`` (per (user id, engine slug), counters in ``STATS_COUNTERS`` order).

    One INSERT ... ON CONFLICT DO UPDATE that adds to the stored counters: two games ending
    at once for the same player each add their own, where the ORM's upsert would overwrite.
    Rows go in key order, so two such statements lock the rows they share in the same order.
    """
    if not deltas:
        return
    table = PlayerStats._meta.db_table
    columns = ", ".join(STATS_COUNTERS)
    updates = ", ".join(f"{name} = {table}.{name} + EXCLUDED.{name}" for name in STATS_COUNTERS)
    rows = sorted(deltas.items())
    placeholders = ", ".join(["(" + ", ".join(["%s"] * (2 + len(STATS_COUNTERS))) + ")"] * len(rows))
    params = [value for (user_id, slug), counts in rows for value in (user_id, slug, *counts)]
    with connection.cursor() as cursor:
        # Only names from the model and STATS_COUNTERS are formatted in; every value is a parameter.
        insert = f"INSERT INTO {table} (user_id, engine_slug, {columns}) VALUES {placeholders}"  # noqa: S608
        cursor.execute(f"{insert} ON CONFLICT (user_id, engine_slug) DO UPDATE SET {updates}", params)


# Bots and timeouts -----------------------------------------------------------------


def play_bot_turns(*, game_id: int, expected_version: int | None = None) -> int:
    """Play ``engine.bot_move`` for awaited bot seats, one transaction per move; the number played.

    Returns at once if the game is no longer at ``expected_version`` (someone
    else moved: whoever did queued the bots again) or has ended. Re-queues the
    task after ``BOT_MOVES_PER_TASK`` moves if bots are still awaited.
    """
    played = 0
    while played < BOT_MOVES_PER_TASK:
        with transaction.atomic():
            table = _lock_table(game_id)
            game = table.game
            if game.status != GameStatus.ACTIVE:
                return played
            if expected_version is not None and game.version != expected_version:
                return played
            bots = [s for s in table.seats if s.awaited and s.is_bot]
            if not bots:
                return played
            seat = bots[0]
            move = game.engine.bot_move(table.state_row.state, seat.number)
            do_play_move(table=table, seat=seat, move=move, made_by=MadeBy.BOT)
            played += 1
            expected_version = game.version
            if played == BOT_MOVES_PER_TASK:
                _schedule_bots(table)
    return played


def play_timeout_move(*, game_id: int, seat_number: int, expected_version: int) -> list[Move]:
    """Time ran out for ``seat_number``: the bot plays for it (recorded as ``timeout``).

    Called by the deadline code with the version it saw; does nothing (returns
    ``[]``) if the game has moved on, ended, or no longer awaits that seat. The
    bot keeps playing while the game awaits that same seat (a Konamon! card's
    steps are one turn). One timeout is counted; after the third the seat is
    handed to the bot for good (``is_bot``, ``dropped_out``; the user stays for
    history). Each is logged as a platform event everyone sees.
    """
    with transaction.atomic():
        table = _lock_table(game_id)
        game = table.game
        if game.status != GameStatus.ACTIVE or game.version != expected_version:
            return []
        try:
            seat = table.seat(seat_number)
        except NotSeated:
            return []
        if not seat.awaited:
            return []
        moves = []
        while seat.awaited and game.status == GameStatus.ACTIVE and len(moves) < TIMEOUT_MOVES_CAP:
            move = game.engine.bot_move(table.state_row.state, seat.number)
            moves.append(do_play_move(table=table, seat=seat, move=move, made_by=MadeBy.TIMEOUT))
        seat.timeouts += 1
        dropped = not seat.is_bot and seat.timeouts >= DROP_OUT_AFTER_TIMEOUTS
        fields = ["timeouts", *clock_turns.after_timeout(seat, game.time_control)]
        if dropped:
            seat.is_bot, seat.dropped_out = True, True
            fields += ["is_bot", "dropped_out"]
        seat.save(update_fields=fields)
        if dropped and game.status == GameStatus.FINISHED:
            # The timed-out move ended the game: _finish counted this seat before it dropped out.
            _add_to_player_stats({(seat.user_id, game.engine_slug): [0, 0, 0, 0, 1]})
        _add_event(table, GameEvent.Kind.TIMEOUT, seat)
        if dropped:
            _add_event(table, GameEvent.Kind.DROPPED_OUT, seat)
        signals.seat_timed_out.send(sender=Game, game=game, seat=seat, dropped_out=dropped)
        _schedule_bots(table)
        return moves


# One viewer's whole log -----------------------------------------------------------


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
    state = _with_whole_log(game, row.game_state, row.game_log_length)
    return row, game.engine.view(state, seat_number)["log"]


def viewer_log(*, game: Game, seat_number: int | None) -> list[dict]:
    """The whole engine log as ``seat_number`` (``None``: spectators) sees it now: one query
    (two with log chunks)."""
    state = full_state(game)
    return game.engine.view(state, seat_number)["log"] if state else []


# Visits ------------------------------------------------------------------------


def mark_visited(*, seat_id: int, version: int) -> None:
    """The player opened the game page at ``version`` (for "once until I visit")."""
    Seat.objects.filter(pk=seat_id).update(last_seen_version=version, last_visited_at=timezone.now())


def note_visit(*, seat: Seat, version: int) -> None:
    """``mark_visited``, unless ``seat`` (as read for this page) already records a visit at ``version``
    or later: no UPDATE for every view and poll of an unchanged game. What "once until I visit"
    compares still holds: a turn e-mail is queued only in a transaction that starts the game (its
    first visit comes after, with ``last_visited_at`` still empty) or raises its version (a visit
    recorded at that version came after it), so the first visit at each version is enough."""
    if seat.last_visited_at is not None and seat.last_seen_version >= version:
        return
    mark_visited(seat_id=seat.pk, version=version)


# Replaying from the move log ------------------------------------------------------


def final_state(game: Game) -> dict:
    """The full state of a FINISHED game (for "every hand revealed"); nothing is secret any more."""
    if game.status != GameStatus.FINISHED:
        raise GameNotActive()
    state = full_state(game)
    if state is None:
        raise GameState.DoesNotExist()
    return state


def initial_state(game: Game) -> dict:
    """The state right after set-up, from the stored seed (server-side only)."""
    seed = int(GameState.objects.only("seed").get(game=game).seed)
    return game.engine.setup(game.players, seed=seed, options=game.options)


def replay_states(game: Game) -> Iterator[tuple[Move | None, dict]]:
    """Every state of the game from the seed and the move log: (move that led to it, state)."""
    engine = game.engine
    state = initial_state(game)
    yield None, state
    for move in Move.objects.filter(game=game).order_by("sequence").iterator():
        state = engine.play(state, move.seat_number, move.move)
        yield move, state


def replay_step(game: Game, step: int) -> tuple[dict, Move | None, int]:
    """State after ``step`` moves of a FINISHED game (the replay page): (state, last move, number of moves).

    Rebuilt from the seed on each request; before the end no replay exists.
    """
    if game.status != GameStatus.FINISHED:
        raise GameNotActive()
    total = game.version
    step = max(0, min(step, total))
    engine = game.engine
    state = initial_state(game)
    last = None
    for move in Move.objects.filter(game=game, sequence__lte=step).order_by("sequence").iterator():
        state = engine.play(state, move.seat_number, move.move)
        last = move
    return state, last, total


@dataclass
class SnapshotReport:
    game_id: int
    problems: list[str]


def check_snapshot(game: Game) -> SnapshotReport:
    """Rebuild ``game`` from seed + options + moves and compare with the stored state and views."""
    problems: list[str] = []
    game = Game.objects.get(pk=game.pk)  # fresh: the caller's copy may predate the last moves
    if game.status in (GameStatus.OPEN, GameStatus.CANCELLED):
        return SnapshotReport(game.pk, problems)
    engine = game.engine
    state_row = GameState.objects.get(game=game)
    if seed_sha256(state_row.seed) != game.seed_sha256:
        problems.append("seed does not match its SHA-256")
    count = 0
    state = None
    try:
        for _move, replayed in replay_states(game):
            state = replayed
            count += 1
    except EngineIllegalMove as exc:
        problems.append(f"move {count} no longer applies: {exc}")
        return SnapshotReport(game.pk, problems)
    if count - 1 != game.version:
        problems.append(f"{count - 1} moves stored but version is {game.version}")
    stored = _with_whole_log(game, state_row.state, state_row.log_length) or {}
    if {**state, "log": []} != {**stored, "log": []}:
        problems.append("stored state differs from the replayed one")
    if state["log"] != stored.get("log"):
        problems.append("stored log differs from the replayed one")
    expected = _compute_views(engine, state, game.players)
    stored = {row.seat_number: row for row in SeatView.objects.filter(game=game)}
    for number, (view, log, legal) in expected.items():
        row = stored.get(number)
        if row is None:
            problems.append(f"no stored view for {_viewer_key(number)}")
        elif row.view != view or row.legal_moves != legal:
            problems.append(f"stored view of {_viewer_key(number)} differs")
        elif row.log_size != len(log) or row.log_tail != log_tail(log):
            problems.append(f"stored log tail of {_viewer_key(number)} differs")
    waiting = set() if engine.is_over(state) else set(engine.waiting_for(state))
    awaited = set(Seat.objects.filter(game=game, awaited=True).values_list("number", flat=True))
    if waiting != awaited:
        problems.append(f"awaited seats {sorted(awaited)} but the engine waits for {sorted(waiting)}")
    if game.status == GameStatus.FINISHED and game.outcome != engine.outcome(state):
        problems.append("stored outcome differs")
    return SnapshotReport(game.pk, problems)


def verify_deal(game: Game) -> list[str]:
    """For a finished game: the revealed seed matches its SHA-256, and the seat order, the deal and the
    whole game follow from it. Uses only what is public after the end (seed, options, moves)."""
    problems: list[str] = []
    if game.status != GameStatus.FINISHED or not game.revealed_seed:
        return ["the game has not finished: its seed is still secret"]
    seed = int(game.revealed_seed)
    if seed_sha256(seed) != game.seed_sha256:
        problems.append("the revealed seed does not match the SHA-256 shown from the start")
    seats = list(Seat.objects.filter(game=game))
    by_join = sorted(seats, key=lambda s: s.join_order)
    order = seat_order(seed, game.players)
    for number, join_position in enumerate(order):
        if by_join[join_position].number != number:
            problems.append(f"seat {number} is not the one the seed draws")
    engine = game.engine
    state = engine.setup(game.players, seed=seed, options=game.options)
    for move in Move.objects.filter(game=game).order_by("sequence").iterator():
        try:
            state = engine.play(state, move.seat_number, move.move)
        except EngineIllegalMove as exc:
            problems.append(f"move {move.sequence} does not apply to the re-run deal: {exc}")
            return problems
    if engine.outcome(state) != game.outcome:
        problems.append("the re-run game ends with a different outcome")
    if state != full_state(game):
        problems.append("the re-run game ends in a different state than the one played")
    return problems
