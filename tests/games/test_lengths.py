"""How long a game lasts and how far it has come (issue 19, point 6): each game folder's measured ``length.json``,
the words for it on the creation form and in the lobby, and "round 2 of 3" in My games without replaying."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from game_helpers import SLUGS, start_game

from games import lengths
from games.engines import get_engine
from games.engines.length import measure, path_of, play_one, read
from games.models import Game, GameStatus, Seat, SeatView
from games.play import services as play_services
from games.registry import get_game


@pytest.mark.parametrize("slug", SLUGS)
def test_every_game_folder_has_a_measured_length_for_each_seat_count_it_takes(slug):
    engine = get_engine(slug)
    stored = read(path_of(engine))
    assert stored is not None, f"run python -m games.engines.length {slug}"
    assert sorted(int(n) for n in stored["players"]) == list(range(engine.min_players, engine.max_players + 1))
    assert get_game(slug).length(engine.min_players).moves_mean > 0


@pytest.mark.parametrize("slug", SLUGS)
def test_the_stored_length_is_what_bot_self_play_measures(slug):
    """Bots are deterministic: the first games of the measurement fall inside the stored ranges, and a small
    measurement of the same seeds agrees with itself (the file is the same measurement with more games)."""
    engine = get_engine(slug)
    stored = read(path_of(engine))
    for players in range(engine.min_players, engine.max_players + 1):
        row = stored["players"][str(players)]
        for seed in (1, 2):
            rounds, moves = play_one(engine, players, seed)
            assert row["rounds"]["min"] <= rounds <= row["rounds"]["max"]
            assert all(row["moves_per_seat"]["min"] <= m <= row["moves_per_seat"]["max"] for m in moves)
    assert measure(engine, games=2) == measure(engine, games=2)


def test_lengths_read_as_people_say_them():
    assert lengths.length_text("mamma-mia", 3) == "3 rounds, ~30 moves each"
    konamon = lengths.length_text("konamon", 4)
    assert konamon.startswith("~") and "rounds, ~" in konamon and konamon.endswith("moves each")
    assert lengths.length_range_text("marumiere") == "3–4 rounds, ~30–40 moves each"
    assert lengths.about(133.8) == 135 and lengths.about(7.4) == 7


def test_a_game_without_a_measurement_says_nothing_of_its_length():
    assert lengths.length_text("hidden-number", 2) == ""
    assert lengths.length_range_text("hidden-number") == ""


@pytest.mark.django_db
def test_the_round_is_stored_with_each_move_from_the_views(players):
    game = start_game("mamma-mia", players[:2])
    assert game.round == 1
    spectator = SeatView.objects.get(game=game, seat_number=None)
    assert spectator.view["round"] == game.round
    for _ in range(400):
        game.refresh_from_db()
        if game.round == 2 or game.status != GameStatus.ACTIVE:
            break
        seat = Seat.objects.filter(game=game, awaited=True).order_by("number").first()
        view = SeatView.objects.get(game=game, seat_number=seat.number)
        play_services.check_play_move(user=seat.user, game_id=game.pk, move=view.legal_moves[0],
                                      expected_version=game.version)
    assert game.round == 2 == SeatView.objects.get(game=game, seat_number=None).view["round"]
    assert lengths.progress_text(game) == "round 2 of 3"


@pytest.mark.django_db
def test_progress_of_a_game_whose_rounds_vary_is_an_estimate(players):
    game = start_game("konamon", players[:2])
    expected = lengths.about(get_game("konamon").length(2).rounds_mean)
    assert lengths.progress_text(game) == f"round 1 of ~{expected}"
    game.round = expected + 3
    assert lengths.progress_text(game) == f"round {expected + 3}"


@pytest.mark.django_db
def test_my_games_shows_each_games_progress_with_queries_that_do_not_grow_with_the_games(client, players):
    client.force_login(players[0])
    start_game("mamma-mia", players[:2])
    client.get(reverse("my-games"))
    with CaptureQueriesContext(connection) as few:
        html = client.get(reverse("my-games")).content.decode()
    assert "round 1 of 3" in html
    for _ in range(4):
        start_game("marumiere", players[:3])
        start_game("konamon", players[:2])
    with CaptureQueriesContext(connection) as many:
        html = client.get(reverse("my-games")).content.decode()
    assert html.count("round 1 of 3") >= 5 and "round 1 of ~" in html
    assert len(many) == len(few)
    # Nothing was replayed or read from the game states.
    assert not any("games_gamestate" in q["sql"] for q in many.captured_queries)


@pytest.mark.django_db
def test_the_lobby_says_how_long_each_open_game_lasts(client, players):
    from games.lobby import services as lobby_services

    lobby_services.create_game(user=players[0], engine_slug="mamma-mia", players=4)
    html = client.get(reverse("lobby")).content.decode()
    assert "3 rounds, ~25 moves each" in html


@pytest.mark.django_db
def test_the_round_of_games_started_before_it_was_stored_comes_from_their_stored_view(players):
    """The data migration's query: every started game's round from its spectator view, no replay."""
    import importlib

    migration = importlib.import_module("games.migrations.0009_i19_game_round")
    game = start_game("marumiere", players[:3])
    Game.objects.filter(pk=game.pk).update(round=None)
    from django.apps import apps

    migration.rounds_from_the_stored_views(apps, None)
    game.refresh_from_db()
    assert game.round == 1
