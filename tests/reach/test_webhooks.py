"""Webhooks: signed JSON through the outbox, retries, turned off after repeated failures, never to our network."""

from __future__ import annotations

import socket

import pytest
from django.urls import reverse

from notifications.models import OutboxEmail
from reach import delivery, safehttp, webhooks
from reach.models import ChannelSettings, Delivery, Webhook
from tests.games.game_helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


def add_hook(client, user, url, kinds=("started", "turn", "finished")):
    client.force_login(user)
    response = client.post(reverse("reach:webhook-add"), {"url": url})
    assert response.status_code == 302, response.content.decode()[:2000]
    hook = Webhook.objects.get(user=user, url=url)
    hook.kinds = list(kinds)
    hook.save()
    return hook


def test_an_event_is_posted_as_signed_json_that_the_receiver_can_verify(client, players, receiver,
                                                                         django_capture_on_commit_callbacks):
    hook = add_hook(client, players[0], receiver.url("/ok"))
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game("konamon", players[:2])
    [call] = receiver.received
    headers = {k.lower(): v for k, v in call.headers.items()}
    assert headers["content-type"] == "application/json; charset=utf-8"
    assert headers["x-mammamia-event"] == "started"
    assert webhooks.verify(secret=hook.secret, timestamp=headers["x-mammamia-timestamp"],
                           signature_header=headers["x-mammamia-signature"], body=call.body)
    assert not webhooks.verify(secret="another secret", timestamp=headers["x-mammamia-timestamp"],
                               signature_header=headers["x-mammamia-signature"], body=call.body)
    assert not webhooks.verify(secret=hook.secret, timestamp=headers["x-mammamia-timestamp"],
                               signature_header=headers["x-mammamia-signature"], body=call.body + b" ")
    document = call.document
    assert document["event"] == "started" and document["game"]["id"] == game.pk
    assert document["url"] == f"https://play.example/games/{game.pk}/"
    assert document["url"] in document["text"] and document["url"] in document["content"]
    assert int(headers["x-mammamia-delivery"]) == document["id"]
    assert Delivery.objects.get(webhook=hook).status == Delivery.Status.SENT


def test_a_stale_signature_is_refused_by_the_documented_check():
    body = b'{"event":"turn"}'
    old = 1_700_000_000
    header = webhooks.signature(secret="s", timestamp=old, body=body)
    assert webhooks.verify(secret="s", timestamp=str(old), signature_header=header, body=body, now=old + 60)
    assert not webhooks.verify(secret="s", timestamp=str(old), signature_header=header, body=body, now=old + 3600)


def test_only_the_kinds_chosen_for_a_hook_are_sent(client, players, receiver, django_capture_on_commit_callbacks):
    add_hook(client, players[0], receiver.url("/ok"), kinds=["finished"])
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    assert receiver.received == []


def test_a_failing_hook_is_retried_with_backoff_then_turned_off_and_its_owner_told(
        client, players, receiver, django_capture_on_commit_callbacks, time_machine):
    hook = add_hook(client, players[0], receiver.url("/fail"))
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    row = Delivery.objects.get(webhook=hook)
    assert row.status == Delivery.Status.PENDING and row.attempts == 1 and "500" in row.last_error
    first_retry = row.next_attempt_at
    time_machine.move_to(first_retry, tick=False)
    delivery.sweep(budget_seconds=5)
    row.refresh_from_db()
    assert row.attempts == 2 and row.next_attempt_at - first_retry > (first_retry - row.created_at)
    while Webhook.objects.get(pk=hook.pk).active:
        row.refresh_from_db()
        assert row.status == Delivery.Status.PENDING
        time_machine.move_to(row.next_attempt_at, tick=False)
        delivery.sweep(budget_seconds=5)
    hook.refresh_from_db()
    assert hook.failures == webhooks.MAX_CONSECUTIVE_FAILURES and hook.disabled_at is not None
    assert len(receiver.received) == webhooks.MAX_CONSECUTIVE_FAILURES
    assert not ChannelSettings.objects.get(user=players[0]).has_webhooks
    told = OutboxEmail.objects.get(user=players[0], kind="webhook_off")
    from notifications.emails import render

    subject, text, _html = render(told)
    assert subject == "Your webhook was turned off" and hook.url in text and "HTTP 500" in text
    # Its owner sees why on the settings page and can turn it back on.
    page = client.get(reverse("reach:channels")).content.decode()
    assert "after repeated failures" in page
    client.post(reverse("reach:webhook-action", args=[hook.pk]), {"action": "enable"})
    hook.refresh_from_db()
    assert hook.active and hook.failures == 0


