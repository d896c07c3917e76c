"""Operators see the channels' outbox in the admin (docs/notifications.md: "see them in the admin under
Channels"), never a secret."""

from __future__ import annotations

import pytest
from django.urls import reverse

from reach.models import ChannelSettings, Delivery, PushSubscription, Webhook

pytestmark = [pytest.mark.django_db]


def test_deliveries_webhooks_and_browsers_are_listed_in_the_admin_without_their_secrets(admin_client, user):
    hook = Webhook.objects.create(user=user, url="https://hooks.example/x", kinds=["turn"], last_error="HTTP 500")
    subscription = PushSubscription.objects.create(user=user, endpoint="https://push.example/1", p256dh="k" * 87,
                                                   auth="a" * 22, label="Firefox")
    row = Delivery.objects.create(channel="webhook", user=user, webhook=hook, kind="turn", dedupe_key="hook:1:x",
                                  status="failed", last_error="HTTP 500 Internal Server Error")
    feeds = ChannelSettings.objects.create(user=user)
    pages = {
        "deliveries": admin_client.get(reverse("admin:reach_delivery_changelist") + "?status=failed"),
        "delivery": admin_client.get(reverse("admin:reach_delivery_change", args=[row.pk])),
        "hooks": admin_client.get(reverse("admin:reach_webhook_changelist")),
        "hook": admin_client.get(reverse("admin:reach_webhook_change", args=[hook.pk])),
        "browsers": admin_client.get(reverse("admin:reach_pushsubscription_changelist")),
        "browser": admin_client.get(reverse("admin:reach_pushsubscription_change", args=[subscription.pk])),
    }
    for name, page in pages.items():
        assert page.status_code == 200, name
        html = page.content.decode()
        assert hook.secret not in html and feeds.feed_secret not in html and subscription.auth not in html, name
    assert "HTTP 500 Internal Server Error" in pages["deliveries"].content.decode()
    assert "https://hooks.example/x" in pages["hooks"].content.decode()
