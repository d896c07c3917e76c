"""Chat at my table as a kind of event: pushed (coalesced, through the outbox), by webhook when ticked, by
e-mail only for those who turn it on; never a blocked author's words."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import NotifyMode
from games.models import Seat
from notifications.models import OutboxEmail
from reach import delivery
from reach.fanout import refresh_flags
from reach.models import Channel, ChannelSettings, Delivery, PushSubscription, Webhook
from tests.games.game_helpers import start_game
from together import moderation, services
from together.models import ChatMessage

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site", "vapid")]
LATER = dt.timedelta(minutes=2)


def subscribe(client, user, subscription) -> PushSubscription:
    client.force_login(user)
    response = client.post(reverse("reach:push-subscribe"), json.dumps(subscription), content_type="application/json")
    assert response.status_code == 201, response.content
    user.refresh_from_db()
    return PushSubscription.objects.get(endpoint=subscription["endpoint"])


def say(user, game, text) -> ChatMessage:
    return services.post_chat_message(user=user, game_id=game.pk, text=text)


def deliver_later(moment=None) -> dict:
    """What a worker does once the chat's short wait is over (the sweeper, as after a lost queueing)."""
    with time_machine.travel((moment or timezone.now()) + LATER, tick=False):
        return delivery.sweep(budget_seconds=5)


def read_chat(user, game) -> None:
    seat = Seat.objects.get(game=game, user=user)
    services.mark_chat_read(seat=seat, upto=ChatMessage.objects.filter(game=game).latest("id").pk)


def chat_pushes(push_service) -> list[dict]:
    return [r.document for r in push_service.received if r.document and r.document["kind"] == "chat"]


@pytest.fixture
def table(client, players, push_service):
    """A game of three; the second and third players turned push on in a browser, the first too."""
    game = start_game("konamon", players[:3])
    for user in players:
        subscribe(client, user, push_service.browser())
    push_service.received.clear()
    Delivery.objects.all().delete()
    return game


def test_a_chat_message_is_pushed_to_the_others_at_the_table_after_a_short_wait(table, players, push_service):
    say(players[0], table, "Anyone up for <tea>?")
    rows = Delivery.objects.filter(kind="chat")
    assert {row.user for row in rows} == {players[1], players[2]}, "the author hears nothing of their own words"
    assert all(row.next_attempt_at > row.created_at for row in rows), "a short wait lets a burst gather"
    assert deliver_later()["sent"] == 2
    pushed = chat_pushes(push_service)
    assert len(pushed) == 2
    message = pushed[0]
    assert message["title"].endswith(f"#{table.pk}")
    assert message["body"] == "Reacher 0: Anyone up for <tea>?"
    assert message["url"] == f"https://play.example/games/{table.pk}/#chat"
    assert message["tag"] == f"chat-{table.pk}", "a chat notification never replaces the 'your move' one"


def test_the_chat_push_speaks_the_readers_language(table, players, push_service):
    players[1].language = "ja"
    players[1].save(update_fields=["language"])
    say(players[0], table, "one")
    say(players[0], table, "two")
    deliver_later()
    [to_second] = [r.document for r in push_service.received if r.path.endswith("/2")]
    assert to_second["body"] == "Reacher 0：two（ほか1件）"


def test_a_burst_of_ten_messages_is_one_push_that_counts_them(table, players, push_service):
    for n in range(1, 11):
        say(players[n % 2], table, f"message {n}")
    assert Delivery.objects.filter(user=players[2], kind="chat").count() == 1
    deliver_later()
    pushed = chat_pushes(push_service)
    to_third = [r for r in push_service.received if r.document and r.path.endswith("/3")]
    assert len(to_third) == 1
    assert to_third[0].document["body"] == "Reacher 0: message 10 (and 9 more messages)"
    assert len(pushed) == 3  # one to each other player, whoever wrote most