def test_a_success_resets_the_failure_count(client, players, receiver, django_capture_on_commit_callbacks):
    hook = add_hook(client, players[0], receiver.url("/ok"))
    Webhook.objects.filter(pk=hook.pk).update(failures=3)
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    hook.refresh_from_db()
    assert hook.failures == 0


def test_redirects_are_never_followed(client, players, receiver, django_capture_on_commit_callbacks):
    hook = add_hook(client, players[0], receiver.url("/redirect"))
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    assert [r.path for r in receiver.received] == ["/redirect"]
    assert "302" in Delivery.objects.get(webhook=hook).last_error


def test_a_slow_receiver_times_out_quickly(receiver, monkeypatch):
    monkeypatch.setattr(safehttp, "TIMEOUT_SECONDS", 0.5)
    receiver.slow_seconds = 2
    with pytest.raises(TimeoutError):
        safehttp.post(receiver.url("/slow"), body=b"{}", headers={}, timeout=safehttp.TIMEOUT_SECONDS)


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9/hook",
    "http://localhost/hook",
    "http://10.0.0.1/hook",
    "http://192.168.1.10/hook",
    "http://172.16.5.4/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://[fe80::1]/hook",
    "http://100.64.0.1/hook",
    "http://0.0.0.0/hook",
    "http://224.0.0.1/hook",
])
def test_private_loopback_and_link_local_addresses_are_refused_before_connecting(url, monkeypatch):
    connected = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connected.append(a) or None)
    with pytest.raises(safehttp.Refused):
        safehttp.post(url, body=b"{}", headers={})
    assert connected == []


def test_a_name_resolving_to_a_private_address_is_refused(monkeypatch):
    """Resolve, then check every address: one private answer among public ones is enough to refuse."""
    def fake_dns(host, port, *args, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port)),
                (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.1.2.3", port))]

    monkeypatch.setattr(socket, "getaddrinfo", fake_dns)
    with pytest.raises(safehttp.Refused, match="10.1.2.3"):
        safehttp.resolve("hooks.example", 443)


def test_the_connection_goes_to_the_checked_address_not_a_second_lookup(monkeypatch, receiver):
    """DNS rebinding: the name is resolved once; the socket connects to that very address."""
    lookups, connected = [], []

    def fake_dns(host, port, *args, **kwargs):
        lookups.append(host)
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]

    real_connect = socket.create_connection
    monkeypatch.setattr(socket, "getaddrinfo", fake_dns)
    monkeypatch.setattr(socket, "create_connection", lambda address, *a, **k: connected.append(address)
                        or real_connect(address, *a, **k))
    answer = safehttp.post(f"http://hooks.example:{receiver.peer.port}/ok", body=b"{}", headers={})
    assert answer.status == 204
    # (create_connection "looks up" the address literal itself, which asks no DNS server)
    assert [h for h in lookups if h != "127.0.0.1"] == ["hooks.example"]
    assert connected == [("127.0.0.1", receiver.peer.port)]
    assert receiver.received[0].headers["Host"] == f"hooks.example:{receiver.peer.port}"


def test_a_hook_on_a_private_address_fails_for_good_without_a_call(client, players, receiver,
                                                                   django_capture_on_commit_callbacks):
    hook = add_hook(client, players[0], receiver.url("/ok"))
    safehttp.ALLOWED_FOR_TESTS.clear()
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    assert receiver.received == []
    row = Delivery.objects.get(webhook=hook)
    assert row.status == Delivery.Status.FAILED and "not a public address" in row.last_error


@pytest.mark.parametrize("url", ["ftp://hooks.example/x", "https://user:pw@hooks.example/x", "not a url", ""])
def test_a_url_that_cannot_be_used_is_refused_by_the_form(client, user, url):
    client.force_login(user)
    response = client.post(reverse("reach:webhook-add"), {"url": url})
    assert response.status_code == 400
    assert not Webhook.objects.exists()


def test_one_user_cannot_touch_anothers_hook(client, players, receiver):
    hook = add_hook(client, players[0], receiver.url("/ok"))
    client.force_login(players[1])
    response = client.post(reverse("reach:webhook-action", args=[hook.pk]), {"action": "delete"})
    assert response.status_code == 404
    assert Webhook.objects.filter(pk=hook.pk).exists()
