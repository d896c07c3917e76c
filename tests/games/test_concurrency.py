"""Moves under concurrency: threads with their own database connections, real row locks."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection
from game_helpers import awaited_human, start_game

from games.exceptions import StaleVersion
from games.history import services as history_services
from games.models import Move, SeatView
from games.play import services as play_services


def run_together(*calls):
    """Run the calls in threads released at the same instant; each thread its own connection."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def worker(index, call):
        try:
            barrier.wait()
            results[index] = ("ok", call())
        except Exception as exc:  # noqa: BLE001 - collected for the assertions
            results[index] = ("error", exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("repeat", range(3))
def test_two_submissions_for_the_same_turn_apply_exactly_once(players, repeat):
    game = start_game("mamma-mia", players[:3])
    seat, view = awaited_human(game)
    version = game.version

    def submit(move):
        return lambda: play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=move, expected_version=version, idempotency_key=uuid.uuid4()
        )

    moves = view.legal_moves
    results = run_together(submit(moves[0]), submit(moves[-1]))
    outcomes = sorted(kind for kind, _ in results)
    assert outcomes == ["error", "ok"], results
    error = next(value for kind, value in results if kind == "error")
    assert isinstance(error, StaleVersion)
    assert "moved on" in error.message
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.version == version + 1
    assert history_services.check_snapshot(game).problems == []


@pytest.mark.django_db(transaction=True)
def test_many_threads_racing_leave_one_move_and_a_consistent_game(players):
    game = start_game("marumiere", players[:3])
    seat, view = awaited_human(game)
    calls = [
        (
            lambda m=m: play_services.check_play_move(
                user=seat.user, game_id=game.pk, move=m, expected_version=game.version
            )
        )
        for m in (view.legal_moves * 3)[:6]
    ]
    results = run_together(*calls)
    assert sum(kind == "ok" for kind, _ in results) == 1
    assert all(isinstance(v, StaleVersion) for kind, v in results if kind == "error")
    assert Move.objects.filter(game=game).count() == 1
    assert history_services.check_snapshot(game).problems == []


@pytest.mark.django_db(transaction=True)
def test_the_same_form_posted_twice_at_once_applies_once(players):
    game = start_game("konamon", players[:3])
    seat, view = awaited_human(game)
    key = uuid.uuid4()
    call = lambda: play_services.check_play_move(  # noqa: E731
        user=seat.user, game_id=game.pk, move=view.legal_moves[0], expected_version=game.version, idempotency_key=key
    )
    results = run_together(call, call)
    assert [kind for kind, _ in results] == ["ok", "ok"], results
    assert sorted(r.replayed for _, r in results) == [False, True]
    assert Move.objects.filter(game=game, idempotency_key=key).count() == 1


@pytest.mark.django_db(transaction=True)
def test_simultaneous_choices_of_different_players_both_apply(players):
    """Konamon!'s players choose at once: one's choice does not make another's form stale."""
    game = start_game("konamon", players[:3])
    version = game.version
    views = {v.seat_number: v for v in SeatView.objects.filter(game=game, seat_number__isnull=False)}
    seats = list(game.seats.select_related("user").filter(awaited=True).order_by("number"))
    assert len(seats) == 3
    calls = [
        (
            lambda s=s: play_services.check_play_move(
                user=s.user, game_id=game.pk, move=views[s.number].legal_moves[0], expected_version=version
            )
        )
        for s in seats
    ]
    results = run_together(*calls)
    assert [kind for kind, _ in results] == ["ok", "ok", "ok"], results
    assert Move.objects.filter(game=game, made_by="player").count() >= 3
    assert history_services.check_snapshot(game).problems == []
