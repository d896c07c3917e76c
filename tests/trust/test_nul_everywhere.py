"""A NUL character can never reach PostgreSQL (which refuses it in text and JSON, so the request or the
message failed with a 500, or an inbound reply got 451 forever): every way text comes in strips or refuses it
with a clear answer, and nothing is stored half-way. One test per way in."""

from __future__ import annotations

import json
from email.message import EmailMessage

import pytest
from django.urls import reverse

from accounts.models import User
from games.models import Seat
from notifications.models import OutboxEmail
from reach import replies
from reach.models import PushSubscription, Webhook
from tests.api.conftest import TokenClient
from tests.games.game_helpers import start_game
from together.models import ChatMessage, SeatCorner

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"nul{n}", display_name=f"Nul {n}") for n in range(2)]


@pytest.fixture
def game(players):
    return start_game("marumiere", players)


# --- Moves by e-mail reply ----------------------------------------------------------------------------------

@pytest.fixture
def reply_to(settings, game):
    settings.INBOUND_MAIL_DOMAIN = "reply.play.example"
    seat = Seat.objects.get(game=game, awaited=True)
    address = replies.reply_address(game_id=game.pk, seat_number=seat.number, version=game.version,
                                    user_id=seat.user_id)

    def send(body: str) -> replies.Result:
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = seat.user.email, address, "Re: your move"
        message.set_content(body)
        return replies.handle(message.as_bytes(), recipients=[address], mail_from=seat.user.email)

    send.user = seat.user
    return send


def test_a_reply_of_nul_bytes_is_answered_as_unreadable_instead_of_failing(reply_to):
    result = reply_to("\x00\x00zz\x00")  # the audit's body: the answer's JSON held U+0000, the listener said 451
    assert (result.outcome, result.detail) == ("unreadable", "zz")
    answer = OutboxEmail.objects.get(user=reply_to.user, kind=replies.MOVE_REPLY)
    assert "\x00" not in json.dumps(answer.payload) and answer.payload["detail"] == "zz"


def test_a_code_wrapped_in_nul_bytes_is_read(reply_to):
    assert reply_to("\x002\x00").outcome == "played"


def test_an_html_reply_with_nul_bytes_is_read(reply_to):
    message_body = "<p>\x001\x00</p>"
    assert replies.first_line(_html(message_body)) == "1"


def _html(markup: str) -> EmailMessage:
    message = EmailMessage()
    message.set_content(markup, subtype="html")
    return message


# --- Forms (the site) -----------------------------------------------------------------------------------------

def test_a_chat_message_with_nul_is_refused_by_the_form(client, players, game):
    client.force_login(players[0])
    response = client.post(reverse("together-chat", args=[game.pk]), {"text": "hi\x00there"})
    assert response.status_code == 400 and not ChatMessage.objects.exists()


def test_a_note_with_nul_is_refused_by_the_form(client, players, game):
    client.force_login(players[0])
    response = client.post(reverse("together-note", args=[game.pk]), {"note": "mine\x00"})
    assert response.status_code == 400
    assert not SeatCorner.objects.exclude(note="").exists()


def test_a_display_name_with_nul_is_refused_by_the_settings_form(client, players):
    client.force_login(players[0])
    response = client.post(reverse("settings"), {"display_name": "Evil\x00", "language": "en"})
    assert response.status_code == 400
    assert User.objects.get(pk=players[0].pk).display_name == "Nul 0"


def test_a_webhook_url_with_nul_is_refused_by_the_form(client, players):
    client.force_login(players[0])
    response = client.post(reverse("reach:webhook-add"), {"url": "https://hooks.example/\x00"})
    assert response.status_code == 400 and not Webhook.objects.exists()


P256DH = "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM"


# --- The push subscription (JSON posted by the page's script, outside the API) -------------------------------

@pytest.mark.parametrize("where", ["endpoint", "p256dh", "auth"])
def test_a_push_subscription_with_nul_is_refused(client, players, settings, where):
    from reach.push import generate_keys

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = generate_keys()
    subscription = {"endpoint": "https://push.example/send/abc",
                    "keys": {"p256dh": P256DH,
                             "auth": "tBHItJI5svbpez7KI4CCXg"}}
    if where == "endpoint":
        subscription["endpoint"] += "\x00"
    else:
        subscription["keys"][where] += "\x00"
    client.force_login(players[0])
    response = client.post(reverse("reach:push-subscribe"), json.dumps(subscription), content_type="application/json")
    assert response.status_code == 400, response.content
    assert not PushSubscription.objects.exists()


