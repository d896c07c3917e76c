"""One lock order for every path that changes a game (issue 29 item 6): the game row first, then what hangs
off it (its state, seats, call-off proposal). Two game-changing actions racing end one after the other, never in
a deadlock (PostgreSQL's ``DeadlockDetected``, a 500 for the client).

Each race is forced, not hoped for: the first action runs up to its first row lock and holds it; the second
starts and runs until PostgreSQL shows it waiting for a lock (or it ends); only then does the first go on. With
two paths locking the same rows in opposite orders this interleaving is a deadlock every time.
"""

from __future__ import annotations

import datetime as dt
import threading
import time

import pytest
from django.db import connection, connections
from django.utils import timezone
from game_helpers import awaited_human, start_game

from games.exceptions import GameError
from games.lobby import services as lobby
from games.models import Game, GameStatus, Seat
from games.play import services as play
from notifications.vacations import set_away
from together import services as together
from trust.account import delete_account

pytestmark = pytest.mark.django_db(transaction=True)


def _waiting_for_a_lock() -> int:
    with connections["default"].cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def race(first, second) -> list[tuple[str, object]]:
    """Run ``first`` until it holds its first row lock, then ``second`` until it waits for one, then both on."""
    holding, go = threading.Event(), threading.Event()
    results: list[tuple[str, object]] = [("unfinished", None), ("unfinished", None)]

    def hold_after_first_lock(execute, sql, params, many, context):
        answer = execute(sql, params, many, context)
        if "FOR UPDATE" in sql and not holding.is_set():
            holding.set()
            go.wait(10)
        return answer

    def run(index, call, wrapped) -> None:
        try:
            if wrapped:
                with connection.execute_wrapper(hold_after_first_lock):
                    results[index] = ("ok", call())
            else:
                results[index] = ("ok", call())
        except GameError as exc:
            results[index] = ("refused", exc)
        except Exception as exc:  # noqa: BLE001 - a deadlock or any other failure, asserted on below
            results[index] = ("failed", exc)
        finally:
            connection.close()

    one = threading.Thread(target=run, args=(0, first, True))
    one.start()
    assert holding.wait(10), "the first action never locked a row"
    two = threading.Thread(target=run, args=(1, second, False))
    two.start()
    deadline = time.monotonic() + 5
    while two.is_alive() and not _waiting_for_a_lock() and time.monotonic() < deadline:
        time.sleep(0.02)
    go.set()
    for thread in (one, two):
        thread.join(30)
    failed = [value for kind, value in results if kind in ("failed", "unfinished")]
    assert not failed, f"{[type(v).__name__ for v in failed]}: {failed}"
    return results


def _open_game_one_seat_short(players):
    game = lobby.create_game(user=players[0], engine_slug="konamon", players=3)
    lobby.join_game(user=players[1], game_id=game.pk)
    return game


def _running(players):
    game = start_game("mamma-mia", players[:3])
    seat, view = awaited_human(game)
    other = next(p for p in players[:3] if p.pk != seat.user_id)
    return game, seat, view, other


def _move(game, seat, view):
    return lambda: play.check_play_move(
        user=seat.user, game_id=game.pk, move=view.legal_moves[0], expected_version=game.version
    )


# Each scenario: (name, setup(players) -> (action a, action b, check())); each runs in both orders.


def add_last_bot_and_propose_call_off(players):
    game = _open_game_one_seat_short(players)
    return (
        lambda: lobby.add_bot(user=players[0], game_id=game.pk),
        lambda: together.propose_call_off(user=players[1], game_id=game.pk),
        lambda: Game.objects.get(pk=game.pk).status in (GameStatus.ACTIVE, GameStatus.ABANDONED),
    )


def add_last_bot_and_answer_call_off(players):
    game = _open_game_one_seat_short(players)
    return (
        lambda: lobby.add_bot(user=players[0], game_id=game.pk),
        lambda: together.answer_call_off(user=players[1], game_id=game.pk, accept=True),
        lambda: Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE,
    )


def last_player_joins_and_resign(players):
    game = _open_game_one_seat_short(players)
    return (
        lambda: lobby.join_game(user=players[2], game_id=game.pk),
        lambda: together.resign(user=players[1], game_id=game.pk),
        lambda: Game.objects.get(pk=game.pk).status in (GameStatus.ACTIVE, GameStatus.FINISHED),
    )


def move_and_resign(players):
    game, seat, view, _other = _running(players)
    return _move(game, seat, view), lambda: together.resign(user=seat.user, game_id=game.pk), lambda: True


def move_and_propose_call_off(players):
    game, seat, view, other = _running(players)
    return _move(game, seat, view), lambda: together.propose_call_off(user=other, game_id=game.pk), lambda: True


def move_and_answer_call_off(players):
    game, seat, view, other = _running(players)
    third = next(p for p in players[:3] if p.pk not in (seat.user_id, other.pk))
    together.propose_call_off(user=third, game_id=game.pk)
    return (
        _move(game, seat, view),
        lambda: together.answer_call_off(user=other, game_id=game.pk, accept=False),
        lambda: True,
    )


def move_and_time_out(players):
    game, seat, view, _other = _running(players)
    return (
        _move(game, seat, view),
        lambda: play.play_timeout_move(game_id=game.pk, seat_number=seat.number, expected_version=game.version),
        lambda: Game.objects.get(pk=game.pk).version == game.version + 1 or Game.objects.get(pk=game.pk).version > 1,
    )


def move_and_delete_the_account(players):
    game, seat, view, _other = _running(players)
    return (
        _move(game, seat, view),
        lambda: delete_account(user=seat.user),
        lambda: Seat.objects.get(pk=seat.pk).is_bot,
    )


def resign_and_answer_call_off(players):
    game, seat, _view, other = _running(players)
    third = next(p for p in players[:3] if p.pk not in (seat.user_id, other.pk))
    together.propose_call_off(user=third, game_id=game.pk)
    return (
        lambda: together.resign(user=seat.user, game_id=game.pk),
        lambda: together.answer_call_off(user=other, game_id=game.pk, accept=True),
        lambda: True,
    )


def move_and_declare_an_absence(players):
    game, seat, view, _other = _running(players)
    return (
        _move(game, seat, view),
        lambda: set_away(user=seat.user, until=timezone.now() + dt.timedelta(days=2)),
        lambda: True,
    )


def declare_an_absence_and_delete_the_account(players):
    game, seat, _view, _other = _running(players)
    return (
        lambda: set_away(user=seat.user, until=timezone.now() + dt.timedelta(days=2)),
        lambda: delete_account(user=seat.user),
        lambda: Seat.objects.get(pk=seat.pk).is_bot,
    )


SCENARIOS = [
    add_last_bot_and_propose_call_off,
    add_last_bot_and_answer_call_off,
    last_player_joins_and_resign,
    move_and_resign,
    move_and_propose_call_off,
    move_and_answer_call_off,
    move_and_time_out,
    move_and_delete_the_account,
    resign_and_answer_call_off,
    move_and_declare_an_absence,
    declare_an_absence_and_delete_the_account,
]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda s: s.__name__)
@pytest.mark.parametrize("order", ["a_first", "b_first"])
def test_two_game_changing_actions_racing_never_deadlock(players, scenario, order):
    a, b, consistent = scenario(players)
    race(a, b) if order == "a_first" else race(b, a)
    assert consistent()
