"""The game page's first view of a version (its board not cached yet) reads the viewer's SeatView row with what
its log shows: the log's times and the table's platform events come in that one query (issue 33)."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from game_helpers import awaited_human, start_game

from games.models import GameEvent, Seat


def _tables(queries) -> list[str]:
    """The table each data statement reads from (its own FROM, not a subquery's: the first FROM after the
    statement's column list, at nesting depth 0)."""
    tables = []
    for query in queries:
        sql = query["sql"]
        depth = 0
        for index, char in enumerate(sql):
            depth += char == "("
            depth -= char == ")"
            if depth == 0 and sql.startswith(" FROM ", index):
                tables.append(re.match(r' FROM "?(\w+)', sql[index:]).group(1))
                break
    return [t for t in tables if t != "django_session"]


@pytest.mark.django_db
def test_a_first_view_reads_the_platform_events_with_the_seat_view(players, client):
    game = start_game("konamon", players[:3])
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    Seat.objects.filter(pk=seat.pk).update(last_seen_version=game.version, last_visited_at=None)
    cache.clear()  # the first view of this version: the board is built from the SeatView row
    with CaptureQueriesContext(connection) as page:
        response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    tables = _tables(page.captured_queries)
    assert "games_gameevent" not in tables, tables
    assert tables.count("games_seatview") == 1
    assert len(tables) <= 4, tables
    started = GameEvent.objects.get(game=game, kind=GameEvent.Kind.STARTED)
    assert started.created_at is not None
    assert "The game started." in response.content.decode(), "the platform event is still told in the log"
