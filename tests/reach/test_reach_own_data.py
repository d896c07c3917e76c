"""The channels in "download my data" and "delete my account" (issue 15's pages): a player's browsers,
webhooks and choices are theirs to take away, and go with the account; never a secret in the export."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from reach.fanout import refresh_flags
from reach.models import ChannelSettings, Delivery, PushSubscription, Webhook

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]
PASSWORD = "correct horse battery staple"


@pytest.fixture
def wired(user):
    """A player with a browser, a webhook, their own choices and a delivery waiting."""
    subscription = PushSubscription.objects.create(user=user, endpoint="https://push.example/abc", p256dh="k" * 87,
                                                   auth="a" * 22, label="Firefox on a phone")
    hook = Webhook.objects.create(user=user, url="https://discord.example/api/webhooks/1/token", kinds=["turn", "chat"])
    refresh_flags(user.pk)
    ChannelSettings.objects.filter(user=user).update(off={"push": ["started"]}, on={"email": ["chat"]})
    Delivery.objects.create(channel="webhook", user=user, webhook=hook, kind="turn", dedupe_key="hook:x",
                            payload={"seat_number": 1, "move_types": ["bid"]})
    user.refresh_from_db()
    return user, subscription, hook


def test_the_export_lists_my_channels_without_their_secrets(client, wired):
    user, subscription, hook = wired
    client.force_login(user)
    data = json.loads(client.get(reverse("account-data-export")).content)
    channels = data["channels"]
    assert channels["off"] == {"push": ["started"]} and channels["on"] == {"email": ["chat"]}
    assert channels["browsers"] == [{"label": "Firefox on a phone", "since": subscription.created_at.isoformat(),
                                     "last_success": None}]
    [exported_hook] = channels["webhooks"]
    assert exported_hook["url"] == hook.url and exported_hook["kinds"] == ["turn", "chat"] and exported_hook["active"]
    assert [(d["channel"], d["kind"], d["status"]) for d in channels["deliveries"]] == [("webhook", "turn", "pending")]
    text = json.dumps(data)
    secrets = (hook.secret, subscription.auth, subscription.p256dh, ChannelSettings.objects.get(user=user).feed_secret)
    assert not any(secret in text for secret in secrets)


def test_deleting_my_account_forgets_my_browsers_webhooks_feeds_and_waiting_deliveries(client, wired):
    user, _subscription, _hook = wired
    feed_secret = ChannelSettings.objects.get(user=user).feed_secret
    client.force_login(user)
    assert client.post(reverse("account-delete"), {"password": PASSWORD}).status_code == 302
    user.refresh_from_db()
    assert not PushSubscription.objects.filter(user=user).exists()
    assert not Webhook.objects.filter(user=user).exists()
    assert not ChannelSettings.objects.filter(user=user).exists()
    assert not Delivery.objects.filter(user=user, status="pending").exists()
    assert all(row.payload == {} for row in Delivery.objects.filter(user=user))
    assert user.uses_channels is False
    client.logout()
    assert client.get(reverse("reach:calendar", args=[feed_secret])).status_code == 404
