"""Konamon! and Marumiere keep their engine log out of the state row: each move inserts its new events
as one GameLogChunk, the row keeps ``"log": []``, and ``tables.full_state`` puts the whole log back
for the replay, snapshot and deal checks. Mamma Mia! keeps its whole state in the row."""

from __future__ import annotations

import importlib
import random

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext
from game_helpers import start_game

from games import tables
from games.history import services as history_services
from games.models import GameLogChunk, GameState, GameStatus, Seat, SeatView
from games.play import services as play_services

migration = importlib.import_module("games.migrations.0004_state_log_chunks")


def play_to_the_end(game, rng: random.Random) -> None:
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return
        play_services.play_bot_turns(game_id=game.pk)
        game.refresh_from_db()
        seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").first()
        if game.status != GameStatus.ACTIVE or seat is None:
            continue
        legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(legal), expected_version=game.version
        )
    raise AssertionError("the game did not end")


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["konamon", "marumiere"])
def test_a_whole_game_stores_its_log_in_chunks_and_replays_to_the_same_full_state(slug, players):
    game = start_game(slug, players[:2], bots=1)
    play_to_the_end(game, random.Random(slug))
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    row = GameState.objects.get(game=game)
    assert row.state["log"] == []
    chunks = list(GameLogChunk.objects.filter(game=game).order_by("first_index"))
    assert len(chunks) > 10  # the set-up's events and one chunk per move that logged any
    assert [c.first_index for c in chunks[1:]] == [c.first_index + len(c.events) for c in chunks[:-1]]
    assert row.log_length == chunks[-1].first_index + len(chunks[-1].events)
    *_, (_last, replayed) = history_services.replay_states(game)
    assert tables.full_state(game) == replayed == history_services.final_state(game)
    assert len(replayed["log"]) == row.log_length
    assert history_services.check_snapshot(game).problems == []
    assert history_services.verify_deal(game) == []


@pytest.mark.django_db
def test_check_snapshot_and_verify_deal_report_a_tampered_log_chunk(players):
    game = start_game("konamon", players[:2], bots=1)
    play_to_the_end(game, random.Random(3))
    chunk = GameLogChunk.objects.filter(game=game).order_by("-first_index")[3]
    GameLogChunk.objects.filter(pk=chunk.pk).update(events=[*chunk.events[:-1], {**chunk.events[-1], "seat": 9}])
    assert history_services.check_snapshot(game).problems == ["stored log differs from the replayed one"]
    assert history_services.verify_deal(game) == ["the re-run game ends in a different state than the one played"]
    GameLogChunk.objects.filter(pk=chunk.pk).delete()
    assert history_services.check_snapshot(game).problems == ["stored log differs from the replayed one"]


@pytest.mark.django_db
def test_mamma_mia_keeps_its_whole_log_in_the_state_row(players):
    game = start_game("mamma-mia", players[:2], bots=1)
    play_services.play_bot_turns(game_id=game.pk)
    row = GameState.objects.get(game=game)
    assert row.state["log"] and row.log_length == 0
    assert not GameLogChunk.objects.filter(game=game).exists()
    assert tables.full_state(game) == row.state


@pytest.mark.django_db
def test_a_late_move_writes_no_more_sql_than_an_early_one(players):
    """The state row no longer grows with the log: a move's statements stay the same size."""
    game = start_game("konamon", players[:2], bots=1)
    rng = random.Random(7)

    def move_sql() -> int:
        game.refresh_from_db()
        seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").first()
        while seat is None:
            play_services.play_bot_turns(game_id=game.pk)
            game.refresh_from_db()
            seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").first()
        legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
        with CaptureQueriesContext(connection) as queries:
            play_services.check_play_move(
                user=seat.user, game_id=game.pk, move=rng.choice(legal), expected_version=game.version
            )
        return sum(len(q["sql"]) for q in queries.captured_queries if "gamestate" in q["sql"])

    early = move_sql()
    for _ in range(60):
        move_sql()
    assert tables.full_state(game)["log"], "the game has a log by now"
    assert move_sql() < early * 2


@pytest.mark.django_db
def test_the_migration_moves_logs_into_chunks_and_back(players):
    game = start_game("marumiere", players[:2], bots=1)
    play_services.play_bot_turns(game_id=game.pk)
    whole = tables.full_state(game)
    migration.chunks_to_logs(apps, None)
    row = GameState.objects.get(game=game)
    assert row.state == whole and row.log_length == 0
    assert not GameLogChunk.objects.exists()
    migration.logs_to_chunks(apps, None)
    row = GameState.objects.get(game=game)
    assert row.state["log"] == [] and row.log_length == len(whole["log"])
    assert tables.full_state(game) == whole
    assert history_services.check_snapshot(game).problems == []
