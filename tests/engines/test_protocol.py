"""The properties every engine keeps (``shared/rules/ENGINE.md``), checked on seeded random playouts.

Parametrized over every registered game (``games.engines.engine_slugs``): the three of the site
and the test settings' plug-in game. Engine-specific checks (conservation of cards, need to
know about particular hidden facts, the worked examples) live in each game's
own test file.

Moves are compared by their JSON with sorted keys, so ``1`` and ``True`` or
``1`` and ``1.0`` are different moves, and key order does not matter.
"""

from __future__ import annotations

import importlib
import json
import random
from typing import Any

import pytest

from games.engines import IllegalMove, engine_slugs, get_engine

MOVE_LIMIT = 20_000  # no game may last longer (termination)
ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1, 2, 99, 10**9, 1.5, "", "?", "x" * 40, [], {}, [None], {"?": 1}]
NOT_MOVES: list[Any] = [None, 0, 1, "turn", "", [], [{}], ("type",), 1.5, True]


SLUGS = engine_slugs()


def canon(value: Any) -> str:
    """A move's (or state's) identity: JSON with sorted keys."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def seat_counts(engine) -> list[int]:
    return list(range(engine.min_players, engine.max_players + 1))


def player_cases() -> list:
    """(slug, players) for every slug and every player count it allows."""
    cases = []
    for slug in SLUGS:
        for players in seat_counts(get_engine(slug)):
            cases.append(pytest.param(slug, players, id=f"{slug}-{players}p"))
    return cases


def option_cases() -> list:
    """(slug, options) for every allowed value of every option."""
    cases = []
    for slug in SLUGS:
        engine = get_engine(slug)
        cases.append(pytest.param(slug, {}, id=f"{slug}-defaults"))
        for name, values in engine.options.items():
            for value in values:
                cases.append(pytest.param(slug, {name: value}, id=f"{slug}-{name}={value}"))
    return cases


def module_of(slug: str):
    return importlib.import_module(type(get_engine(slug)).__module__)


def assert_illegal(engine, state, seat, move, why: str) -> None:
    """``play`` refuses with IllegalMove (not another exception); callers check the state is left alone."""
    try:
        engine.play(state, seat, move)
    except IllegalMove as refused:
        assert isinstance(refused.message, str) and refused.message, why
        assert isinstance(refused.code, str) and refused.code, why
        messages = getattr(module_of(engine.slug), "MESSAGES", None)
        if messages is not None:
            assert refused.code in messages, f"code {refused.code!r} missing from MESSAGES"
        json.dumps(refused.params)  # params are JSON-ready, for the platform to translate
    except Exception as other:  # noqa: BLE001 - the point is to report the wrong exception
        pytest.fail(f"{why}: {move!r} for seat {seat!r} raised {type(other).__name__}: {other}")
    else:
        pytest.fail(f"{why}: {move!r} for seat {seat!r} was accepted")


def playout(engine, players: int, seed: int, options: dict | None = None, bot_share: float = 0.5):
    """A seeded game mixing bot and random moves; yields (state, seat, move) before each move, then the end."""
    chooser = random.Random(f"{engine.slug}:{players}:{seed}")
    state = engine.setup(players, seed, options or {})
    for _ in range(MOVE_LIMIT):
        if engine.is_over(state):
            yield state, None, None
            return
        waiting = engine.waiting_for(state)
        assert waiting, "dead end: waiting_for is empty but the game is not over"
        seat = chooser.choice(waiting)
        if chooser.random() < bot_share:
            move = engine.bot_move(state, seat)
        else:
            move = chooser.choice(engine.legal_moves(state, seat))
        yield state, seat, move
        state = engine.play(state, seat, move)
    pytest.fail(f"no end within {MOVE_LIMIT} moves")


# --- Each state --------------------------------------------------------------------------------


def check_state(engine, state, players: int, views: bool = True) -> str:
    """waiting_for, legal_moves, views (unless told not to): shapes, purity and JSON-readiness of one state.

    Returns the state's JSON, for ``check_move`` (encoding big states is the slow part of these tests).
    """
    text = json.dumps(state)
    before = json.loads(text)
    assert before == state, "the state is not plain JSON data (tuples, non-string keys, ...)"
    over = engine.is_over(state)
    waiting = engine.waiting_for(state)
    assert isinstance(waiting, list)
    if over:
        assert waiting == []
    else:
        assert waiting, "waiting_for is empty but the game is not over"
        assert waiting == sorted(set(waiting)), "waiting_for must be ascending, without repeats"
        assert all(type(seat) is int and 0 <= seat < players for seat in waiting)
    for seat in range(players):
        moves = engine.legal_moves(state, seat)
        assert isinstance(moves, list)
        assert bool(moves) == (seat in waiting), f"seat {seat}: legal moves exactly when awaited"
        keys = [canon(move) for move in moves]
        assert len(keys) == len(set(keys)), "legal_moves lists a move twice"
        assert all(isinstance(move, dict) for move in moves)
    for seat in (-1, players):
        assert engine.legal_moves(state, seat) == [], "a seat that does not exist has no moves"
    for seat in [None, *range(players)] if views else []:
        check_view(engine, state, seat, players, waiting)
    assert state == before, "waiting_for, legal_moves or view changed the state"
    return text


def check_view(engine, state, seat, players: int, waiting: list[int]) -> None:
    """The protocol's common view keys, JSON-ready, and no private event of another seat."""
    view = engine.view(state, seat)
    text = json.dumps(view, ensure_ascii=False)  # raises on anything not JSON-ready
    assert json.loads(text) == view, "the view is not plain JSON data"
    for key in ("seat", "round", "waiting_for", "scores", "log"):
        assert key in view, f"view lacks {key!r}"
    assert view["seat"] == seat
    assert type(view["round"]) is int and view["round"] >= 1
    assert view["waiting_for"] == waiting
    assert isinstance(view["scores"], list) and len(view["scores"]) == players
    assert all(isinstance(score, (int, float)) and not isinstance(score, bool) for score in view["scores"])
    assert isinstance(view["log"], list) and all(isinstance(event, dict) for event in view["log"])
    for event in view["log"]:
        if "only" in event:
            assert seat in event["only"], f"seat {seat} sees a private event of {event['only']}"
        assert "type" in event, "every event has a type"
    assert "seed" not in view and "rng" not in view, "the seed would let a player predict every shuffle"
    events = getattr(module_of(engine.slug), "EVENTS", None)
    if events is not None:
        for event in view["log"]:
            assert event["type"] in events, f"event type {event['type']!r} missing from EVENTS"


