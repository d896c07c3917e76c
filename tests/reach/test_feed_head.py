"""Feed readers and link checkers ask ``HEAD`` before ``GET``: the private feeds (and the app's manifest and
service worker) answer it as ``GET`` does, without the body, instead of 405."""

from __future__ import annotations

import pytest
from django.urls import reverse

from reach.prefs import settings_for
from tests.games.game_helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


@pytest.mark.parametrize("name", ["reach:calendar", "reach:atom"])
def test_a_feed_answers_head_like_get_without_its_body(client, players, name):
    start_game("marumiere", players[:2])
    url = reverse(name, args=[settings_for(players[0]).feed_secret])
    got, head = client.get(url), client.head(url)
    assert (got.status_code, head.status_code) == (200, 200)
    assert head["Content-Type"] == got["Content-Type"] and head["Cache-Control"] == got["Cache-Control"]
    assert head.content == b"" and got.content


@pytest.mark.parametrize("name", ["reach:calendar", "reach:atom"])
def test_head_on_an_unknown_feed_is_a_404_as_get(client, name):
    assert client.head(reverse(name, args=["unknown-secret"])).status_code == 404


@pytest.mark.parametrize("name", ["reach:manifest", "reach:service-worker"])
def test_the_app_files_answer_head(client, name):
    assert client.head(reverse(name)).status_code == 200


@pytest.mark.parametrize("name", ["reach:calendar", "reach:atom"])
def test_a_feed_still_refuses_writes(client, players, name):
    url = reverse(name, args=[settings_for(players[0]).feed_secret])
    assert client.post(url).status_code == 405
