"""Push follows the quiet rules of issue 34 (the hold, and nothing for a player at the table); webhooks do not."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import uuid

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from reach_helpers import play

from games.models import Seat
from live import presence
from reach import delivery
from reach.fanout import refresh_flags
from reach.models import Channel, Delivery, Webhook
from tests.games.game_helpers import awaited_human, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site", "vapid")]

HOLD = 180


@pytest.fixture
def hold(settings):
    settings.TURN_NOTIFY_HOLD_SECONDS = HOLD


def a_game_with_a_browser_and_a_hook(client, players, push_service, django_capture_on_commit_callbacks):
    client.force_login(players[1])
    response = client.post(reverse("reach:push-subscribe"), json.dumps(push_service.browser()),
                           content_type="application/json")
    assert response.status_code == 201
    Webhook.objects.create(user=players[1], url="https://hooks.example/x", kinds=["turn"])
    refresh_flags(players[1].pk)
    players[1].refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game("mamma-mia", players[:2])
        while True:  # until a move of players[0]'s makes it players[1]'s turn
            mover = play(game)
            game.refresh_from_db()
            if mover.user_id == players[0].pk and awaited_human(game)[0].user_id == players[1].pk:
                break
    return game


def turn(channel, user):
    return Delivery.objects.filter(channel=channel, user=user, kind="turn")


def test_a_turn_push_waits_the_hold_and_a_webhook_hears_it_at_once(
    client, players, push_service, hold, django_capture_on_commit_callbacks
):
    a_game_with_a_browser_and_a_hook(client, players, push_service, django_capture_on_commit_callbacks)
    pushed = turn(Channel.PUSH, players[1]).get()
    assert pushed.status == "pending" and pushed.payload["held"]
    assert pushed.next_attempt_at >= timezone.now() + dt.timedelta(seconds=HOLD - 30)
    hooked = turn(Channel.WEBHOOK, players[1]).get()
    assert hooked.attempts == 1 and "held" not in hooked.payload  # tried at once (hooks.example does not exist)


def test_no_turn_push_to_a_player_with_the_games_stream_open(
    client, players, push_service, hold, django_capture_on_commit_callbacks
):
    game = a_game_with_a_browser_and_a_hook(client, players, push_service, django_capture_on_commit_callbacks)
    stream = {"game_id": game.pk, "user_id": players[1].pk, "stream_id": f"test.{uuid.uuid4().hex}"}
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=HOLD + 5)):
        asyncio.run(presence.stream_seen(**stream))  # the page's stream, open (and renewed) all along
        try:
            pk = turn(Channel.PUSH, players[1]).get().pk
            assert delivery.deliver_many([pk]) == {pk: "dropped"}
        finally:
            asyncio.run(presence.stream_closed(**stream))
    assert turn(Channel.PUSH, players[1]).get().last_error == "at the table (live stream open)"
    assert not [r for r in push_service.received if r.document and r.document.get("kind") == "turn"]


def test_a_turn_push_to_an_away_player_goes_after_the_hold_and_opens_the_move_form(
    client, players, push_service, hold, django_capture_on_commit_callbacks
):
    game = a_game_with_a_browser_and_a_hook(client, players, push_service, django_capture_on_commit_callbacks)
    assert Seat.objects.get(game=game, user=players[1]).last_seen_version < game.version
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=HOLD + 5)):
        pk = turn(Channel.PUSH, players[1]).get().pk
        assert delivery.deliver_many([pk]) == {pk: "sent"}
    message = [r.document for r in push_service.received if r.document][-1]
    assert message["kind"] == "turn" and message["url"] == f"https://play.example/games/{game.pk}/#moves"