def test_nothing_more_is_pushed_until_the_chat_is_read_then_the_next_message_is(table, players, push_service):
    say(players[0], table, "first")
    deliver_later()
    say(players[0], table, "still there?")
    deliver_later(timezone.now() + LATER)
    assert Delivery.objects.filter(user=players[1], kind="chat").count() == 1
    read_chat(players[1], table)
    say(players[0], table, "welcome back")
    assert Delivery.objects.filter(user=players[1], kind="chat").count() == 2


def test_a_message_read_before_its_push_goes_is_not_pushed(table, players, push_service):
    say(players[0], table, "quick question")
    read_chat(players[1], table)  # at the table: the live page showed it
    deliver_later()
    assert [r for r in push_service.received if r.path.endswith("/2")] == []
    assert Delivery.objects.get(user=players[1], kind="chat").status == Delivery.Status.DROPPED


def test_a_blocked_users_messages_are_never_pushed(table, players, push_service):
    moderation.block(user=players[1], username=players[0].username)
    say(players[0], table, "from the blocked one")
    assert not Delivery.objects.filter(user=players[1]).exists()
    say(players[2], table, "hello from a friend")
    say(players[0], table, "blocked again")
    deliver_later()
    to_blocker = [r.document for r in push_service.received if r.path.endswith("/2")]
    assert [m["body"] for m in to_blocker] == ["Reacher 2: hello from a friend"]
    assert "blocked" not in json.dumps(to_blocker)


def test_chat_can_be_turned_off_for_push(table, players):
    ChannelSettings.objects.filter(user=players[1]).update(off={"push": ["chat"]})
    say(players[0], table, "hello")
    assert not Delivery.objects.filter(user=players[1]).exists()
    assert Delivery.objects.filter(user=players[2], kind="chat").exists()


def test_a_webhook_hears_chat_only_when_ticked_and_gets_its_text(players, receiver):
    game = start_game("konamon", players[:2])
    plain = Webhook.objects.create(user=players[1], url=receiver.url("/ok/plain"), kinds=["turn", "finished"])
    chatty = Webhook.objects.create(user=players[1], url=receiver.url("/ok/chatty"), kinds=["chat"])
    refresh_flags(players[1].pk)
    say(players[0], game, "gg")
    say(players[0], game, "rematch?")
    assert not Delivery.objects.filter(webhook=plain).exists()
    deliver_later()
    [call] = receiver.received
    assert call.path == "/ok/chatty" and call.document["event"] == "chat"
    assert call.document["body"] == "Reacher 0: rematch? (and 1 more message)"
    assert call.document["chat"] == {"count": 2, "latest": [{"name": "Reacher 0", "text": "gg"},
                                                            {"name": "Reacher 0", "text": "rematch?"}]}
    assert Delivery.objects.get(webhook=chatty).status == Delivery.Status.SENT


def test_chat_is_not_emailed_unless_turned_on(client, players, django_capture_on_commit_callbacks):
    every, switched = players[1], players[2]
    every.notify_mode = NotifyMode.EVERY_TIME
    every.save(update_fields=["notify_mode"])
    client.force_login(switched)
    client.post(reverse("reach:channels"), {"email_chat": "on", "email_turn": "on"})
    game = start_game("konamon", players[:3])
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        say(players[0], game, "hi all")
    assert [row.user for row in OutboxEmail.objects.filter(kind=OutboxEmail.Kind.CHAT)] == [switched]
    assert [m.to for m in mail.outbox] == [[switched.email]]


def test_players_who_had_chat_emails_with_every_time_keep_them(players):
    """The migration that made chat a kind of its own turns chat e-mails on for "every time" readers."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("reach.migrations.0002_chat_kind")
    players[0].notify_mode = NotifyMode.EVERY_TIME
    players[0].save(update_fields=["notify_mode"])
    ChannelSettings.objects.create(user=players[1])
    migration.keep_chat_emails_of_every_time_readers(apps, None)
    assert ChannelSettings.objects.get(user=players[0]).wants(Channel.EMAIL, "chat")
    assert not ChannelSettings.objects.get(user=players[1]).wants(Channel.EMAIL, "chat")
    assert not ChannelSettings.objects.filter(user=players[2]).exists()
