"""The table is composed of registered panels (issue 26): a panel plugs in as one file and one line, shows only
where its condition holds, gets the viewer's own SeatView, and the page reads only what it shows (issue 33)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from game_helpers import start_game

from games import panels
from games.models import Game, SeatView
from together import services as together_services


def page(client, game, *, partial: bool = False) -> tuple[str, list[str]]:
    url = reverse("game-table", args=[game.pk]) + "?v=old" if partial else reverse("game", args=[game.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return response.content.decode(), [query["sql"] for query in queries.captured_queries]


def reads_table(sql: list[str], table: str) -> bool:
    """Whether a query of its own reads ``table`` (a column read with the seats is not one)."""
    own = [query for query in sql if not query.startswith('SELECT "games_seat"')]
    return any(f'FROM "{table}"' in query.split(" WHERE ")[0] for query in own)


@pytest.mark.django_db
def test_a_test_only_panel_plugs_in_with_one_file_and_one_line(client, players):
    """tests/hidden_number/panel.py, registered by one line of tests/hidden_number/apps.py."""
    assert "hidden_number.range" in [panel.name for panel in panels.registered()]
    alice, bob, carol = players[:3]
    game = start_game("hidden-number", [alice, bob])
    client.force_login(alice)
    html, _ = page(client, game)
    seat = game.seats.get(user=alice).number
    low, high = SeatView.objects.get(game=game, seat_number=seat).view["bounds"][seat]
    assert f'<p class="hn-range__span">{low}–{high}</p>' in html
    assert html.index('id="log-pane"') < html.index("hn-range") < html.index('id="deal-check-title"')  # main place
    assert "hn-range" in page(client, game, partial=True)[0]  # the live partial shows it too
    client.force_login(carol)  # a spectator: the condition does not hold, no SeatView to show
    assert "hn-range" not in page(client, game)[0]
    konamon = start_game("konamon", [alice, bob])
    client.force_login(alice)
    assert "hn-range" not in page(client, konamon)[0]


def test_a_panel_must_name_a_known_place_and_page():
    with pytest.raises(ValueError):
        panels.Panel(name="x", template="x.html", place="sidebar")
    with pytest.raises(ValueError):
        panels.Panel(name="x", template="x.html", place="main", pages=frozenset({"lobby"}))


def test_panels_come_by_place_then_order():
    names = [panel.name for panel in panels.registered()]
    assert names.index("together.after_game") < names.index("together.table") < names.index("games.deal_check")
    assert names.index("lobby.invitations") < names.index("hidden_number.range")  # main: order 10, then 50


@pytest.mark.django_db
def test_a_game_page_without_chat_rating_or_clock_reads_none_of_them(client, players):
    game = start_game("konamon", players[:3])
    Game.objects.filter(pk=game.pk).update(rated=False)
    client.force_login(players[1])
    client.get(reverse("game", args=[game.pk]))  # the first visit records it (an UPDATE)
    html, sql = page(client, game)
    assert len(sql) <= 4, sql
    assert not reads_table(sql, "together_chatmessage") and not reads_table(sql, "competition_rating")
    assert not any("competition_rating" in query for query in sql if 'games_game"."rated"' not in query)
    assert 'class="rating' not in html and "No message yet." in html


@pytest.mark.django_db
def test_a_game_page_with_chat_and_ratings_stays_within_four_queries(client, players):
    from competition.models import Rating

    game = start_game("konamon", players[:3])
    assert game.rated
    Rating.objects.create(user=players[0], engine_slug="konamon", mu=30.0, sigma=5.0, conservative=15.0, games=3)
    together_services.post_chat_message(user=players[0], game_id=game.pk, text="good luck")
    client.force_login(players[1])
    client.get(reverse("game", args=[game.pk]))  # reads the chat: moves the read marker once
    html, sql = page(client, game)
    assert len(sql) <= 5, sql  # and, for a viewer not to move, the games awaiting them (issue 32: "next game")
    assert "good luck" in html and "15.0" in html
    partial_html, partial_sql = page(client, game, partial=True)
    assert len(partial_sql) <= 5 and "good luck" in partial_html
