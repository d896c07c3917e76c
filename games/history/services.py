"""History and replay: the final and initial states, replay steps, and the checks of stored
snapshots and of the deal against the published seed. Reads that rebuild from the move log.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from games import fairness
from games.engines import IllegalMove as EngineIllegalMove
from games.exceptions import (
    GameNotActive,
    ReplayUnavailable,
)
from games.models import (
    Game,
    GameState,
    GameStatus,
    Move,
    Seat,
    SeatView,
)
from games.tables import compute_views, full_state, log_tail, seat_order, seed_sha256, viewer_key, with_whole_log


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
    row = GameState.objects.only("seed", "deal_seed").get(game=game)
    seed = int(row.deal_seed or row.seed)  # a game dealt before issue 30 was dealt from its secret
    return game.engine.setup(game.players, seed=seed, options=fairness.engine_options(game))


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
        try:
            state = engine.play(state, move.seat_number, move.move)
        except EngineIllegalMove as refused:
            raise ReplayUnavailable() from refused
        last = move
    return state, last, total


ROUND_STARTS_TIMEOUT = 7 * 24 * 3600  # a finished game never changes


def round_starts(game: Game) -> list[tuple[int, int]]:
    """``(round, step)`` for each round of a FINISHED game: the replay step (moves made) at which it
    began, for the replay's "go to round". One whole replay, then kept in the cache (a finished game's
    moves never change; the key holds the seed's SHA-256, so a recreated database never reuses one)."""
    from django.core.cache import cache

    if game.status != GameStatus.FINISHED:
        raise GameNotActive()
    key = f"replay-rounds:{game.pk}:{game.seed_sha256[:16]}:{game.version}"
    found = cache.get(key)
    if found is not None:
        return [tuple(pair) for pair in found]
    starts: list[tuple[int, int]] = []
    seen = None
    try:
        for step, (_move, state) in enumerate(replay_states(game)):
            current = state.get("round")
            if isinstance(current, int) and current != seen:
                if current > 0:
                    starts.append((current, step))
                seen = current
    except EngineIllegalMove as refused:
        raise ReplayUnavailable() from refused
    cache.set(key, starts, ROUND_STARTS_TIMEOUT)
    return starts


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
    stored = with_whole_log(game, state_row.state, state_row.log_length) or {}
    if {**state, "log": []} != {**stored, "log": []}:
        problems.append("stored state differs from the replayed one")
    if state["log"] != stored.get("log"):
        problems.append("stored log differs from the replayed one")
    expected = compute_views(engine, state, game.players)
    stored = {row.seat_number: row for row in SeatView.objects.filter(game=game)}
    for number, (view, log, legal) in expected.items():
        row = stored.get(number)
        if row is None:
            problems.append(f"no stored view for {viewer_key(number)}")
        elif row.view != view or row.legal_moves != legal:
            problems.append(f"stored view of {viewer_key(number)} differs")
        elif row.log_size != len(log) or row.log_tail != log_tail(log):
            problems.append(f"stored log tail of {viewer_key(number)} differs")
    # An abandoned game (issue 17) awaits nobody, whatever the engine still waits for.
    over = engine.is_over(state) or game.status == GameStatus.ABANDONED
    waiting = set() if over else set(engine.waiting_for(state))
    awaited = set(Seat.objects.filter(game=game, awaited=True).values_list("number", flat=True))
    if waiting != awaited:
        problems.append(f"awaited seats {sorted(awaited)} but the engine waits for {sorted(waiting)}")
    if game.status == GameStatus.FINISHED and game.outcome != engine.outcome(state):
        problems.append("stored outcome differs")
    return SnapshotReport(game.pk, problems)


def verify_deal(game: Game) -> list[str]:
    """For a game over (finished, or called off): the revealed seed matches its SHA-256, and the seat order,
    the deal and every move played follow from it (and a finished game's outcome). Uses only what is public
    after the end (the site's secret, every seat's contribution, options, moves; games.fairness), and checks
    every sealed choice's commitment against its reveal."""
    problems: list[str] = []
    if game.status not in (GameStatus.FINISHED, GameStatus.ABANDONED) or not game.revealed_seed:
        return ["the game is not over: its seed is still secret"]
    if seed_sha256(game.revealed_seed) != game.seed_sha256:
        problems.append("the revealed seed does not match the SHA-256 shown from the start")
    seats = list(Seat.objects.filter(game=game))
    problems += fairness.check_contributions(game, game.revealed_seed, seats)
    seed = fairness.deal_seed(game, game.revealed_seed, seats)
    by_join = sorted(seats, key=lambda s: s.join_order)
    order = seat_order(seed, game.players)
    for number, join_position in enumerate(order):
        if by_join[join_position].number != number:
            problems.append(f"seat {number} is not the one the seed draws")
    engine = game.engine
    state = engine.setup(game.players, seed=seed, options=fairness.engine_options(game))
    for move in Move.objects.filter(game=game).order_by("sequence").iterator():
        try:
            state = engine.play(state, move.seat_number, move.move)
        except EngineIllegalMove as exc:
            problems.append(f"move {move.sequence} does not apply to the re-run deal: {exc}")
            return problems
    problems += fairness.check_sealed(engine, full_state(game)["log"])
    if game.status == GameStatus.FINISHED and engine.outcome(state) != game.outcome:
        problems.append("the re-run game ends with a different outcome")
    if state != full_state(game):
        problems.append("the re-run game ends in a different state than the one played")
    return problems