def check_move(engine, state, seat: int, move, text: str) -> Any:
    """play is pure and JSON-stable; the bot's move is legal and deterministic. Returns the next state.

    ``text`` is the state's JSON (from ``check_state``).
    """
    before, copy, move_before = json.loads(text), json.loads(text), canon(move)
    legal = {canon(m) for m in engine.legal_moves(state, seat)}
    assert canon(move) in legal
    bot = engine.bot_move(state, seat)
    assert canon(bot) in legal, f"bot_move {bot!r} is not legal"
    assert canon(engine.bot_move(state, seat)) == canon(bot), "bot_move is not deterministic"
    assert canon(engine.bot_move(copy, seat)) == canon(bot), "bot_move differs after a JSON round trip"
    after = engine.play(state, seat, move)
    assert after is not state
    assert state == before, "play (or bot_move) changed its input state"
    assert canon(move) == move_before, "play changed the move"
    assert engine.play(copy, seat, move) == after, "a JSON round trip changes what play does"
    reordered = dict(reversed(list(move.items())))
    assert engine.play(state, seat, reordered) == after, "key order changes the move"
    return after


# --- Malformed and foreign moves ----------------------------------------------------------------


def variants(move: dict, vocabulary: dict[str, list[Any]], chooser: random.Random):
    """Moves near a legal one: a key missing, one more key, odd values, other seats' and other times' values."""
    yield {}
    yield {"type": "no-such-move"}
    yield {**move, "type": "no-such-move"}
    yield {**move, "unexpected": 1}
    for key in move:
        yield {k: v for k, v in move.items() if k != key}
        seen = vocabulary.get(key, [])
        for value in ODD_VALUES + chooser.sample(seen, min(6, len(seen))):
            yield {**move, key: value}
        value = move[key]
        if isinstance(value, dict):
            for inner in value:
                yield {**move, key: {k: v for k, v in value.items() if k != inner}}
                for odd in ODD_VALUES:
                    yield {**move, key: {**value, inner: odd}}
            yield {**move, key: {**value, "no-such-thing": 1}}
        if isinstance(value, list):
            yield {**move, key: value[:-1]}
            yield {**move, key: [*value, *value[-1:]]}
            for odd in ODD_VALUES:
                yield {**move, key: [*value, odd]}
            if value:
                for odd in ODD_VALUES:
                    yield {**move, key: [odd, *value[1:]]}


