"""Ratings: OpenSkill per game, moved in the transaction that ends a rated game, reproducible from history."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from competition_helpers import finish_with, play_randomly_to_the_end, started
from django.core.management import CommandError, call_command
from django.utils import timezone

from competition import ratings
from competition.models import Rating, RatingChange
from competition.outcome import game_result
from games.models import GameStatus

pytestmark = pytest.mark.django_db


def shown(user, slug):
    row = Rating.objects.filter(user=user, engine_slug=slug).first()
    return None if row is None else (row.mu, row.sigma, row.conservative, row.games)


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_winner_gains_and_loser_loses_in_every_table_size(size, people):
    users = people[:size]
    game = finish_with(started(users), {u: i + 1 for i, u in enumerate(users)})
    after = {u: shown(u, game.engine_slug) for u in users}
    assert after[users[0]][0] > ratings.MU, "the winner's mean rises"
    assert after[users[-1]][0] < ratings.MU, "the last player's mean falls"
    means = [after[u][0] for u in users]
    assert means == sorted(means, reverse=True), "better places end higher"
    assert all(a[1] < ratings.SIGMA for a in after.values()), "every uncertainty shrinks"
    assert all(a[3] == 1 for a in after.values())
    assert all(a[2] == pytest.approx(a[0] - 3 * a[1]) for a in after.values())
    assert RatingChange.objects.filter(game=game).count() == size


@pytest.mark.parametrize("size", [2, 3, 4, 5])
def test_a_tie_gives_tied_players_the_same_rating(size, people):
    users = people[:size]
    places = dict.fromkeys(users, 1)  # everyone ties
    game = finish_with(started(users), places)
    after = [shown(u, game.engine_slug) for u in users]
    assert all(a[0] == pytest.approx(ratings.MU) for a in after), "equal players tying: no mean moves"
    assert all(a[1] < ratings.SIGMA for a in after)
    if size >= 3:  # a tie for first above a last player
        users2 = people[size : size + 3] if size + 3 <= len(people) else people[:3]
        Rating.objects.filter(user__in=users2).delete()
        game2 = finish_with(started(users2), {users2[0]: 1, users2[1]: 1, users2[2]: 3})
        first, second, last = (shown(u, game2.engine_slug) for u in users2)
        assert first[0] == pytest.approx(second[0]) and first[0] > ratings.MU > last[0]


def test_beating_a_stronger_player_moves_more_than_beating_a_weaker_one(people):
    strong, weak, a, b = people[:4]
    for _ in range(3):
        finish_with(started([strong, weak]), {strong: 1, weak: 2})
    game = finish_with(started([a, strong]), {a: 1, strong: 2})
    gain_against_strong = shown(a, game.engine_slug)[0] - ratings.MU
    finish_with(started([b, weak]), {b: 1, weak: 2})
    gain_against_weak = shown(b, game.engine_slug)[0] - ratings.MU
    assert gain_against_strong > gain_against_weak > 0


def test_unrated_games_change_nothing(people):
    a, b, c = people[:3]
    finish_with(started([a, b], rated=False), {a: 1, b: 2})
    with_bot = started([c], bots=1)
    assert not with_bot.rated, "a game with a bot is never rated"
    finish_with(with_bot, {c: 1})
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_a_cancelled_or_abandoned_game_has_no_result(people):
    a, b = people[:2]
    game = started([a, b])
    game.status = GameStatus.CANCELLED
    seats = list(game.seats.all())
    assert game_result(game=game, seats=seats) is None
    game.status = "abandoned"
    assert game_result(game=game, seats=seats) is None


def test_a_resigned_seat_counts_as_last_whatever_the_bot_scored(people):
    a, b, c = people[:3]
    game = started([a, b, c])
    game.status = GameStatus.FINISHED
    seats = list(game.seats.all())
    for seat in seats:
        seat.final_rank = {a.pk: 1, b.pk: 2, c.pk: 3}[seat.user_id]
    next(s for s in seats if s.user_id == a.pk).resigned = True  # issue 17's mark
    assert game_result(game=game, seats=seats) == {a.pk: 4, b.pk: 2, c.pk: 3}


def test_a_real_game_played_to_the_end_is_rated_in_its_own_transaction(people):
    a, b = people[:2]
    game = play_randomly_to_the_end(started([a, b], slug="marumiere"), random.Random(22))
    assert game.status == GameStatus.FINISHED and game.rated
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=game)}
    assert set(changes) == {a.pk, b.pk}
    winner = min(changes.values(), key=lambda c: c.rank)
    loser = max(changes.values(), key=lambda c: c.rank)
    if winner.rank != loser.rank:
        assert winner.mu > ratings.MU > loser.mu
    assert not ratings.rebuild().differences


def test_rebuild_reproduces_every_rating_and_reports_a_tampered_one(people):
    rng = random.Random(7)
    start = timezone.now() - dt.timedelta(days=5)
    for i in range(25):
        size = rng.choice([2, 3, 4, 5])
        users = rng.sample(people, size)
        places = {u: rng.randint(1, size) for u in users}
        finish_with(started(users, slug="mamma-mia" if size > 2 else "marumiere"), places,
                    when=start + dt.timedelta(minutes=i))
    report = ratings.rebuild()
    assert report.games == 25 and not report.differences
    call_command("rebuild_ratings")  # exits 0: nothing differs

    row = Rating.objects.order_by("pk").first()
    Rating.objects.filter(pk=row.pk).update(mu=row.mu + 1)
    assert len(ratings.rebuild().differences) == 1
    with pytest.raises(CommandError):
        call_command("rebuild_ratings")
    call_command("rebuild_ratings", "--write")
    assert not ratings.rebuild().differences


def test_rebuild_reports_ratings_of_a_game_no_longer_rated(people):
    a, b = people[:2]
    game = finish_with(started([a, b]), {a: 1, b: 2})
    game.rated = False
    game.save(update_fields=["rated"])
    assert len(ratings.rebuild().differences) == 2


@pytest.mark.django_db(transaction=True)
def test_two_games_of_one_player_ending_at_once_both_count(people):
    """Each locks the player's rating row: the second applies on top of the first, as a rebuild does."""
    import threading

    from django.db import connection

    star, a, b = people[:3]
    games = [started([star, a]), started([star, b])]
    barrier = threading.Barrier(2)
    errors = []

    def finish(game, opponent, offset):
        try:
            barrier.wait()
            finish_with(game, {star: 1, opponent: 2}, when=timezone.now() + dt.timedelta(seconds=offset))
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    pairs = enumerate(zip(games, (a, b), strict=True))
    threads = [threading.Thread(target=finish, args=(g, o, i)) for i, (g, o) in pairs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert shown(star, games[0].engine_slug)[3] == 2
    assert RatingChange.objects.filter(user=star).count() == 2
