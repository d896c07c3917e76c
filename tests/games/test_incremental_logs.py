"""A move of an engine with ``per_event_log`` extends each viewer's stored log tail with its new
events only; what it stores must equal what the whole log gives, at every move."""

from __future__ import annotations

import random

import pytest
from game_helpers import start_game

from games import signals, tables
from games.engines import get_engine
from games.history import services as history_services
from games.models import MadeBy, Seat, SeatView
from games.play import services as play_services


def _stored_logs_match_whole_logs(game) -> list[str]:
    """Each viewer's stored tail and size against ``log_tail`` and ``len`` of its whole log now."""
    state = tables.full_state(game)
    problems = []
    rows = list(SeatView.objects.filter(game=game))
    assert len(rows) == game.players + 1
    for row in rows:
        whole = game.engine.view(state, row.seat_number)["log"]
        if row.log_size != len(whole) or row.log_tail != tables.log_tail(whole):
            problems.append(f"version {game.version}, viewer {row.seat_number}")
    return problems


@pytest.mark.django_db
@pytest.mark.parametrize("players_count", [2, 3, 4])
@pytest.mark.parametrize("slug", ["konamon", "marumiere"])
def test_each_viewers_stored_log_tail_and_size_equal_its_whole_logs_at_every_move(slug, players_count, players):
    assert get_engine(slug).per_event_log
    rng = random.Random(f"{slug}:{players_count}")
    problems: list[str] = []
    checked = {"start": 0, "moves": 0, "made_by": set()}

    # Checked inside each move's transaction, so a timeout's or a bot task's run of several
    # moves (one locked table, rows extended in memory from move to move) is checked move by move.
    def check(sender, game, moves, seat_logs, **kwargs):
        problems.extend(_stored_logs_match_whole_logs(game))
        if moves:
            checked["moves"] += 1
            checked["made_by"].update(move.made_by for move in moves)
            if seat_logs:  # the whole logs were computed: the incremental path was not taken
                problems.append(f"version {game.version}: whole logs computed")
        else:
            checked["start"] += 1

    signals.game_advanced.connect(check, weak=False, dispatch_uid="test_incremental_logs")
    try:
        game = start_game(slug, players[:players_count])
        for _ in range(2000):
            game.refresh_from_db()
            if game.status != "active":
                break
            seat = Seat.objects.filter(game=game, awaited=True).select_related("user").order_by("number").first()
            if seat.is_bot:  # dropped out after three timeouts: the bot task's own loop
                play_services.play_bot_turns(game_id=game.pk, expected_version=game.version)
            elif rng.random() < 0.05:
                play_services.play_timeout_move(game_id=game.pk, seat_number=seat.number, expected_version=game.version)
            else:
                legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
                play_services.check_play_move(
                    user=seat.user, game_id=game.pk, move=rng.choice(legal), expected_version=game.version
                )
    finally:
        signals.game_advanced.disconnect(dispatch_uid="test_incremental_logs")

    game.refresh_from_db()
    assert game.status == "finished"
    assert problems == []
    assert checked["start"] == 1 and checked["moves"] == game.version
    assert {MadeBy.PLAYER, MadeBy.TIMEOUT} <= checked["made_by"]
    assert history_services.check_snapshot(game).problems == []