def learn(vocabulary: dict[str, list[Any]], moves: list[dict]) -> None:
    """Remember every value legal moves used per key (for foreign and stale values)."""
    for move in moves:
        for key, value in move.items():
            known = vocabulary.setdefault(key, [])
            if len(known) < 200 and value not in known:
                known.append(value)


def check_refusals(engine, state, players: int, vocabulary: dict[str, list[Any]], chooser: random.Random) -> None:
    """Everything not listed is refused with IllegalMove; everything listed is accepted; the state stays as it was."""
    before = canon(state)
    waiting = engine.waiting_for(state)
    for seat in waiting:
        moves = engine.legal_moves(state, seat)
        legal = {canon(m) for m in moves}
        for move in moves[:300]:
            engine.play(state, seat, move)  # every listed move is accepted
        for junk in NOT_MOVES:
            assert_illegal(engine, state, seat, junk, "not a move object")
        for move in chooser.sample(moves, min(3, len(moves))):
            for variant in variants(move, vocabulary, chooser):
                if canon(variant) in legal:
                    engine.play(state, seat, variant)
                else:
                    assert_illegal(engine, state, seat, variant, "a move not in legal_moves")
        move = moves[0]
        strangers = [other for other in range(players) if other not in waiting]
        wrong_types = [str(seat), float(seat), None] + ([True] if seat == 1 else [False] if seat == 0 else [])
        for other in [*strangers, -1, players, *wrong_types]:
            assert_illegal(engine, state, other, move, "a seat that is not awaited")
    assert canon(state) == before, "play changed its input state (while refusing or accepting a move)"


# --- The tests --------------------------------------------------------------------------------


@pytest.mark.parametrize("slug", SLUGS)
def test_metadata(slug):
    engine = get_engine(slug)
    assert engine.slug == slug and isinstance(engine.name, str) and engine.name
    assert 1 <= engine.min_players <= engine.max_players
    assert isinstance(engine.options, dict)
    for name, values in engine.options.items():
        assert isinstance(name, str) and isinstance(values, list) and values, name
        json.dumps(values)
    module = module_of(slug)
    for attribute in ("MESSAGES", "EVENTS"):
        table = getattr(module, attribute, None)
        if table is not None:
            assert all(isinstance(k, str) and isinstance(v, str) and v for k, v in table.items()), attribute


@pytest.mark.parametrize("slug", SLUGS)
def test_setup_refuses_bad_player_counts_and_options(slug):
    engine = get_engine(slug)
    for players in (engine.min_players - 1, engine.max_players + 1, str(engine.min_players), None, 2.0, True):
        with pytest.raises(ValueError):
            engine.setup(players, 1)
    with pytest.raises(ValueError):
        engine.setup(engine.min_players, 1, {"no-such-option": 1})
    for name in engine.options:
        with pytest.raises(ValueError):
            engine.setup(engine.min_players, 1, {name: "no-such-value"})


@pytest.mark.parametrize("slug", SLUGS)
def test_setup_is_deterministic_plain_data(slug):
    engine = get_engine(slug)
    for players in seat_counts(engine):
        first = engine.setup(players, 12345)
        assert canon(engine.setup(players, 12345)) == canon(first)
        assert json.loads(json.dumps(first)) == first
        assert not engine.is_over(first)
        assert engine.waiting_for(first)
    assert len({canon(engine.setup(engine.max_players, seed)) for seed in range(5)}) > 1, "the seed changes nothing"


