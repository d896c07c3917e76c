"""Issue 32, phone first: the part of the table a move acts on shows beside its form — Konamon!'s kitchen by a
card's steps, Marumiere's trick by the hand — built from the same view as the table (need to know)."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse
from game_helpers import awaited_human, start_game

from games.models import GameStatus
from games.play import services as play_services


def play_until(game, wanted, seed):
    """Random legal moves until ``wanted(view)`` holds for an awaited player; that (seat, view)."""
    rng = random.Random(seed)
    for _ in range(600):
        game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE
        seat, view = awaited_human(game)
        if wanted(view):
            return seat, view
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(view.legal_moves), expected_version=game.version
        )
    raise AssertionError("the situation never came up")


def move_form(client, game, seat) -> str:
    client.force_login(seat.user)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    return re.search(r'<section class="mv" id="moves".*?</section>\s*</div>', page, re.S).group(0)


@pytest.mark.django_db
def test_a_konamon_cards_steps_show_the_kitchen_beside_them(players, client):
    game = start_game("konamon", players[:2])
    seat, _view = play_until(
        game, lambda v: any(m.get("type") in {"prep", "bake", "hand_over"} for m in v.legal_moves), 2
    )
    form = move_form(client, game, seat)
    kitchen = re.search(r'class="mv__context kn-kitchen-now".*?</div>', form, re.S).group(0)
    assert "Kitchen" in kitchen and "Cooking board" in kitchen and re.search(r"<strong>\d+/\d+</strong>", kitchen)
    assert kitchen and form.index("kn-kitchen-now") < form.index('name="move"')  # above the steps


@pytest.mark.django_db
def test_marumiere_shows_the_trick_beside_the_hand(players, client):
    game = start_game("marumiere", players[:3])

    def following(view) -> bool:
        return any(m.get("type") == "play" for m in view.legal_moves) and bool(view.view.get("trick"))

    seat, _view = play_until(game, following, 3)
    form = move_form(client, game, seat)
    trick = re.search(r'class="mv__context".*?</div></div>', form, re.S).group(0)
    assert "Trick" in trick and trick.count('class="mr-played"') >= 1
