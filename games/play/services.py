"""Play: moves, bots, timeouts and visits (reads live in ``games.play.selectors``).

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

import logging
import uuid
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from clocks import turns as clock_turns
from games import signals, strict_json
from games.engines import IllegalMove as EngineIllegalMove
from games.engines.search import choose_move
from games.exceptions import (
    BadInput,
    GameError,
    GameNotActive,
    IdempotencyKeyReused,
    IllegalMove,
    NotSeated,
    NotYourTurn,
)
from games.history.since import seen_log_size
from games.models import (
    TAKEOVER_BOT_LEVEL,
    BotLevel,
    Game,
    GameEvent,
    GameState,
    GameStatus,
    MadeBy,
    Move,
    PlayerStats,
    Seat,
)
from games.play.forced import play_forced_moves, plays_itself
from games.play.lessons import check_lesson_move, lesson_bot_move
from games.play.ranks import platform_ranks
from games.play.stale import stale_refusal
from games.tables import (
    Table,
    add_event,
    compute_views,
    lock_table,
    logs_per_event,
    round_of,
    store_state,
    update_awaited,
    viewer_key,
    with_whole_log,
    write_views,
)
from live import publish as live_publish

logger = logging.getLogger(__name__)

BOT_MOVES_PER_TASK = 200  # a bot task re-queues itself after this many moves


TIMEOUT_MOVES_CAP = 50  # moves the bot may make for a timed-out seat in one go


DROP_OUT_AFTER_TIMEOUTS = 3
BOT_TASK = "games.tasks.play_bot_moves"  # by name: games.tasks imports this module, not the other way round


def schedule_bots(table: Table) -> None:
    """After commit, queue the bot task if a bot seat is awaited."""
    game = table.game
    if game.status != GameStatus.ACTIVE or not any(s.awaited and s.is_bot for s in table.seats):
        return
    game_id, version = game.pk, game.version
    # A tutorial's bots play moves written in its script and the newcomer's lesson box waits for them: no pause
    # that would make a bot look as if it were thinking (issue 27).
    delay = 0 if game.is_tutorial else settings.BOT_MOVE_DELAY_SECONDS

    def queue() -> None:
        from celery import current_app

        current_app.tasks[BOT_TASK].apply_async(
            args=[game_id, version],
            countdown=delay,
            # Queuing to a broker that is down must not hold a player's request for long (one policy for every
            # task: settings.CELERY_TASK_PUBLISH_RETRY_POLICY): the move is committed, and the stalled-bot sweep
            # plays the bot's turn instead.
            retry=True,
        )

    # robust: a broker that is down must not turn the committed move into a 500 for the player; the
    # stalled-bot sweep (notifications.deadlines, beat every minute) plays the bot's turn instead.
    transaction.on_commit(queue, robust=True)


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


def too_new_version(current: int) -> str:
    from django.utils.translation import gettext as _

    return _("expected_version is newer than the game, which is at version %(version)d.") % {"version": current}


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
        table = lock_table(game_id)
        game = table.game
        seat = table.seat_of(user)
        try:
            if seat is None:
                raise NotSeated()
            if game.status != GameStatus.ACTIVE:
                raise GameNotActive()
            seat_view = table.views[seat.number]
            if version > game.version:
                raise BadInput(too_new_version(game.version))
            if version < seat_view.moves_version:
                raise stale_refusal(game=game, seat=seat, seat_view=seat_view, move=move, page_version=version)
            if not seat.awaited:
                raise NotYourTurn()
            if seat.is_bot:
                from django.utils.translation import gettext as _

                raise NotYourTurn(_("The bot plays this seat now."))
            chosen = move(game, seat_view.legal_moves) if callable(move) else move
            # Compared as JSON: ``true`` or ``1.0`` is not the legal move's ``1``.
            canonical = strict_json.find_move(seat_view.legal_moves, chosen)
            if canonical is None:
                raise strict_json.type_error(seat_view.legal_moves, chosen) or _refusal(
                    game, table.state_row.state, seat.number, chosen
                )
            check_lesson_move(table=table, seat=seat, move=canonical, seat_view=seat_view)
        except GameError:
            if key is not None:
                done = Move.objects.filter(game=game, idempotency_key=key).first()
                if done is not None and seat is not None and done.seat_number == seat.number:
                    return MoveResult(game=game, move=done, replayed=True)
            raise
        if key is not None and Move.objects.filter(game=game, idempotency_key=key).exists():
            # Another seat's key, or this seat's from an earlier turn: a client bug, not a replay.
            raise IdempotencyKeyReused()
        applied = do_play_move(table=table, seat=seat, move=canonical, made_by=MadeBy.PLAYER, idempotency_key=key)
        schedule_bots(table)
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
    ``lock_table``); sends ``game_advanced`` (and ``game_finished``) inside it.
    """
    if table is None:
        table = lock_table(game.pk)
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
    store_state(table, state)
    movers = {seat.number}
    # Each viewer's new events only, added to its stored tail, when the engine allows it and every
    # row is there to extend (always, once started); else every viewer's whole log.
    appended = logs_per_event(engine) and all(n in table.views for n in [*range(game.players), None])
    if appended:
        computed = compute_views(engine, state, game.players, since=since)
    else:
        whole = with_whole_log(game, state_row.state, state_row.log_length) if logs_per_event(engine) else state
        computed = compute_views(engine, whole, game.players)
    logs = write_views(table, computed, version=game.version, movers=movers, appended=appended)
    # The row lock makes the sequence (and the idempotency key, checked under it) unique. Created after the
    # views so that it holds each viewer's log length after it (the times in the log, issue 19).
    applied = Move.objects.create(
        game=game,
        sequence=game.version,
        seat_number=seat.number,
        move=move,
        made_by=made_by,
        idempotency_key=idempotency_key,
        log_positions=log_positions(table),
    )
    over = engine.is_over(state)
    waiting = [] if over else engine.waiting_for(state)
    newly = update_awaited(table, waiting, movers=movers, now=now)
    newly = [s for s in newly if not plays_itself(table, s)]  # played at once below: no "your move" (issue 32)
    fields = ["version"]
    if (current_round := round_of(computed)) != game.round:
        game.round = current_round
        fields.append("round")
    if over:
        _finish(table, state, now)
        fields += ["status", "finished_at", "outcome", "revealed_seed"]
    game.save(update_fields=fields)
    live_publish.game_changed(game=game, seats=table.seats)
    signals.game_advanced.send(
        sender=Game, game=game, newly_awaited_seats=newly, moves=[applied], seat_views=dict(table.views), seat_logs=logs
    )
    if over:
        signals.game_finished.send(sender=Game, game=game)
        if game.status == GameStatus.FINISHED:
            from games.history.review import schedule_review

            schedule_review(game)
    play_forced_moves(table, play=do_play_move)
    return applied


