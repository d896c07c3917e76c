"""Match history and statistics: the counters the services keep, and the keyset pages of finished games."""

from __future__ import annotations

import copy
import datetime as dt
import hashlib
import importlib
import random
import re

import pytest
from django.apps import apps
from django.db.models import Avg, Count, Q
from django.urls import reverse
from django.utils import timezone
from game_helpers import start_game

from games.history import selectors as history_selectors
from games.models import Game, GameState, GameStatus, PlayerStats, Seat, SeatView
from games.play import services as play_services


def aggregate_stats(user) -> dict[str, dict]:
    """What the counters must equal: the aggregate over the user's seats in finished games."""
    rows = (
        Seat.objects.filter(user=user, game__status=GameStatus.FINISHED)
        .values("game__engine_slug")
        .annotate(
            played=Count("id"),
            won=Count("id", filter=Q(final_rank=1)),
            average_place=Avg("final_rank"),
            dropped=Count("id", filter=Q(dropped_out=True)),
            average_score=Avg("final_score"),
        )
    )
    return {
        row["game__engine_slug"]: {
            "played": row["played"],
            "won": row["won"],
            "average_place": pytest.approx(row["average_place"]),
            "dropped": row["dropped"],
            "average_score": pytest.approx(row["average_score"]),
        }
        for row in rows
    }


def counter_stats(user) -> dict[str, dict]:
    return {
        row["engine_slug"]: {k: row[k] for k in ("played", "won", "average_place", "dropped", "average_score")}
        for row in history_selectors.game_stats(user=user)
    }


def timeout_ends_the_game(game, seat_number: int) -> bool:
    """Would the bot's moves for ``seat_number`` (as ``play_timeout_move`` plays them) end the game?"""
    engine = game.engine
    state = copy.deepcopy(GameState.objects.get(game=game).state)
    while seat_number in engine.waiting_for(state):
        state = engine.play(state, seat_number, engine.bot_move(state, seat_number))
        if engine.is_over(state):
            return True
    return False


def play_out(game, rng: random.Random, *, victim: int | None = None, drop: str = "never") -> bool:
    """Play ``game`` to its end through the services; the seat ``victim`` (a human) drops out after
    three timeouts, at once (``drop="early"``) or with the timed-out move that ends the game
    (``drop="last"``, if the game allows it). True if the victim dropped out."""
    dropped = False
    for _ in range(2000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            assert game.status == GameStatus.FINISHED
            return dropped
        awaited = list(Seat.objects.filter(game=game, awaited=True).select_related("user").order_by("number"))
        if any(s.is_bot for s in awaited):
            play_services.play_bot_turns(game_id=game.pk)
            continue
        # The victim moves last when several seats choose at once (Konamon!).
        seat = next((s for s in awaited if s.number != victim), awaited[0])
        if seat.number == victim and (drop == "early" or (drop == "last" and timeout_ends_the_game(game, victim))):
            if drop == "last":
                Seat.objects.filter(pk=seat.pk).update(timeouts=2)
            play_services.play_timeout_move(game_id=game.pk, seat_number=victim, expected_version=game.version)
            dropped = Seat.objects.get(pk=seat.pk).dropped_out
            continue
        legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(legal), expected_version=game.version
        )
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_stats_counters_equal_the_aggregate_after_finished_games_with_drop_outs(players):
    rng = random.Random(5)
    alice, bob = players[:2]
    play_out(start_game("marumiere", [alice], bots=1), rng)
    game = start_game("marumiere", [alice, bob], time_limit_hours=24)
    bob_seat = Seat.objects.get(game=game, user=bob).number
    assert play_out(game, rng, victim=bob_seat, drop="early")
    # A drop-out with the timed-out move that ends the game (counted after _finish counted the seat).
    for _ in range(5):
        game = start_game("konamon", [alice, bob], time_limit_hours=24)
        bob_seat = Seat.objects.get(game=game, user=bob).number
        if play_out(game, rng, victim=bob_seat, drop="last"):
            break
    else:
        raise AssertionError("no game ended on the drop-out")
    game.refresh_from_db()
    assert Seat.objects.get(game=game, user=bob).dropped_out and game.status == GameStatus.FINISHED
    start_game("konamon", [alice, bob])  # in progress: not counted

    for user in (alice, bob):
        expected = aggregate_stats(user)
        assert counter_stats(user) == expected
        assert set(expected) == {"marumiere", "konamon"}
    assert counter_stats(bob)["marumiere"]["dropped"] == 1 and counter_stats(bob)["konamon"]["dropped"] >= 1
    assert not PlayerStats.objects.filter(user__isnull=True).exists()  # bots have no statistics


@pytest.mark.django_db
def test_the_migration_backfill_gives_the_counters_the_services_keep(players):
    alice = players[0]
    finished_games(alice, 7, opponents=players[1:3])
    kept = counter_stats(alice)
    history = [s.pk for s in history_selectors.history_page(user=alice, per_page=50).object_list]
    Seat.objects.update(finished_at=None)
    PlayerStats.objects.all().delete()
    migration = importlib.import_module("games.migrations.0003_history_keys_and_player_stats")
    migration.backfill(apps, None)
    importlib.import_module("games.migrations.0011_player_stats_scores").backfill(apps, None)  # the average score
    assert counter_stats(alice) == kept == aggregate_stats(alice)
    assert [s.pk for s in history_selectors.history_page(user=alice, per_page=50).object_list] == history


