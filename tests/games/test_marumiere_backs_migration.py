"""Migration 0005_i14_marumiere_backs_per_round: Marumiere games stored before issue 14 (one size factor
per card for the whole game, in [0.92, 1.08], sizes with 2 decimals) take the sizes the engine now draws
for their round, in the state row and in every stored view, and play on to their end."""

from __future__ import annotations

import hashlib
import importlib
import json
import random
from pathlib import Path

import pytest
from django.apps import apps
from game_helpers import start_game
from test_state_log_chunks import play_to_the_end

from games.history import services as history_services
from games.models import GameState, GameStatus, Seat, SeatView
from games.play import services as play_services
from marumiere import engine as m

migration = importlib.import_module("games.migrations.0005_i14_marumiere_backs_per_round")
BEFORE_I14 = Path(__file__).resolve().parent.parent / "engines" / "data" / "marumiere_before_i14.json"


def sizes_before_i14(seed) -> dict[str, float]:
    """The sizes the engine drew before issue 14: its first draw from the seed, for the whole game."""
    digest = hashlib.sha256(f"{seed}:0".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:16], "big"))
    return {card: round(m.NUMBER_OF[card] * rng.uniform(0.92, 1.08), 2) for card in m.CARDS}


def test_the_sizes_before_i14_are_those_the_old_engine_stored():
    stored = json.loads(BEFORE_I14.read_text())
    assert stored["state"]["sizes"] == sizes_before_i14(stored["seed"])


def store_as_before_i14(game) -> None:
    """Rewrite a game's state row and views as the engine before issue 14 stored them."""
    row = GameState.objects.get(game=game)
    old_sizes = sizes_before_i14(row.state["seed"])
    row.state = {**row.state, "sizes": old_sizes}
    row.save(update_fields=["state"])
    for seat_view in SeatView.objects.filter(game=game):
        view = m.engine.view({**row.state, "log": []}, seat_view.seat_number)
        view.pop("log")
        seat_view.view = view
        seat_view.save(update_fields=["view"])


def sizes_in_views(game) -> list[float]:
    sizes = []
    for view in SeatView.objects.filter(game=game).values_list("view", flat=True):
        sizes += [card["size"] for row in view["rows"] for card in row]
        sizes += [pile["top"]["size"] for pile in view["piles"]] + [card["size"] for card in view["trick"]]
    return sizes


def play_into_round_two(game, rng: random.Random) -> None:
    for _ in range(500):
        play_services.play_bot_turns(game_id=game.pk)
        game.refresh_from_db()
        state = GameState.objects.get(game=game).state
        if state["round"] == 2 and state["phase"] == "play":
            return
        seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").first()
        legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
        move = rng.choice(legal)
        play_services.check_play_move(user=seat.user, game_id=game.pk, move=move, expected_version=game.version)
    raise AssertionError("round 2 did not come")


@pytest.mark.django_db
def test_a_game_stored_before_i14_takes_this_rounds_new_sizes_and_plays_to_its_end(players):
    game = start_game("marumiere", players[:2], bots=1)
    play_into_round_two(game, random.Random(14))
    store_as_before_i14(game)
    assert "stored state differs from the replayed one" in history_services.check_snapshot(game).problems
    assert any(round(size, 1) != size for size in sizes_in_views(game)), "the views had 2 decimals"

    migration.backs_per_round(apps, None)

    state = GameState.objects.get(game=game).state
    assert state["sizes"] == m.round_sizes(state["seed"], 2)
    assert all(round(size, 1) == size for size in sizes_in_views(game))
    assert history_services.check_snapshot(game).problems == [], "stored state and views are what a replay gives"
    before = list(SeatView.objects.filter(game=game).values_list("view", flat=True))
    migration.backs_per_round(apps, None)
    assert list(SeatView.objects.filter(game=game).values_list("view", flat=True)) == before, "runs once"

    play_to_the_end(game, random.Random(41))
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert history_services.check_snapshot(game).problems == []
    assert history_services.verify_deal(game) == []


@pytest.mark.django_db
def test_a_finished_game_stored_before_i14_replays_clean_after_the_migration(players):
    game = start_game("marumiere", players[:2], bots=1)
    play_to_the_end(game, random.Random(7))
    store_as_before_i14(game)
    other = start_game("konamon", players[:2], bots=1)
    konamon_state = GameState.objects.get(game=other).state

    migration.backs_per_round(apps, None)

    assert history_services.check_snapshot(game).problems == []
    assert all(round(size, 1) == size for size in sizes_in_views(game))
    assert GameState.objects.get(game=other).state == konamon_state, "other games are left alone"
