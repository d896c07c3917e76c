"""The channels in a player's own data (``trust.account``): what "download my data" lists, what "delete
my account" forgets. Secrets (a hook's signing secret, a browser's keys, the feed secret) are credentials,
not data about the player: the export leaves them out, as it leaves out API token keys."""

from __future__ import annotations

from typing import Any

from reach.models import ChannelSettings, Delivery, PushSubscription, Webhook


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def export_channels(user) -> dict[str, Any]:
    row = ChannelSettings.objects.filter(user=user).first()
    return {
        "off": (row.off if row else {}) or {},
        "on": (row.on if row else {}) or {},
        "browsers": [
            {"label": s.label, "since": _iso(s.created_at), "last_success": _iso(s.last_success_at)}
            for s in PushSubscription.objects.filter(user=user).order_by("pk")
        ],
        "webhooks": [
            {"url": h.url, "kinds": h.kinds, "active": h.active, "created_at": _iso(h.created_at),
             "disabled_at": _iso(h.disabled_at)}
            for h in Webhook.objects.filter(user=user).order_by("pk")
        ],
        "deliveries": [
            {"channel": d.channel, "kind": d.kind, "game": d.game_id, "status": d.status,
             "created_at": _iso(d.created_at), "sent_at": _iso(d.sent_at)}
            for d in Delivery.objects.filter(user=user).order_by("created_at", "pk")
        ],
    }


def forget_channels(user) -> None:
    """In the deletion's transaction: nothing more is pushed or posted for ``user``, and nothing of theirs
    stays (browsers, hooks, choices and feed secret; what waited to go; what the sent ones carried)."""
    Delivery.objects.filter(user=user, status=Delivery.Status.PENDING).delete()
    Delivery.objects.filter(user=user).update(payload={})
    PushSubscription.objects.filter(user=user).delete()
    Webhook.objects.filter(user=user).delete()
    ChannelSettings.objects.filter(user=user).delete()
    user.uses_channels = False
