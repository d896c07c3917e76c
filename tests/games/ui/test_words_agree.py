"""Issue 35, item 9: the same thing said the same way on every page: My games gives a finished game's score in its
game's unit, as the end screen does ("4 recipes baked", not "4 points"); a bot to move shows no countdown (it
moves at once)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from clocks.arithmetic import TimeControl
from games.models import Seat
from tests.games.game_helpers import play_out, start_game

pytestmark = pytest.mark.django_db


def test_my_games_gives_a_finished_games_score_in_its_games_unit_as_the_end_screen_does(players, client):
    game = play_out(start_game("mamma-mia", players[:2]))
    seat = Seat.objects.get(game=game, user=players[0])
    client.force_login(players[0])
    my_games = client.get(reverse("my-games")).content.decode()
    unit = "recipe baked" if seat.final_score == 1 else "recipes baked"
    score = f"{seat.final_score:g} {unit}"
    assert score in my_games
    assert score in client.get(reverse("game", args=[game.pk])).content.decode()
    assert " points" not in my_games.split('id="finished-title"', 1)[1]


def test_a_bot_to_move_shows_no_clock_and_no_deadline_it_moves_at_once(players, client):
    game = start_game("marumiere", players[:2], bots=1, time_control=TimeControl.per_move(dt.timedelta(hours=48)))
    now = timezone.now()
    Seat.objects.filter(game=game).update(awaited=False, awaited_since=None, deadline_at=None)
    Seat.objects.filter(game=game, is_bot=True).update(
        awaited=True, awaited_since=now, deadline_at=now + dt.timedelta(hours=48)
    )
    client.force_login(players[0])
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    bot_row = html.split('class="player-row is-awaited"', 1)[1].split("</li>", 1)[0]
    assert "data-clock-deadline" not in bot_row and "runs out" not in bot_row
    assert "time runs out" not in html.split('class="turn-status"', 1)[1].split("</section>", 1)[0]
