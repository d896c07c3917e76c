"""The game page's board (players, table, move form, log) is cached per viewer and version: each viewer
still gets only their own board, and every response its own CSRF token and idempotency key."""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games import board as game_board
from games.models import GameState, Seat, SeatView
from konamon.ui import action_card
from tests.games.game_helpers import start_game
from tests.games.ui.support import forms_in, possible_posts


@pytest.fixture
def board_writes(monkeypatch):
    """The boards rendered and stored in the cache, as (key, html), with the cache cold at the start."""
    cache.clear()
    writes = []
    store = game_board._cache_set

    def recording_store(key, value):
        writes.append((key, value[0]))
        store(key, value)

    monkeypatch.setattr(game_board, "_cache_set", recording_store)
    yield writes
    cache.clear()


def hand_labels(state, seat: int) -> set[str]:
    return {escape(str(action_card(number)["label"])) for number in state["hands"][seat]}


def seat_users(game) -> list:
    """The users by seat number (seats are drawn from the seed when the game starts)."""
    return [seat.user for seat in Seat.objects.filter(game=game).select_related("user").order_by("number")]


def page(client, game) -> str:
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def without_tokens(html: str) -> str:
    html = re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)
    html = re.sub(r'data-live-grant="[^"]+"', "", html)  # signed with the second it was rendered in
    return re.sub(r'name="idempotency_key" value="[^"]+"', "", html)


@pytest.mark.django_db
def test_two_seats_at_the_same_version_get_different_cached_boards(players, board_writes):
    game = start_game("konamon", players[:2])
    state = GameState.objects.get(game=game).state
    hands = [hand_labels(state, 0), hand_labels(state, 1)]
    secret = [hands[0] - hands[1], hands[1] - hands[0]]
    assert secret[0] and secret[1]
    clients = []
    for user in seat_users(game):
        client = Client()
        client.force_login(user)
        clients.append(client)
    first = [page(clients[0], game), page(clients[1], game)]

    assert len(board_writes) == 2, "each seat's board is rendered once"
    (key_0, board_0), (key_1, board_1) = board_writes
    assert key_0 != key_1 and board_0 != board_1
    for seat, board in ((0, board_0), (1, board_1)):
        assert any(label in board for label in secret[seat]), "own hand on own board"
        assert not any(label in board for label in secret[1 - seat]), f"seat {seat}'s board shows the other hand"

    # From the cache now: still each seat's own board, and the same page as when it was rendered.
    again = [page(clients[0], game), page(clients[1], game)]
    assert len(board_writes) == 2, "the second views come from the cache"
    for seat in (0, 1):
        assert without_tokens(again[seat]) == without_tokens(first[seat])
        assert not any(label in again[seat] for label in secret[1 - seat])


@pytest.mark.django_db
def test_a_spectator_never_gets_a_seats_board_and_sees_no_hand(players, board_writes):
    game = start_game("konamon", players[:2])
    state = GameState.objects.get(game=game).state
    for user in seat_users(game):
        client = Client()
        client.force_login(user)
        page(client, game)
    seat_keys = {key for key, _html in board_writes}

    spectator = page(Client(), game)
    watcher = Client()
    watcher.force_login(players[4])
    logged_in_spectator = page(watcher, game)

    spectator_keys = {key for key, _html in board_writes} - seat_keys
    assert len(spectator_keys) == 1, "spectators share one board of their own, never a seat's"
    assert all(":spectator:" in key for key in spectator_keys)
    spectator_view = SeatView.objects.get(game=game, seat_number=None).view
    assert "hand" not in spectator_view or not spectator_view["hand"]
    for html in (spectator, logged_in_spectator):
        assert "kn-hand-h" not in html, "a spectator's page has no hand section"
        for seat in (0, 1):
            assert not any(label in html for label in hand_labels(state, seat)), f"seat {seat}'s hand shown"


@pytest.mark.django_db
def test_a_move_posted_from_a_cached_board_is_accepted(players, board_writes):
    """The cached HTML holds placeholders: each response gets its own CSRF token and idempotency key."""
    game = start_game("konamon", players[:2])
    client = Client(enforce_csrf_checks=True)
    client.force_login(seat_users(game)[0])
    page(client, game)
    cached = page(client, game)
    assert len(board_writes) == 1, "the second view comes from the cache"
    assert not re.search(r"(csrf|key)-[0-9a-f]{32}", cached), "no placeholder is left"
    keys = re.findall(r'name="idempotency_key" value="([^"]+)"', cached)
    assert keys and set(keys).isdisjoint(re.findall(r'name="idempotency_key" value="([^"]+)"', page(client, game)))

    move_url = reverse("game-move", args=[game.pk])
    chunks = re.findall(r"<form[^>]*/move/[^>]*>.*?</form>", cached, re.S)
    posts = [post for chunk in chunks for form in forms_in(chunk) for post in possible_posts(form)]
    statuses = []
    for post in posts:
        statuses.append(client.post(move_url, post).status_code)
        if statuses[-1] == 302:
            break
    assert 403 not in statuses, "the form's CSRF token was refused"
    assert statuses and statuses[-1] == 302
    game.refresh_from_db()
    assert game.version == 1


@pytest.mark.django_db
def test_the_page_renders_when_the_cache_is_down(players, board_writes, monkeypatch):
    game = start_game("konamon", players[:2])

    class Down:
        def get(self, *args, **kwargs):
            raise ConnectionError("cache down")

        def set(self, *args, **kwargs):
            raise ConnectionError("cache down")

    monkeypatch.setattr(game_board, "cache", Down())
    client = Client()
    client.force_login(players[0])
    html = page(client, game)
    assert 'class="gt gt--konamon"' in html


@pytest.mark.django_db
def test_a_board_newer_than_the_game_row_read_is_shown_but_not_stored(players, board_writes, monkeypatch):
    """A move committed between reading the game and reading the viewer's row: that board is not
    the one of the version the page read, so it must not be stored under that version's key."""
    from games.play import selectors as play_selectors

    game = start_game("konamon", players[:2])
    user = seat_users(game)[0]
    client = Client()
    client.force_login(user)
    page(client, game)
    form_post = {"move": json.dumps(SeatView.objects.get(game=game, seat_number=0).legal_moves[0]), "version": 0}
    assert client.post(reverse("game-move", args=[game.pk]), form_post).status_code == 302
    board_writes.clear()
    real_access = play_selectors.game_access

    def access_read_before_the_move(**kwargs):
        access = real_access(**kwargs)
        access.game.version -= 1
        return access

    monkeypatch.setattr(play_selectors, "game_access", access_read_before_the_move)
    html = page(client, game)
    assert 'class="gt gt--konamon"' in html
    assert board_writes == []