@pytest.mark.parametrize(("slug", "players"), player_cases())
def test_random_playouts_keep_the_protocol(slug, players):
    """Every state of two seeded games: shapes, purity, JSON stability, legal deterministic bot.

    Every seat's view is checked on every third state of the first game and on the last states (views are the
    slow part).
    """
    engine = get_engine(slug)
    for seed in (1, 2):
        for index, (state, seat, move) in enumerate(playout(engine, players, seed)):
            text = check_state(engine, state, players, views=(seed == 1 and index % 3 == 0) or seat is None)
            if seat is None:
                break
            check_move(engine, state, seat, move, text)
        assert engine.is_over(state)
        check_outcome(engine, state, players)


@pytest.mark.parametrize(("slug", "players"), player_cases())
def test_everything_listed_is_accepted_and_nothing_else(slug, players):
    """On sampled states: listed moves play; malformed, foreign and out-of-turn moves raise IllegalMove."""
    engine = get_engine(slug)
    chooser = random.Random(f"refusals:{slug}:{players}")
    vocabulary: dict[str, list[Any]] = {}
    states = []
    for state, _, _ in playout(engine, players, seed=3):
        for other in range(players):
            learn(vocabulary, engine.legal_moves(state, other))
        states.append(state)
    final = states[-1]
    for state in chooser.sample(states[:-1], min(6, len(states) - 1)):
        check_refusals(engine, state, players, vocabulary, chooser)
    assert all(engine.legal_moves(final, seat) == [] for seat in range(players))
    stale = [{"type": kind} for kind in vocabulary.get("type", []) if isinstance(kind, str)]
    for state in chooser.sample(states[:-1], min(20, len(states) - 1)):
        for seat in engine.waiting_for(state):
            stale.extend(engine.legal_moves(state, seat)[:5])
    before = canon(final)
    for seat in range(players):
        for move in stale + NOT_MOVES:
            assert_illegal(engine, final, seat, move, "after game over")
    assert canon(final) == before, "a refused move changed the state"


@pytest.mark.parametrize(("slug", "options"), option_cases())
def test_every_option_value_plays_to_the_end(slug, options):
    engine = get_engine(slug)
    for players in seat_counts(engine):
        for state, seat, _ in playout(engine, players, seed=4, options=options, bot_share=0.7):
            if seat is None:
                check_outcome(engine, state, players)


@pytest.mark.parametrize("slug", SLUGS)
def test_same_seed_same_moves_same_game(slug):
    engine = get_engine(slug)
    for players in seat_counts(engine):
        runs = []
        for _ in range(2):
            trace = [canon(engine.view(state, None)) + canon(move) for state, _, move in playout(engine, players, 5)]
            runs.append(trace)
        assert runs[0] == runs[1]


def check_outcome(engine, state, players: int) -> None:
    """Once over: one row per seat, ranks from 1 and shared by ties, JSON-ready."""
    outcome = engine.outcome(state)
    assert json.loads(json.dumps(outcome)) == outcome
    assert sorted(row["seat"] for row in outcome) == list(range(players))
    for row in outcome:
        assert set(row) >= {"seat", "rank", "score"}
        assert type(row["rank"]) is int and 1 <= row["rank"] <= players
        assert isinstance(row["score"], (int, float)) and not isinstance(row["score"], bool)
        assert row["rank"] == 1 + sum(1 for other in outcome if other["rank"] < row["rank"]), "ranks skip after ties"
    assert any(row["rank"] == 1 for row in outcome)
    assert engine.waiting_for(state) == []


BOT_GAMES = 24


@pytest.mark.parametrize("slug", SLUGS)
def test_bot_beats_random_play(slug):
    """One bot among random players finishes first far more often than its fair share."""
    engine = get_engine(slug)
    players = min(engine.max_players, max(engine.min_players, 3))
    wins = 0
    for game in range(BOT_GAMES):
        bot = game % players
        chooser = random.Random(f"bot-vs-random:{slug}:{game}")
        state = engine.setup(players, 1000 + game)
        for _ in range(MOVE_LIMIT):
            if engine.is_over(state):
                break
            seat = chooser.choice(engine.waiting_for(state))
            move = engine.bot_move(state, seat) if seat == bot else chooser.choice(engine.legal_moves(state, seat))
            state = engine.play(state, seat, move)
        wins += engine.outcome(state)[bot]["rank"] == 1
    fair = BOT_GAMES / players
    assert wins >= 1.5 * fair, f"the bot won {wins} of {BOT_GAMES} against random play (fair share {fair:.0f})"
