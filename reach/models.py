"""Storage of the channels beyond e-mail: preferences, push subscriptions, webhooks, feed secrets and
an outbox of push/webhook deliveries (the same guarantees as ``notifications.OutboxEmail``)."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class EventKind(models.TextChoices):
    """The kinds of event a player can be told about, on any channel."""

    TURN = "turn", _("Your move")
    REMINDER = "reminder", _("Deadline reminders")
    TIMEOUT = "timeout", _("Your time ran out")
    STARTED = "started", _("A game started")
    FINISHED = "finished", _("A game ended")
    CANCELLED = "cancelled", _("A game was called off")
    INVITATION = "invitation", _("Invitations")
    CHAT = "chat", _("Chat at my table")


class Channel(models.TextChoices):
    EMAIL = "email", _("E-mail")
    PUSH = "push", _("Push")
    WEBHOOK = "webhook", _("Webhooks")


def new_secret() -> str:
    return secrets.token_urlsafe(24)


# Kinds a channel leaves off until the player turns them on. Chat by e-mail: a conversation is what a
# mailbox copes with worst (an e-mail per burst, an hour apart at best), and the turn e-mails and the
# digest mention new chat anyway. Chat by push stays on: push is opted into per browser, a chat push is
# one per game until the chat is read (``together.messages``), and that is what a phone notification is for.
DEFAULT_OFF: dict[str, frozenset[str]] = {"email": frozenset({EventKind.CHAT})}


class ChannelSettings(models.Model):
    """A player's choices per channel and kind of event, and the secret of their private feeds.

    ``off`` maps a channel to the kinds turned off for it, ``on`` to the kinds turned on among those it
    leaves off by default (``DEFAULT_OFF``). Everything else is on by default: push and webhooks are
    used at all only once the player subscribed a browser or added a webhook.
    """

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="channel_settings")
    off = models.JSONField(_("kinds turned off per channel"), default=dict, blank=True)
    on = models.JSONField(_("kinds turned on per channel (of those off by default)"), default=dict, blank=True)
    feed_secret = models.CharField(_("feed secret"), max_length=64, unique=True, default=new_secret)
    # Whether the user has any push subscription / active webhook: lets a move skip the lookup for
    # the (many) players who have none.
    has_push = models.BooleanField(default=False)
    has_webhooks = models.BooleanField(default=False)

    class Meta:
        verbose_name = _("channel settings")
        verbose_name_plural = _("channel settings")

    def __str__(self) -> str:
        return f"channels of {self.user_id}"

    def wants(self, channel: str, kind: str) -> bool:
        return wants(self, channel, kind)


def wants(row: ChannelSettings | None, channel: str, kind: str) -> bool:
    """Whether a player with these settings (``None``: none saved yet) wants ``kind`` on ``channel``."""
    if kind in DEFAULT_OFF.get(channel, ()):
        return row is not None and kind in ((row.on or {}).get(channel) or [])
    return row is None or kind not in ((row.off or {}).get(channel) or [])


class PushSubscription(models.Model):
    """One browser's Web Push subscription (the PushSubscription JSON of the Push API)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    label = models.CharField(_("browser"), max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_success_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")

    def __str__(self) -> str:
        return f"push {self.pk} of {self.user_id}"

    def info(self) -> dict:
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class Webhook(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks")
    url = models.URLField(_("URL"), max_length=1000)
    secret = models.CharField(_("signing secret"), max_length=64, default=new_secret)
    kinds = models.JSONField(_("kinds of events"), default=list)
    active = models.BooleanField(_("active"), default=True)
    # Deliveries that failed for good in a row; reset by a success.
    failures = models.PositiveIntegerField(default=0)
    disabled_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("webhook")
        verbose_name_plural = _("webhooks")

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One push notification or webhook call waiting to go: the outbox of these channels.

    Written inside the transaction of the event (a move), so it exists exactly when the event does;
    delivered after commit by a task and swept by beat, claimed ``FOR UPDATE SKIP LOCKED``.
    ``payload`` holds only what the recipient may see (taken from their own SeatView).
    """

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENT = "sent", _("sent")
        FAILED = "failed", _("failed")
        DROPPED = "dropped", _("dropped")

    channel = models.CharField(max_length=10, choices=Channel.choices)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    # A push delivery goes to one subscription, a webhook delivery to one hook.
    subscription = models.ForeignKey(PushSubscription, on_delete=models.SET_NULL, null=True, blank=True)
    webhook = models.ForeignKey(Webhook, on_delete=models.SET_NULL, null=True, blank=True)
    kind = models.CharField(max_length=16)
    dedupe_key = models.CharField(max_length=250, unique=True)
    payload = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("push or webhook delivery")
        verbose_name_plural = _("push and webhook deliveries")
        indexes = [
            models.Index(fields=["next_attempt_at"], name="reach_delivery_pending_idx", condition=Q(status="pending")),
        ]

    def __str__(self) -> str:
        return f"{self.channel} {self.kind} to {self.user_id} ({self.status})"


class UsedReplyToken(models.Model):
    """A reply address that has been used for a move: a second message to it changes nothing."""

    token = models.CharField(max_length=120, unique=True)
    used_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return self.token