def finished_games(user, count: int, *, opponents, ties: int = 1) -> list[Game]:
    """``count`` finished games for ``user`` (bulk, as the bench seeds them), ``ties`` at a time sharing
    the same finished_at; the seats' finished_at and the counters as ``_finish`` writes them."""
    now = timezone.now()
    games = []
    for index in range(count):
        finished = now - dt.timedelta(minutes=10 * (index // ties))
        game = Game.objects.create(
            engine_slug=["konamon", "marumiere"][index % 2], players=2, status=GameStatus.FINISHED,
            seed_sha256=hashlib.sha256(str(index).encode()).hexdigest(), revealed_seed=str(index),
            created_by=user, started_at=finished - dt.timedelta(days=1), finished_at=finished,
            outcome=[{"seat": 0, "rank": 1, "score": 5}, {"seat": 1, "rank": 2, "score": 3}],
        )
        mine = index % 2
        seats = [
            Seat.objects.create(game=game, number=n, join_order=n, user=user if n == mine else opponents[index % 2],
                                final_rank=n + 1, final_score=5 - 2 * n, finished_at=finished)
            for n in range(2)
        ]
        play_services.record_finished_seats(engine_slug=game.engine_slug, seats=seats)
        games.append(game)
    return games


def newest_first(games: list[Game]) -> list[int]:
    return [g.pk for g in sorted(games, key=lambda g: (g.finished_at, g.pk), reverse=True)]


@pytest.mark.django_db
def test_history_pages_walk_every_finished_game_exactly_once_both_ways(players):
    alice = players[0]
    games = finished_games(alice, 23, opponents=players[1:3], ties=3)
    finished_games(players[1], 4, opponents=players[2:4])  # someone else's history
    start_game("konamon", [alice, players[3]])  # in progress: not in the history
    expected = newest_first(games)

    pages, token = [], None
    while True:
        page = history_selectors.history_page(user=alice, page=token, per_page=5)
        pages.append([s.game_id for s in page.object_list])
        assert all(s.user_id == alice.pk for s in page.object_list)
        token = page.older
        if token is None:
            break
    assert [len(p) for p in pages] == [5, 5, 5, 5, 3]
    assert [game_id for p in pages for game_id in p] == expected

    # Back from the oldest page: full pages aligned on the oldest game, then the newest page.
    page = history_selectors.history_page(user=alice, page=history_selectors.OLDEST, per_page=5)
    assert page.older is None
    back = [[s.game_id for s in page.object_list]]
    while page.newer is not None:
        page = history_selectors.history_page(user=alice, page=page.newer, per_page=5)
        back.append([s.game_id for s in page.object_list])
    assert back[0] == expected[-5:] and back[-1] == expected[:5]
    seen = [game_id for p in back for game_id in p]
    assert set(seen) == set(expected) and len(seen) == len(set(seen)) + (5 - 23 % 5)  # only the newest page overlaps

    def ids(token):
        return [s.game_id for s in history_selectors.history_page(user=alice, page=token, per_page=5).object_list]

    # "Newer" from the second page is the first page; a forged or outdated token is the newest page.
    first = history_selectors.history_page(user=alice, per_page=5)
    second = history_selectors.history_page(user=alice, page=first.older, per_page=5)
    assert ids(second.newer) == pages[0]
    for forged in ("older.x.1", "newer.1.2.3", "3", "older.99999999999999999999.1", "older.0.1"):
        assert ids(forged) == pages[0], forged


def walk_pages(client, url: str, section: str) -> list[int]:
    """Follow a page's "Older" links to the end: the game ids listed in ``section``, in order."""
    listed, path = [], url
    for _ in range(50):
        html = client.get(path).content.decode()
        part = html.split(section, 1)[1].split("</section>", 1)[0]
        listed += [int(n) for n in re.findall(r'<a (?:class="game-link" )?href="/games/(\d+)/"', part)]
        older = re.search(r'href="\?page=(older\.[0-9.]+)(#[a-z-]+)?" rel="next"', part)
        if older is None:
            return listed
        path = f"{url}?page={older.group(1)}"
    raise AssertionError("no last page")


@pytest.mark.django_db
def test_my_games_and_the_profile_list_every_finished_game_once_through_their_pages(players, client):
    alice = players[0]
    games = finished_games(alice, 23, opponents=players[1:3], ties=2)
    client.force_login(alice)
    expected = newest_first(games)
    assert walk_pages(client, reverse("my-games"), 'id="finished-title"') == expected
    assert walk_pages(client, reverse("profile", args=[alice.username]), 'class="history') == expected
    oldest = client.get(reverse("profile", args=[alice.username]) + "?page=oldest").content.decode()
    assert f'href="/games/{expected[-1]}/"' in oldest and f'href="/games/{expected[0]}/"' not in oldest
    assert 'td data-label="Place"' in oldest and "Oldest" not in oldest
    assert f'<a href="{reverse("profile", args=[alice.username])}#history-title">Newest</a>' in oldest


@pytest.mark.django_db
def test_a_game_whose_moves_no_longer_replay_sends_its_replay_page_back_to_the_game_with_a_reason(players, client):
    """Played under an earlier reading of the rules (issue 14's Konamon! c09): the engine now refuses a recorded
    move. The replay page says so instead of failing; the game page still shows the result."""
    from games import tables
    from games.models import Move

    game = start_game("hidden-number", players[:2])
    for _ in range(300):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat = Seat.objects.get(game=game, awaited=True)
        move = game.engine.bot_move(tables.full_state(game), seat.number)
        play_services.check_play_move(user=seat.user, game_id=game.pk, move=move, expected_version=game.version)
    assert game.status == GameStatus.FINISHED
    Move.objects.filter(game=game, sequence=1).update(move={"type": "guess", "number": 10**6})  # the old reading's
    client.force_login(players[0])
    response = client.get(reverse("game-replay", args=[game.pk]), {"step": game.version})
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    page = client.get(response["Location"])
    assert "earlier reading of the rules" in page.content.decode()
