"""Table chat: who reads and writes, escaping, length, the rate limit, unread markers, live refresh, e-mails."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from game_helpers import start_game

from accounts.models import NotifyMode
from notifications.emails import render
from notifications.models import OutboxEmail
from reach.models import ChannelSettings
from together import moderation, services
from together.models import ChatMessage, SeatCorner

pytestmark = pytest.mark.django_db


def chat(client, game, text):
    return client.post(reverse("api-game-chat", args=[game.pk]), {"text": text}, content_type="application/json")


def page(client, game) -> str:
    response = client.get(reverse("game", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def test_seats_write_and_every_viewer_of_a_public_game_reads(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    assert chat(client, game, "Hello table!").status_code == 201
    client.force_login(players[1])
    assert "Hello table!" in page(client, game)
    client.logout()  # a spectator of a public game
    assert "Hello table!" in page(client, game)
    listed = client.get(reverse("api-game-chat", args=[game.pk])).json()
    assert [m["text"] for m in listed["results"]] == ["Hello table!"] and listed["next"] is None
    client.force_login(players[2])  # a stranger may read, not write
    assert "Hello table!" in page(client, game)
    assert chat(client, game, "me too").status_code == 403
    assert ChatMessage.objects.count() == 1


def test_a_private_games_chat_is_for_its_seats(client, players):
    game = start_game("konamon", players[:2], visibility="private")
    client.force_login(players[0])
    chat(client, game, "only for us")
    client.force_login(players[2])
    assert client.get(reverse("game", args=[game.pk])).status_code == 404
    assert client.get(reverse("api-game-chat", args=[game.pk])).status_code == 404
    # An invitation link no longer opens a started private game (issue 15): the chat stays with the seats.
    assert client.get(reverse("api-game-chat", args=[game.pk])).status_code == 404


def test_messages_are_escaped_and_only_links_become_clickable(client, players):
    game = start_game("konamon", players[:2])
    text = '<script>alert(1)</script> **bold** see https://example.com/a?b=1&c=<2> & "q"'
    client.force_login(players[0])
    assert chat(client, game, text).status_code == 201
    client.force_login(players[1])
    html = page(client, game)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "**bold**" in html  # nothing else is interpreted
    assert '<a href="https://example.com/a?b=1&amp;c=" rel="nofollow">' in html
    assert ChatMessage.objects.get().text == text  # stored as typed; the API returns it as typed (JSON)
    assert client.get(reverse("api-game-chat", args=[game.pk])).json()["results"][0]["text"] == text


@pytest.mark.parametrize("text", ["", "   ", "x" * 501, "\x00\x07"])
def test_empty_or_too_long_messages_are_refused(client, players, text):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    response = chat(client, game, text)
    assert response.status_code == 400
    # A NUL byte is refused by the JSON parser itself (api.parsers), the rest by the chat's own check.
    assert response.json()["error"] in {"invalid", "parse_error"}
    assert not ChatMessage.objects.exists()


def test_bad_input_of_any_shape_is_a_400(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    for body in ([1, 2], {"text": 5}, {"text": None}, {"text": {"a": 1}}, "nonsense"):
        url = reverse("api-game-chat", args=[game.pk])
        response = client.post(url, json.dumps(body), content_type="application/json")
        assert response.status_code == 400, body
    assert chat(client, game, "x" * 500).status_code == 201


def test_ten_messages_a_minute_per_user(client, players):
    game = start_game("konamon", players[:2])
    other = start_game("marumiere", players[:2])
    client.force_login(players[0])
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        for n in range(5):
            assert chat(client, game, f"m{n}").status_code == 201
            assert chat(client, other, f"o{n}").status_code == 201
        refused = chat(client, game, "one too many")
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        # The page's form says so too, without a 500.
        response = client.post(reverse("together-chat", args=[game.pk]), {"text": "again"}, HTTP_HX_REQUEST="true")
        assert response.status_code == 400 and "too fast" in response.content.decode()
    client.force_login(players[1])  # per user, not per table
    assert chat(client, game, "my turn to talk").status_code == 201
    client.force_login(players[0])
    with time_machine.travel(start + dt.timedelta(seconds=61), tick=False):
        assert chat(client, game, "a minute later").status_code == 201


def test_unread_counts_in_my_games_until_the_game_page_is_seen(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    chat(client, game, "first")
    chat(client, game, "second")
    client.force_login(players[1])
    my_games = client.get(reverse("my-games")).content.decode()
    assert "2 new chat messages" in my_games
    assert client.get(reverse("api-games")).json()["results"][0]["chat_unread"] == 2
    html = page(client, game)
    assert "New messages" in html and "2 new" in html
    assert SeatCorner.objects.get(seat__user=players[1]).chat_read_upto == ChatMessage.objects.latest("id").pk
    assert "new chat message" not in client.get(reverse("my-games")).content.decode()
    assert client.get(reverse("api-games")).json()["results"][0]["chat_unread"] == 0
    client.force_login(players[0])  # one's own messages are never unread
    assert "new chat message" not in client.get(reverse("my-games")).content.decode()


def test_the_live_partial_brings_new_messages(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[1])
    token = page(client, game).split("?v=")[1].split('"')[0]
    partial = reverse("game-table", args=[game.pk])
    assert client.get(partial, {"v": token}).status_code == 204
    services.post_chat_message(user=players[0], game_id=game.pk, text="are you there?")
    response = client.get(partial, {"v": token})
    assert response.status_code == 200
    assert "are you there?" in response.content.decode()
    # The hook issue 18 publishes from: one event per message, after commit.


def test_chat_arrival_sends_table_activity_after_commit(players, django_capture_on_commit_callbacks):
    from together.live import table_activity

    game = start_game("konamon", players[:2])
    seen = []

    def receiver(sender, game_id, stamp, reason, **kwargs):
        seen.append((game_id, stamp, reason))

    table_activity.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            services.post_chat_message(user=players[0], game_id=game.pk, text="hi")
            assert seen == []
    finally:
        table_activity.disconnect(receiver)
    assert seen == [(game.pk, 1, "chat")]


def test_chat_alone_emails_readers_who_turned_it_on_at_most_once_an_hour(players, django_capture_on_commit_callbacks):
    """Chat by e-mail is a switch of the channels page, off by default (issue 20), whatever the turn e-mails'
    frequency: ``every`` turned it on, ``once`` chose "every time" for turns but left chat off."""
    every, once = players[1], players[2]
    ChannelSettings.objects.create(user=every, on={"email": ["chat"]})
    once.notify_mode = NotifyMode.EVERY_TIME
    once.save()
    game = start_game("konamon", players[:3])
    start = timezone.now()
    mail.outbox.clear()
    with time_machine.travel(start, tick=False), django_capture_on_commit_callbacks(execute=True):
        services.post_chat_message(user=players[0], game_id=game.pk, text="Anyone up for <tea>?")
        services.post_chat_message(user=players[0], game_id=game.pk, text="Second message")
    rows = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.CHAT)
    assert [row.user for row in rows] == [every]
    sent = [m for m in mail.outbox if m.to == [every.email]]
    assert len(sent) == 1 and "wrote in the chat" in sent[0].subject
    body_html = sent[0].alternatives[0][0]
    assert "Anyone up for &lt;tea&gt;?" in body_html and "Anyone up for <tea>?" in sent[0].body
    with time_machine.travel(start + dt.timedelta(minutes=61), tick=False), django_capture_on_commit_callbacks(
        execute=True
    ):
        services.post_chat_message(user=players[0], game_id=game.pk, text="an hour later")
    assert OutboxEmail.objects.filter(kind=OutboxEmail.Kind.CHAT, user=every).count() == 2
    assert not OutboxEmail.objects.filter(kind=OutboxEmail.Kind.CHAT, user=once).exists()


def test_turn_emails_mention_the_chat_since_the_last_visit(players):
    game = start_game("konamon", players[:2])
    services.post_chat_message(user=players[0], game_id=game.pk, text="good luck")
    from games.models import Seat

    seat = Seat.objects.get(game=game, user=players[1])
    row = OutboxEmail(user=players[1], game=game, kind=OutboxEmail.Kind.TURN, dedupe_key="t",
                      payload={"seat_number": seat.number, "move_types": []})
    subject, text, html = render(row)
    assert "1 new message in the chat" in text and "good luck" in text
    services.mark_chat_read(seat=seat, upto=ChatMessage.objects.latest("id").pk)
    subject, text, html = render(row)
    assert "good luck" not in text


def test_blocked_authors_are_hidden_for_the_blocker_only(client, players):
    game = start_game("konamon", players[:3])
    moderation.block(user=players[1], username=players[0].username)
    services.post_chat_message(user=players[0], game_id=game.pk, text="from the blocked one")
    client.force_login(players[1])
    assert "from the blocked one" not in page(client, game)
    assert client.get(reverse("api-game-chat", args=[game.pk])).json()["results"] == []
    assert "new chat message" not in client.get(reverse("my-games")).content.decode()
    client.force_login(players[2])
    assert "from the blocked one" in page(client, game)


def test_a_removed_message_says_so(client, players, admin_user):
    game = start_game("konamon", players[:2])
    message = services.post_chat_message(user=players[0], game_id=game.pk, text="something rude")
    moderation.remove_message(message=message, by=admin_user)
    client.force_login(players[1])
    html = page(client, game)
    assert "something rude" not in html and "Removed by a moderator." in html
    listed = client.get(reverse("api-game-chat", args=[game.pk])).json()["results"]
    assert listed[0]["removed"] is True and listed[0]["text"] == ""


def test_the_chat_is_kept_after_the_end_and_shown_in_the_replay(client, players):
    from together_helpers import play_to_the_end

    game = start_game("konamon", players[:2])
    services.post_chat_message(user=players[0], game_id=game.pk, text="before any move")
    game = play_to_the_end(game)
    services.post_chat_message(user=players[1], game_id=game.pk, text="well played")
    client.force_login(players[1])
    html = page(client, game)
    assert "before any move" in html and "well played" in html
    replay = client.get(reverse("game-replay", args=[game.pk]), {"step": 0}).content.decode()
    assert "before any move" in replay and "well played" not in replay
    last = client.get(reverse("game-replay", args=[game.pk]), {"step": game.version}).content.decode()
    assert "well played" in last
