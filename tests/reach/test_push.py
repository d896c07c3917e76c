"""Web Push end to end against a local push service that decrypts with the subscription's keys."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from reach_helpers import play

from games.models import SeatView
from reach import delivery
from reach.models import Channel, ChannelSettings, Delivery, PushSubscription
from tests.games.game_helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site", "vapid")]


def subscribe(client, user, subscription):
    client.force_login(user)
    response = client.post(reverse("reach:push-subscribe"), json.dumps(subscription), content_type="application/json")
    assert response.status_code == 201, response.content
    return PushSubscription.objects.get(endpoint=subscription["endpoint"])


def test_a_turn_is_pushed_encrypted_and_says_only_what_the_recipient_may_see(client, players, push_service, settings,
                                                                             django_capture_on_commit_callbacks):
    players[1].language = "fr"
    players[1].save(update_fields=["language"])
    subscribe(client, players[1], push_service.browser())
    game = start_game("marumiere", players[:2])
    with django_capture_on_commit_callbacks(execute=True):
        while True:
            game.refresh_from_db()
            mover = play(game)
            if mover.user == players[0] or game.status != "active":
                break
    pushed = [r for r in push_service.received if r.document]
    assert pushed, "nothing reached the push service"
    message = pushed[-1].document
    assert message["title"] == f"Marumiere #{game.pk}" or message["title"].endswith(f"#{game.pk}")
    assert message["url"] == f"https://play.example/games/{game.pk}/#moves"  # opens the move form (issue 34)
    assert message["tag"] == f"game-{game.pk}"
    # French, from the recipient's own view only: the kinds of move awaited, nothing of anyone's cards.
    view = SeatView.objects.get(game=game, seat_number=message["seat_number"])
    assert set(message["move_types"]) == {m["type"] for m in view.legal_moves}
    assert set(message) <= {"kind", "title", "body", "url", "tag", "game", "seat_number", "move_types",
                            "deadline_at", "awaited_since"}
    assert "hand" not in json.dumps(message)
    # RFC 8291 on the wire, VAPID-signed for the push service's origin.
    assert pushed[-1].headers["content-encoding"] == "aes128gcm"
    assert pushed[-1].headers["vapid-claims"]["aud"] == f"http://127.0.0.1:{push_service.peer.port}"
    assert pushed[-1].headers["vapid-claims"]["sub"] == "mailto:ops@play.example"
    assert pushed[-1].headers["vapid-key"] == settings.VAPID_PUBLIC_KEY
    assert json.dumps(message).encode() not in pushed[-1].body
    assert Delivery.objects.filter(channel=Channel.PUSH, status="sent").exists()


def test_the_turn_push_is_in_the_recipient_language(client, players, push_service,
                                                    django_capture_on_commit_callbacks):
    players[0].language = "ja"
    players[0].save(update_fields=["language"])
    subscribe(client, players[0], push_service.browser())
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game("konamon", players[:2])
    started = [r.document for r in push_service.received if r.document and r.document["kind"] == "started"]
    assert started and started[0]["body"] == "ゲームが始まりました：カードを選んでください。", started
    assert game.pk == started[0]["game"]["id"]


def test_a_subscription_the_push_service_says_is_gone_is_removed(client, players, push_service,
                                                                  django_capture_on_commit_callbacks):
    subscription = subscribe(client, players[0], push_service.browser("gone"))
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    assert any(r.path.startswith("/gone/") for r in push_service.received)
    assert not PushSubscription.objects.filter(pk=subscription.pk).exists()
    assert not ChannelSettings.objects.get(user=players[0]).has_push
    assert Delivery.objects.get(user=players[0]).status == Delivery.Status.FAILED


def test_a_busy_push_service_is_retried_later(client, players, push_service, django_capture_on_commit_callbacks):
    subscribe(client, players[0], push_service.browser("busy"))
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    row = Delivery.objects.get(user=players[0])
    assert row.status == Delivery.Status.PENDING and row.attempts == 1 and "503" in row.last_error
    assert row.next_attempt_at > row.created_at


def test_a_kind_turned_off_for_push_is_not_pushed(client, players, push_service, django_capture_on_commit_callbacks):
    subscribe(client, players[0], push_service.browser())
    settings_row = ChannelSettings.objects.get(user=players[0])
    settings_row.off = {"push": ["started"]}
    settings_row.save()
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    assert not Delivery.objects.filter(user=players[0], kind="started").exists()


def test_a_push_queued_while_no_worker_runs_is_delivered_by_the_sweeper(client, players, push_service):
    subscribe(client, players[0], push_service.browser())
    start_game("konamon", players[:2])  # test transaction: on-commit queueing never runs
    assert Delivery.objects.filter(user=players[0], status="pending").exists()
    assert push_service.received == []
    counts = delivery.sweep(budget_seconds=5)
    assert counts.get("sent") == 1
    assert push_service.received[0].document["kind"] == "started"


def test_an_endpoint_on_a_private_address_is_never_called(client, players, push_service, settings,
                                                          django_capture_on_commit_callbacks):
    from reach import safehttp

    subscribe(client, players[0], push_service.browser())
    safehttp.ALLOWED_FOR_TESTS.clear()  # production: loopback is not a public address
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    assert push_service.received == []
    row = Delivery.objects.get(user=players[0])
    assert row.status == Delivery.Status.FAILED and "not a public address" in row.last_error


@pytest.mark.parametrize("body", [
    b"", b"null", b"[]", b"{", json.dumps({"endpoint": "https://push.example/x"}).encode(),
    json.dumps({"endpoint": "https://push.example/x", "keys": {"p256dh": "abc", "auth": "def"}}).encode(),
    json.dumps({"endpoint": "ftp://push.example/x", "keys": {"p256dh": "B" * 87, "auth": "A" * 22}}).encode(),
    json.dumps({"endpoint": ["x"], "keys": "x"}).encode(),
])
def test_a_malformed_subscription_is_refused_with_400(client, user, body):
    client.force_login(user)
    response = client.post(reverse("reach:push-subscribe"), body, content_type="application/json")
    assert response.status_code == 400
    assert not PushSubscription.objects.exists()


def test_unsubscribing_this_browser_forgets_it(client, players, push_service):
    browser = push_service.browser()
    subscribe(client, players[0], browser)
    response = client.post(reverse("reach:push-unsubscribe"), json.dumps({"endpoint": browser["endpoint"]}),
                           content_type="application/json")
    assert response.status_code == 200
    assert not PushSubscription.objects.exists()
    assert not ChannelSettings.objects.get(user=players[0]).has_push


def test_one_user_cannot_remove_anothers_browser(client, players, push_service):
    subscription = subscribe(client, players[0], push_service.browser())
    client.force_login(players[1])
    client.post(reverse("reach:push-unsubscribe"), {"id": subscription.pk})
    assert PushSubscription.objects.filter(pk=subscription.pk).exists()


def test_push_is_off_without_vapid_keys(client, user, settings):
    settings.VAPID_PRIVATE_KEY = ""
    client.force_login(user)
    page = client.get(reverse("reach:channels"))
    assert "Push notifications are not set up on this site." in page.content.decode()
    response = client.post(reverse("reach:push-subscribe"), "{}", content_type="application/json")
    assert response.status_code == 409


def test_manifest_and_service_worker_make_the_site_installable(client):
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200 and manifest["Content-Type"].startswith("application/manifest+json")
    data = manifest.json()
    assert data["start_url"] == "/games/" and data["display"] == "standalone"
    assert {icon["sizes"] for icon in data["icons"]} >= {"192x192", "512x512"}
    from django.contrib.staticfiles import finders

    for icon in data["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon
    worker = client.get("/sw.js")
    assert worker.status_code == 200 and "javascript" in worker["Content-Type"]
    assert worker["Service-Worker-Allowed"] == "/"
    assert "showNotification" in worker.content.decode()
    assert 'rel="manifest"' in client.get("/").content.decode()
