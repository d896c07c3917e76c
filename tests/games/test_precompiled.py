"""The game page's reads compiled once per process (``games.precompiled``, issue 33) give what the ordinary
querysets give, for every game, viewer and seat they are asked about."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from game_helpers import start_game

from games import precompiled
from games.models import Seat, SeatView
from games.play import selectors


def _fields(seat: Seat) -> dict:
    data = {name: value for name, value in vars(seat).items() if not name.startswith("_")}
    return {**data, "game": vars(seat.game).get("version"), "user": seat.user.username if seat.user_id else None}


def _ordinary(game_id: int, user) -> list[dict]:
    return [_fields(seat) for seat in selectors._access_rows(game_id, user)]


@pytest.mark.django_db
def test_game_access_gives_the_ordinary_querysets_rows_for_each_game_and_viewer(players):
    first = start_game("konamon", players[:3])
    second = start_game("mamma-mia", players[1:3])
    for game in (first, second, first):
        for user in (players[0], players[2], AnonymousUser()):
            access = selectors.game_access(game_id=game.pk, user=user)
            assert [_fields(seat) for seat in access.seats] == _ordinary(game.pk, user)
            mine = access.seat.user_id if access.seat is not None else None
            assert mine == (user.pk if any(s.user_id == user.pk for s in access.seats) else None)
            assert all(seat.game is access.game for seat in access.seats)


@pytest.mark.django_db
def test_seat_view_for_reads_the_asked_seats_row_with_its_log_times(players):
    game = start_game("konamon", players[:3])
    for number in (0, 2, None, 1):
        row = selectors.seat_view_for(game=game, seat_number=number, log_times_for=20)
        expected = SeatView.objects.get(game=game, seat_number=number)
        assert row.pk == expected.pk and row.view == expected.view and row.legal_moves == expected.legal_moves
        assert row.log_platform and row.log_platform[0]["kind"] == "started"
        assert selectors.seat_view_for(game=game, seat_number=number).pk == expected.pk
    assert selectors.seat_view_for(game=game, seat_number=7) is None


@pytest.mark.django_db
def test_a_shape_whose_values_are_not_plain_parameters_runs_as_an_ordinary_queryset(players):
    start_game("konamon", players[:3])

    def build(number):  # the value is written into the SQL text, not passed as a parameter
        return Seat.objects.extra(where=[f"games_seat.number = {int(number)}"])  # noqa: S610 - an int

    assert precompiled.fetch(("test", "not plain"), build, (1,)) == list(Seat.objects.filter(number=1))
    assert precompiled.fetch(("test", "not plain"), build, (0,)) == list(Seat.objects.filter(number=0))
    assert precompiled._shapes[("test", "not plain")] is None


@pytest.mark.django_db
def test_the_games_awaiting_a_player_are_read_for_that_player(players):
    from games.play.next_game import awaited_game_ids

    games = [start_game("konamon", players[:3]), start_game("mamma-mia", players[:2])]
    for user in players[:4]:
        expected = sorted(Seat.objects.filter(user=user, awaited=True, is_bot=False).values_list("game_id", flat=True))
        assert sorted(awaited_game_ids(user=user)) == expected
    assert any(awaited_game_ids(user=user) for user in players[:3]) and games


@pytest.mark.django_db(transaction=True)
def test_locking_a_table_reads_the_asked_game_on_every_thread(players):
    """The compiled statements run on the calling thread's own connection (web servers run threads)."""
    import threading

    from django.db import connection, transaction

    from games.tables import lock_table

    games = [start_game("konamon", players[:3]), start_game("mamma-mia", players[:2])]
    seen = {}

    def lock(game) -> None:
        try:
            with transaction.atomic():
                table = lock_table(game.pk)
                seen[game.pk] = (table.game.pk, sorted(s.user_id for s in table.seats), len(table.views))
        finally:
            connection.close()

    for game in games:
        thread = threading.Thread(target=lock, args=(game,))
        thread.start()
        thread.join()
    for game in games:
        assert seen[game.pk] == (game.pk, sorted(s.user_id for s in game.seats.all()), game.players + 1)
