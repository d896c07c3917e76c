"""The plug-in proof: a game registered only by the test settings is offered, played to the end through
the pages and through the JSON API, and keeps its hidden fact (the leak test checks it too)."""

from __future__ import annotations

import random
import re
import uuid

import pytest
from django.urls import reverse

from games.engines import engine_slugs, get_engine
from games.models import Game, GameStatus, Seat, SeatView
from games.registry import get_game
from tests.games.ui.test_platform_pages import post_from_page

SLUG = "hidden-number"


def test_the_game_is_registered_by_its_folder_alone():
    assert SLUG in engine_slugs()
    game = get_game(SLUG)
    assert game.label == "hidden_number" and game.ui.table_template == "hidden_number/table.html"
    assert get_engine(SLUG) is game.engine


@pytest.mark.django_db
def test_the_lobby_and_the_creation_form_offer_it(client, players):
    client.force_login(players[0])
    assert "Hidden number" in client.get(reverse("game-create")).content.decode()
    assert f'href="?game={SLUG}"' in client.get(reverse("lobby")).content.decode()
    assert client.get(reverse("rules", args=[SLUG])).status_code == 200


def secret_shown(html: str) -> list[str]:
    return re.findall(r'class="hn-number">(\d+)<', html)


@pytest.mark.django_db(transaction=True)
def test_a_game_is_played_to_the_end_through_the_pages(client, players):
    alice, bob = players[:2]
    client.force_login(alice)
    response = client.post(
        reverse("game-create"),
        {"engine_slug": SLUG, "players": 2, "bots": 0, "time_limit_hours": 0, "visibility": "public",
         "opt_hidden_number_top": "20"},
    )
    assert response.status_code == 302, response.content.decode()[:500]
    game = Game.objects.get(engine_slug=SLUG)
    assert game.options == {"top": 20}
    client.force_login(bob)
    assert client.post(reverse("game-join", args=[game.pk])).status_code == 302
    rng = random.Random(7)
    move_url = reverse("game-move", args=[game.pk])
    for _ in range(300):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat = Seat.objects.get(game=game, awaited=True)
        client.force_login(seat.user)
        page = client.get(reverse("game", args=[game.pk])).content.decode()
        mine = SeatView.objects.get(game=game, seat_number=seat.number).view["my_number"]
        assert secret_shown(page) == [str(mine)]  # my number, never the other's
        assert client.post(move_url, post_from_page(client, game, move_url, rng)).status_code == 302
    assert game.status == GameStatus.FINISHED
    final = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'class="revealed-hands' in final and "The secret numbers" in final
    assert len(secret_shown(final)) >= 2  # both numbers revealed at the end


@pytest.mark.django_db(transaction=True)
def test_a_game_is_played_to_the_end_through_the_json_api(client, players):
    alice, bob = players[:2]
    client.force_login(alice)
    created = client.post(
        reverse("api-games"), {"game": SLUG, "players": 2, "options": {"top": 20}}, content_type="application/json"
    )
    assert created.status_code == 201, created.content
    game_id = created.json()["id"]
    client.force_login(bob)
    assert client.post(reverse("api-game-join", args=[game_id]), {}, content_type="application/json").status_code in (
        200,
        201,
    )
    for _ in range(100):
        finished = False
        for user in (alice, bob):
            client.force_login(user)
            data = client.get(reverse("api-game", args=[game_id])).json()
            if data["game"]["status"] == "finished":
                finished = True
                break
            view = data["view"]
            assert view["numbers"] is None and isinstance(view["my_number"], int)  # only my own number
            if not data["legal_moves"]:
                continue
            move = get_engine(SLUG).bot_move(
                {"secrets": [0, 0], "bounds": view["bounds"], "winner": None, "turn": view["seat"]}, view["seat"]
            )
            response = client.post(
                reverse("api-game-move", args=[game_id]),
                {"move": move, "expected_version": data["version"], "idempotency_key": str(uuid.uuid4())},
                content_type="application/json",
            )
            assert response.status_code in (200, 201), response.content
        if finished:
            break
    client.force_login(alice)
    data = client.get(reverse("api-game", args=[game_id])).json()
    assert data["game"]["status"] == "finished"
    assert data["view"]["numbers"] is not None  # revealed at the end


@pytest.mark.django_db(transaction=True)
def test_its_folder_brings_its_own_tutorial_and_the_platform_runs_it_like_the_others(client):
    """A fourth game's ``tutorial.json`` is all it takes: "Learn by playing" is offered on its rules page, and the
    platform plays the lesson through the real pages to its last step, then to a game against a bot."""
    from tests.games.test_tutorial import play_through

    assert get_game(SLUG).tutorial is not None
    rules = client.get(reverse("rules", args=[SLUG])).content.decode()
    assert reverse("tutorial-start", args=[SLUG]) in rules
    game = play_through(client, SLUG)
    assert game.is_tutorial and game.version >= 4
    real = client.post(reverse("tutorial-bots", args=[SLUG]))
    assert Game.objects.get(pk=int(real.url.strip("/").split("/")[-1])).status == GameStatus.ACTIVE
