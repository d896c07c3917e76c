"""Issue 35, item 8: the replay page as a phone meets it. Its jump forms name the replay page as their action (without
one, htmx and the browser add the chosen step to the current address: ``?step=4&seat=0&seat=0&step=5`` with move 5
shown), the board comes right after the step buttons (the jumps below it), and the arrow-key hint starts hidden
(static/js/replay.js shows it only where there is a mouse and a keyboard)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.games.game_helpers import play_out, start_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def replay_html(players, client):
    game = play_out(start_game("marumiere", players[:2]))
    client.force_login(players[0])
    url = reverse("game-replay", args=[game.pk])
    return url, client.get(url, {"step": 4}).content.decode()


def test_every_replay_jump_form_names_the_replay_page_so_the_address_holds_one_step(replay_html):
    url, html = replay_html
    forms = re.findall(r"<form method=\"get\"[^>]*>", html)
    assert len(forms) == 3
    assert all(f'action="{url}"' in form for form in forms), forms


def test_the_board_follows_the_step_buttons_and_the_jumps_come_after_it(replay_html):
    _url, html = replay_html
    assert html.index('class="replay-buttons"') < html.index('class="table-wrap"') < html.index('class="replay-jumps"')
    assert re.search(r"<p [^>]*data-replay-keys hidden>", html)