def log_positions(table: Table) -> dict[str, int]:
    """Each viewer's engine log length now (as ``GameEvent.log_positions``)."""
    return {viewer_key(number): row.log_size for number, row in table.views.items()}


def _finish(table: Table, state: dict, now) -> None:
    game = table.game
    outcome = game.engine.outcome(state)
    game.status, game.finished_at, game.outcome = GameStatus.FINISHED, now, outcome
    game.revealed_seed = table.state_row.seed
    by_number = {row["seat"]: row for row in outcome}
    # A resigned seat is last in history and stats whatever the bot scored for it (issue 17).
    ranks = platform_ranks(outcome, resigned={s.number for s in table.seats if s.resigned_at is not None})
    for seat in table.seats:
        row = by_number.get(seat.number, {})
        seat.final_rank, seat.final_score = ranks.get(seat.number), row.get("score")
        seat.finished_at = now
    Seat.objects.bulk_update(table.seats, ["final_rank", "final_score", "finished_at"])
    if not game.is_tutorial:  # a lesson counts for nobody's statistics
        record_finished_seats(engine_slug=game.engine_slug, seats=table.seats)


STATS_COUNTERS = ("played", "won", "ranked", "places_sum", "dropped", "scored", "scores_sum")


def record_finished_seats(*, engine_slug: str, seats: Iterable[Seat]) -> None:
    """Add finished seats of ``engine_slug`` games to their players' ``PlayerStats``: one query.

    ``_finish`` calls it in the transaction that ends the game (the bench's bulk histories
    too), so the counters always equal the aggregate over the player's finished seats.
    """
    totals: dict[tuple[int, str], list[float]] = {}
    for seat in seats:
        if seat.user_id is None:
            continue
        counts = totals.setdefault((seat.user_id, engine_slug), [0, 0, 0, 0, 0, 0, 0.0])
        counts[0] += 1
        counts[1] += seat.final_rank == 1
        if seat.final_rank is not None:
            counts[2] += 1
            counts[3] += seat.final_rank
        counts[4] += seat.dropped_out
        if seat.final_score is not None:
            counts[5] += 1
            counts[6] += seat.final_score
    _add_to_player_stats(totals)


