"""The load generator of ``make bench`` reads the real pages: it finds the move forms, plays any game to its
end through them, and sees the end (a finished game's page keeps a live region, for chat and rematch offers,
so "still has a live region" is no sign of a game going on — the bench took it for one and its players stopped
at their first finished game, 29 page loads per move at one player)."""

import random

import pytest
from django.test import Client

from accounts.models import User
from bench.pages import GOING, MoveForm, game_over, move_forms
from bench.seed import two_seat_game
from games.engines import engine_slugs
from games.models import GameStatus

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", engine_slugs())
def test_the_bench_plays_a_game_to_its_end_through_the_pages_and_sees_the_end(slug):
    players = [User.objects.create_user(username=f"p{n}", email=f"p{n}@example.com", password="pw") for n in (0, 1)]
    game = two_seat_game(slug, *players)
    clients = [Client(), Client()]
    for client, user in zip(clients, players, strict=True):
        client.force_login(user)
    rng = random.Random(7)
    for _move in range(2000):
        pages = [client.get(f"/games/{game.pk}/").content.decode() for client in clients]
        if any(game_over(page) for page in pages):
            break
        forms = [move_forms(page) for page in pages]
        seat = next((s for s in (0, 1) if forms[s]), None)
        assert seat is not None, "a game going on always shows one of its two players a move form"
        form = rng.choice(forms[seat])
        response = clients[seat].post(form.action, dict(form.fill(rng)))
        assert response.status_code == 302
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    pages = [client.get(f"/games/{game.pk}/").content.decode() for client in clients]
    assert all(game_over(page) for page in pages)
    assert not any(move_forms(page) for page in pages)


def test_a_page_without_a_game_status_is_not_taken_for_an_ended_game():
    assert not game_over("")
    assert not game_over('<div id="live" data-live-token="3.open.1.0">')
    assert not game_over('<div id="live" data-live-token="14.active.3.0">')
    assert game_over('<div id="live" data-live-token="40.abandoned.2.0">')


def test_the_bench_takes_for_going_exactly_the_statuses_of_a_game_not_yet_over():
    assert {GameStatus.OPEN.value, GameStatus.ACTIVE.value} == GOING


def test_the_bench_never_picks_the_same_card_in_two_groups_of_one_form():
    """Konamon!'s "play one, discard one" offers the same cards twice; the same card in both is refused with a
    400 (rightly), so the load generator, like a player, picks two different ones (CI of stop 39: 1 run in 10)."""
    form = MoveForm("/games/1/move/", [("version", "3")], [], {"play": ["50", "57"], "discard": ["50", "57"]})
    for seed in range(200):
        filled = dict(form.fill(random.Random(seed)))
        assert filled["play"] != filled["discard"]
