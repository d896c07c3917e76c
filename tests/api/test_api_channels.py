"""The notification settings of ``/settings/channels/`` by API: choices per kind and channel, webhooks, browsers
(Web Push) and the private feeds — through the page's own form and ``reach.services``, and only to their owner."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from reach.forms import MAX_WEBHOOKS
from reach.models import Channel, ChannelSettings, EventKind, PushSubscription, Webhook
from reach.prefs import settings_for
from reach.services import add_webhook

pytestmark = pytest.mark.django_db

# Documentation addresses (TEST-NET): valid URLs that nothing is ever sent to (not public: refused at delivery).
HOOK_URL = "https://203.0.113.5/hook"
ENDPOINT = "https://203.0.113.9/push/abc"
P256DH = "B" + "A" * 86  # 65 bytes, base64url
AUTH = "A" * 22  # 16 bytes


def _json(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:400])
    return response.json() if response.content else {}


def test_the_choices_read_as_the_page_stores_them_and_a_patch_saves_through_the_pages_form(token_client, user):
    api = token_client(user)
    body = _json(api.get(reverse("api-settings-channels")), 200)
    assert body["email"] == {
        "started": True,
        "finished": True,
        "cancelled": True,
        "invitation": True,
        "chat": False,
        "reminder": True,
    }
    assert body["push"] == {str(kind): True for kind in EventKind}
    assert [row["kind"] for row in body["kinds"]] == [str(kind) for kind in EventKind]

    changed = api.send(
        "patch",
        reverse("api-settings-channels"),
        {"email": {"chat": True, "reminder": False}, "push": {"turn": False}},
    )
    body = _json(changed, 200)
    assert body["email"]["chat"] is True and body["email"]["reminder"] is False and body["push"]["turn"] is False
    row = ChannelSettings.objects.get(user=user)
    assert row.wants(Channel.EMAIL, EventKind.CHAT) and not row.wants(Channel.PUSH, EventKind.TURN)
    assert row.wants(Channel.PUSH, EventKind.CHAT)  # untouched boxes stay as they were
    user.refresh_from_db()
    assert user.deadline_reminders is False  # the one reminders switch, as the page's grid writes it


def test_choices_of_the_wrong_type_are_refused_and_change_nothing(token_client, user):
    api = token_client(user)
    response = api.send("patch", reverse("api-settings-channels"), {"push": {"turn": "no"}})
    assert _json(response, 400)["error"] == "invalid"
    assert settings_for(user).wants(Channel.PUSH, EventKind.TURN)


def test_webhooks_are_added_listed_given_kinds_a_new_secret_and_removed(token_client, user):
    api = token_client(user)
    hook = _json(api.post(reverse("api-settings-webhooks"), {"url": HOOK_URL}), 201)
    assert hook["url"] == HOOK_URL and hook["active"] is True and hook["secret"]
    assert hook["kinds"] == ["turn", "finished", "invitation"]
    user.refresh_from_db()
    assert user.uses_channels  # deliveries will look this user up now

    listed = _json(api.get(reverse("api-settings-webhooks")), 200)
    assert [h["id"] for h in listed["results"]] == [hook["id"]] and listed["next"] is None

    url = reverse("api-settings-webhook", args=[hook["id"]])
    changed = _json(api.send("patch", url, {"kinds": ["chat", "turn"]}), 200)
    assert sorted(changed["kinds"]) == ["chat", "turn"]
    assert sorted(Webhook.objects.get(pk=hook["id"]).kinds) == ["chat", "turn"]

    renewed = _json(api.post(reverse("api-webhook-secret", args=[hook["id"]])), 200)
    assert renewed["secret"] != hook["secret"] == hook["secret"]

    Webhook.objects.filter(pk=hook["id"]).update(active=False, failures=8, last_error="HTTP 500")
    enabled = _json(api.post(reverse("api-webhook-enable", args=[hook["id"]])), 200)
    assert enabled["active"] is True and enabled["failures"] == 0 and enabled["last_error"] == ""

    assert api.send("delete", url).status_code == 204
    assert not Webhook.objects.filter(pk=hook["id"]).exists()
    user.refresh_from_db()
    assert not user.uses_channels
    assert _json(api.send("delete", url), 404)["error"] == "not_found"


def test_a_webhook_the_page_refuses_is_refused_with_the_pages_message(token_client, user):
    api = token_client(user)
    for url in ("ftp://203.0.113.5/hook", "https://name:secret@203.0.113.5/hook", "not a url"):
        body = _json(api.post(reverse("api-settings-webhooks"), {"url": url}), 400)
        assert body["error"] == "invalid" and "url" in body["fields"]
    for n in range(MAX_WEBHOOKS):
        add_webhook(user=user, url=f"{HOOK_URL}/{n}")
    body = _json(api.post(reverse("api-settings-webhooks"), {"url": HOOK_URL}), 409)
    assert body["error"] == "too_many_webhooks"
    assert Webhook.objects.filter(user=user).count() == MAX_WEBHOOKS


def test_another_players_webhooks_browsers_and_feeds_never_reach_me(token_client, user_factory):
    alice, bob = user_factory(username="alice"), user_factory(username="bob")
    theirs = add_webhook(user=bob, url=HOOK_URL)
    browser = PushSubscription.objects.create(user=bob, endpoint=ENDPOINT, p256dh=P256DH, auth=AUTH)
    bob_feed = settings_for(bob).feed_secret
    api = token_client(alice)
    seen = "".join(
        api.get(reverse(name)).content.decode()
        for name in ("api-settings-webhooks", "api-settings-push", "api-settings-feeds", "api-settings-channels")
    )
    seen += api.get(reverse("api-user", args=["bob"])).content.decode()
    for secret in (theirs.secret, bob_feed, ENDPOINT, P256DH, AUTH):
        assert secret not in seen
    for method, name, body in (
        ("get", "api-settings-webhook", None),
        ("patch", "api-settings-webhook", {"kinds": []}),
        ("delete", "api-settings-webhook", None),
        ("post", "api-webhook-enable", None),
        ("post", "api-webhook-secret", None),
    ):
        response = api.send(method, reverse(name, args=[theirs.pk]), body)
        assert _json(response, 404)["error"] == "not_found"
        assert theirs.secret not in response.content.decode()
    assert _json(api.send("delete", reverse("api-settings-push-browser", args=[browser.pk])), 404)
    theirs.refresh_from_db()
    assert theirs.kinds == ["turn", "finished", "invitation"]
    assert PushSubscription.objects.filter(pk=browser.pk).exists()
    assert token_client().get(reverse("api-settings-webhooks")).status_code == 401


def test_a_browser_subscribes_only_when_the_site_has_keys_and_its_keys_are_never_shown(token_client, user, settings):
    api = token_client(user)
    subscription = {"endpoint": ENDPOINT, "keys": {"p256dh": P256DH, "auth": AUTH}, "label": "phone"}
    settings.VAPID_PUBLIC_KEY = settings.VAPID_PRIVATE_KEY = ""
    assert _json(api.post(reverse("api-settings-push"), subscription), 409)["error"] == "push_not_set_up"
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = "public-key", "private-key"

    bad = {**subscription, "keys": {"p256dh": "short", "auth": AUTH}}
    assert _json(api.post(reverse("api-settings-push"), bad), 400)["error"] == "invalid"
    created = _json(api.post(reverse("api-settings-push"), subscription), 201)
    assert created["label"] == "phone"
    listed = api.get(reverse("api-settings-push"))
    body = _json(listed, 200)
    assert body["enabled"] is True and body["vapid_public_key"] == "public-key"
    assert [b["id"] for b in body["browsers"]] == [created["id"]]
    for secret in (P256DH, AUTH, ENDPOINT):
        assert secret not in listed.content.decode()
    user.refresh_from_db()
    assert user.uses_channels

    url = reverse("api-settings-push-browser", args=[created["id"]])
    assert api.send("delete", url).status_code == 204
    assert _json(api.send("delete", url), 404)["error"] == "not_found"
    user.refresh_from_db()
    assert not user.uses_channels


def test_new_feed_addresses_retire_the_old_ones(token_client, user, client):
    api = token_client(user)
    before = _json(api.get(reverse("api-settings-feeds")), 200)
    assert client.get(urlsplit(before["calendar_url"]).path).status_code == 200
    after = _json(api.post(reverse("api-settings-feeds-renew")), 200)
    assert after["calendar_url"] != before["calendar_url"] and after["atom_url"] != before["atom_url"]
    secret = settings_for(user).feed_secret
    assert secret in after["calendar_url"] and secret in after["atom_url"]
    assert client.get(urlsplit(before["atom_url"]).path).status_code == 404
    assert client.get(urlsplit(after["atom_url"]).path).status_code == 200


def test_the_channel_operations_are_in_the_served_schema_with_their_statuses(client):
    schema = json.loads(client.get("/api/schema/", {"format": "json"}).content)
    paths = schema["paths"]
    assert set(paths["/api/settings/channels/"]) >= {"get", "patch"}
    assert set(paths["/api/settings/webhooks/"]["post"]["responses"]) >= {"201", "400", "401", "403", "409", "413"}
    assert set(paths["/api/settings/webhooks/{hook_id}/"]["delete"]["responses"]) >= {"204", "401", "403", "404"}
    assert set(paths["/api/settings/push/"]["post"]["responses"]) >= {"201", "400", "409"}
    assert "secret" in schema["components"]["schemas"]["Webhook"]["properties"]