def _add_to_player_stats(deltas: dict[tuple[int, str], list[float]]) -> None:
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


@dataclass(frozen=True)
class BotDecision:
    """A bot's move chosen at ``version`` of a game, for its seat ``seat_number`` at ``level``."""

    version: int
    seat_number: int
    level: str
    move: Move


def bot_seed(game: Game) -> str:
    """The seed of a bot's decision at the game's current version: the game's seed commitment (public, so the
    seed carries nothing about the deal) and the move number, so a bot's move is reproducible."""
    return f"{game.seed_sha256}:{game.version}"


def decide_bot_move(*, game_id: int, expected_version: int | None = None) -> BotDecision | None:
    """The move the first awaited bot seat of ``game_id`` makes now, thought out without any lock (a strong
    bot's search takes up to a second of CPU: nobody's move or page may wait for it). None when the game has
    ended, moved past ``expected_version`` or awaits no bot. Reads the game before its state: a move committed
    in between leaves the decision tagged with the older version, and ``play_bot_turns`` drops it."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.status != GameStatus.ACTIVE:
        return None
    if expected_version is not None and game.version != expected_version:
        return None
    bots = list(Seat.objects.filter(game=game, awaited=True, is_bot=True).order_by("number"))
    if not bots:
        return None
    row = GameState.objects.filter(game_id=game_id).values("state", "log_length").first()
    if row is None or row["state"] is None:
        return None
    state = row["state"]
    chosen = lesson_bot_move(game, state, bots)  # a tutorial's bots play its script (issue 27)
    if chosen is None:
        return None
    seat, scripted = chosen
    if scripted is not None:
        return BotDecision(version=game.version, seat_number=seat.number, level=seat.bot_level, move=scripted)
    if seat.bot_level == BotLevel.STRONG:
        state = with_whole_log(game, state, row["log_length"])  # the search reads the seat's whole view
    budget = settings.BOT_STRONG_ITERATIONS or None
    move = choose_move(game.engine, state, seat.number, seat.bot_level, seed=bot_seed(game), budget=budget)
    return BotDecision(version=game.version, seat_number=seat.number, level=seat.bot_level, move=move)


def play_bot_turns(*, game_id: int, expected_version: int | None = None) -> int:
    """Play the moves of awaited bot seats at their levels (``choose_move``), one transaction per move; the
    number played.

    Each move is chosen first, without a lock (``decide_bot_move``), then played under the lock only if the
    game is still at the version it was chosen at: a person's move in between wins, and whoever moved queued
    the bots again. Returns at once if the game is no longer at ``expected_version`` or has ended. Re-queues
    the task after ``BOT_MOVES_PER_TASK`` moves if bots are still awaited.
    """
    played = 0
    while played < BOT_MOVES_PER_TASK:
        decision = decide_bot_move(game_id=game_id, expected_version=expected_version)
        if decision is None:
            return played
        with transaction.atomic():
            table = lock_table(game_id)
            game = table.game
            if game.status != GameStatus.ACTIVE or game.version != decision.version:
                return played
            seat = next((s for s in table.seats if s.number == decision.seat_number), None)
            if seat is None or not (seat.awaited and seat.is_bot) or seat.bot_level != decision.level:
                return played
            do_play_move(table=table, seat=seat, move=decision.move, made_by=MadeBy.BOT)
            played += 1
            expected_version = game.version
            if played == BOT_MOVES_PER_TASK:
                schedule_bots(table)
    return played


def play_timeout_move(*, game_id: int, seat_number: int, expected_version: int, due_by=None) -> list[Move]:
    """Time ran out for ``seat_number``: the bot plays for it (recorded as ``timeout``).

    Called by the deadline code with the version it saw; does nothing (returns
    ``[]``) if the game has moved on, ended, or no longer awaits that seat. The
    bot keeps playing while the game awaits that same seat (a Konamon! card's
    steps are one turn). One timeout is counted; after the third the seat is
    handed to the bot for good (``is_bot``, ``dropped_out``; the user stays for
    history). Each is logged as a platform event everyone sees.

    ``due_by`` (the deadline sweep's "now"): the seat's deadline, as it stands under the lock, must have passed
    by then, and its player not be away. An absence or a quiet day declared since the sweep read the seat moves
    the deadline without changing the game's version, and must win (issue 29 item 7).
    """
    with transaction.atomic():
        table = lock_table(game_id)
        game = table.game
        if game.status != GameStatus.ACTIVE or game.version != expected_version:
            return []
        try:
            seat = table.seat(seat_number)
        except NotSeated:
            return []
        if not seat.awaited:
            return []
        if due_by is not None and (
            seat.deadline_at is None
            or seat.deadline_at > due_by
            or (seat.user is not None and seat.user.is_away(now=due_by))
        ):
            return []
        moves = []
        log_from = table.views[seat.number].log_size  # the seat's own log before the bot's moves
        while seat.awaited and game.status == GameStatus.ACTIVE and len(moves) < TIMEOUT_MOVES_CAP:
            # TAKEOVER_BOT_LEVEL (normal: the heuristic, no search) is cheap enough to play under the lock.
            move = choose_move(game.engine, table.state_row.state, seat.number, TAKEOVER_BOT_LEVEL,
                               seed=bot_seed(game))
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
            _add_to_player_stats({(seat.user_id, game.engine_slug): [0, 0, 0, 0, 1, 0, 0.0]})
        add_event(table, GameEvent.Kind.TIMEOUT, seat)
        if dropped:
            add_event(table, GameEvent.Kind.DROPPED_OUT, seat)
        signals.seat_timed_out.send(
            sender=Game,
            game=game,
            seat=seat,
            dropped_out=dropped,
            moves=moves,
            log_from=log_from,
            seat_view=table.views[seat.number],
        )
        schedule_bots(table)
        return moves


def mark_visited(*, seat_id: int, version: int) -> None:
    """The player opened the game page at ``version`` (for "once until I visit"), and where their log stood
    then (where "since your last visit" starts, issue 32): one UPDATE."""
    Seat.objects.filter(pk=seat_id).update(
        last_seen_version=version, last_seen_log_size=seen_log_size(version), last_visited_at=timezone.now()
    )


def note_visit(*, seat: Seat, version: int) -> None:
    """``mark_visited``, unless ``seat`` (as read for this page) already records a visit at ``version``
    or later: no UPDATE for every view and poll of an unchanged game. What "once until I visit"
    compares still holds: a turn e-mail is queued only in a transaction that starts the game (its
    first visit comes after, with ``last_visited_at`` still empty) or raises its version (a visit
    recorded at that version came after it), so the first visit at each version is enough."""
    if seat.last_visited_at is not None and seat.last_seen_version >= version:
        return
    mark_visited(seat_id=seat.pk, version=version)
