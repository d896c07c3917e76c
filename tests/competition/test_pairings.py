"""League schedules: everyone meets everyone, as evenly as possible, the same schedule every time."""

from __future__ import annotations

import itertools

import pytest

from competition.pairings import games_per_player, meetings, schedule


def spread(rounds, players):
    met = meetings(rounds)
    counts = [met[pair] for pair in itertools.combinations(sorted(players), 2)]
    games = games_per_player(rounds)
    return min(counts), max(counts), min(games[p] for p in players), max(games[p] for p in players)


@pytest.mark.parametrize("count", [2, 3, 4, 5, 8, 11])
def test_two_player_leagues_are_a_round_robin_meeting_everyone_exactly_once(count):
    players = list(range(100, 100 + count))
    rounds = schedule(players, size=2, seed=1)
    assert spread(rounds, players) == (1, 1, count - 1, count - 1)
    for tables in rounds:  # nobody plays twice in one round
        seated = [p for table in tables for p in table]
        assert len(seated) == len(set(seated))


@pytest.mark.parametrize(("count", "size"), [(4, 3), (6, 3), (8, 4), (10, 4), (12, 4), (10, 5), (5, 4)])
def test_multiplayer_leagues_meet_everyone_with_equal_games(count, size):
    players = list(range(1, count + 1))
    rounds = schedule(players, size=size, seed=count)
    least_met, most_met, least_games, most_games = spread(rounds, players)
    assert least_met >= 1, "everyone meets everyone"
    assert most_games - least_games <= 1, "games per player as equal as the table size allows"
    for tables in rounds:
        assert all(len(table) == size for table in tables)
        seated = [p for table in tables for p in table]
        assert len(seated) == len(set(seated))


@pytest.mark.parametrize(("count", "size"), [(9, 3), (7, 3), (16, 4)])
def test_when_a_perfectly_even_schedule_exists_it_is_found(count, size):
    """9 in threes and 16 in fours (affine planes: each pair once), 7 in threes (each pair twice)."""
    players = list(range(1, count + 1))
    least_met, most_met, least_games, most_games = spread(schedule(players, size=size, seed=3), players)
    assert least_met == most_met and least_games == most_games


def test_the_schedule_depends_only_on_the_players_and_the_seed():
    players = [5, 3, 9, 1, 7, 2]
    assert schedule(players, size=3, seed=11) == schedule(list(reversed(players)), size=3, seed=11)


def test_too_few_players_for_one_table_is_refused():
    with pytest.raises(ValueError):
        schedule([1, 2], size=3, seed=0)