def test_a_push_unsubscribe_with_nul_forgets_nothing_and_fails_nothing(client, players):
    PushSubscription.objects.create(user=players[0], endpoint="https://x/", p256dh="k", auth="a")
    client.force_login(players[0])
    response = client.post(reverse("reach:push-unsubscribe"), json.dumps({"endpoint": "https://x/\x00"}),
                           content_type="application/json")
    assert response.status_code == 200 and PushSubscription.objects.filter(user=players[0]).exists()


def test_a_browser_label_with_nul_is_stored_without_it(client, players, settings):
    from reach.push import generate_keys

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = generate_keys()
    subscription = {"endpoint": "https://push.example/send/abc", "label": "my\x00phone",
                    "keys": {"p256dh": P256DH,
                             "auth": "tBHItJI5svbpez7KI4CCXg"}}
    client.force_login(players[0])
    response = client.post(reverse("reach:push-subscribe"), json.dumps(subscription), content_type="application/json",
                           HTTP_USER_AGENT="agent\x00")
    assert response.status_code == 201
    assert PushSubscription.objects.get().label == "myphone"


# --- The API (JSON) ---------------------------------------------------------------------------------------------

def test_a_chat_message_with_nul_is_refused_by_the_api(client, players, game):
    api = TokenClient(client, players[0])
    response = api.post(reverse("api-game-chat", args=[game.pk]), {"text": "hi\u0000"})
    assert response.status_code == 400 and not ChatMessage.objects.exists()


def test_a_note_with_nul_is_refused_by_the_api(client, players, game):
    api = TokenClient(client, players[0])
    response = api.send("put", reverse("api-game-note", args=[game.pk]), {"text": "\u0000"})
    assert response.status_code == 400
    assert not SeatCorner.objects.exclude(note="").exists()


def test_a_display_name_with_nul_is_refused_by_the_api(client, players):
    api = TokenClient(client, players[0])
    response = api.send("patch", reverse("api-settings"), {"display_name": "Evil\u0000"})
    assert response.status_code == 400
    assert User.objects.get(pk=players[0].pk).display_name == "Nul 0"


def test_a_webhook_url_with_nul_is_refused_by_the_api(client, players):
    api = TokenClient(client, players[0])
    response = api.post(reverse("api-settings-webhooks"), {"url": "https://hooks.example/\u0000"})
    assert response.status_code == 400 and not Webhook.objects.exists()


# --- Cookies -------------------------------------------------------------------------------------------------

def test_a_session_cookie_with_nul_is_no_session_rather_than_a_500(client, players):
    client.cookies["sessionid"] = '"abcdefgh\\000ijklmnop"'  # a quoted cookie: \000 is a NUL once unquoted
    response = client.get(reverse("settings"))
    assert response.status_code in (302, 400)


@pytest.mark.django_db(transaction=True)
def test_the_listener_accepts_a_reply_of_nul_bytes_instead_of_451_for_ever(settings, players):
    """Through the real SMTP listener: 250 and an answer queued, so the sender's server stops retrying."""
    import smtplib
    import socket

    from reach.inbound import ReplyController

    settings.INBOUND_MAIL_DOMAIN = "reply.play.example"
    game = start_game("marumiere", players)
    seat = Seat.objects.get(game=game, awaited=True)
    address = replies.reply_address(game_id=game.pk, seat_number=seat.number, version=game.version,
                                    user_id=seat.user_id)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = ReplyController(host="127.0.0.1", port=port)
    controller.start()
    raw = (f"From: {seat.user.email}\r\nTo: {address}\r\nSubject: Re: your move\r\n"
           "Content-Type: text/plain; charset=utf-8\r\n\r\n").encode() + b"\x00\x00zz\x00\r\n"
    try:
        client = smtplib.SMTP("127.0.0.1", port, timeout=30)
        try:
            refused = client.sendmail(seat.user.email, [address], raw)
        finally:
            client.quit()
    finally:
        controller.stop()
    assert refused == {}
    assert OutboxEmail.objects.get(user=seat.user, kind=replies.MOVE_REPLY).payload["outcome"] == "unreadable"
