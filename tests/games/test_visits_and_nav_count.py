"""A game page records the player's visit once per game version (what "once until I visit" e-mails
compare), and the live partial a page polls for does not count the nav badge's awaiting games."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from game_helpers import awaited_human, start_game

from games.models import Seat


def seat_updates(queries) -> list[str]:
    return [q["sql"] for q in queries.captured_queries if q["sql"].startswith('UPDATE "games_seat"')]


@pytest.mark.django_db
def test_the_first_view_of_a_started_game_records_the_visit(players, client):
    game = start_game("konamon", players[:2])
    seat, _view = awaited_human(game)
    assert seat.last_visited_at is None
    client.force_login(seat.user)
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    seat.refresh_from_db()
    assert seat.last_visited_at is not None and seat.last_seen_version == game.version


@pytest.mark.django_db
def test_views_of_an_unchanged_game_write_the_visit_once_and_again_after_a_move(players, client):
    game = start_game("konamon", players[:2])
    seat, view = awaited_human(game)
    client.force_login(seat.user)
    page = reverse("game", args=[game.pk])
    assert client.get(page).status_code == 200
    seat.refresh_from_db()
    first_visit = seat.last_visited_at

    with CaptureQueriesContext(connection) as again:
        assert client.get(page).status_code == 200
        assert client.get(reverse("game-table", args=[game.pk]) + "?v=old").status_code == 200
    assert seat_updates(again) == []
    seat.refresh_from_db()
    assert seat.last_visited_at == first_visit

    response = client.post(
        reverse("game-move", args=[game.pk]), {"move": json.dumps(view.legal_moves[0]), "version": game.version}
    )
    assert response.status_code == 302
    game.refresh_from_db()
    with CaptureQueriesContext(connection) as after_move:
        assert client.get(page).status_code == 200
    assert len(seat_updates(after_move)) == 1
    seat.refresh_from_db()
    assert seat.last_seen_version == game.version and seat.last_visited_at > first_visit


@pytest.mark.django_db
def test_the_live_partial_does_not_count_awaiting_games_but_the_page_shows_the_count(players, client):
    game = start_game("konamon", players[:2])
    seat, _view = awaited_human(game)
    client.force_login(seat.user)
    with CaptureQueriesContext(connection) as partial:
        assert client.get(reverse("game-table", args=[game.pk]) + "?v=old").status_code == 200
    # The badge's rows (the games awaiting the player, shared with issue 32's "next game": awaited_game_ids).
    def awaiting_reads(queries):
        return [q for q in queries if 'WHERE ("games_seat"."awaited" AND' in q["sql"]]

    assert not awaiting_reads(partial.captured_queries)
    with CaptureQueriesContext(connection) as full:
        html = client.get(reverse("game", args=[game.pk])).content.decode()
    counts = awaiting_reads(full.captured_queries)
    assert len(counts) == 1  # once, however often the layout shows it
    assert Seat.objects.filter(user=seat.user, awaited=True).count() == 1
    assert '<span class="badge" aria-label="1 game awaits your move">1</span>' in html
