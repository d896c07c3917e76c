"""What a player changes about their channels: browsers (Web Push subscriptions), webhooks and the feeds'
secret. The settings page (``reach.views``) and the API (``reach.api``) both call these; the choices per
kind of event are ``reach.forms.ChannelGridForm``'s, for both too.

Refusals are the platform's typed exceptions (``games.exceptions.GameError``): the page shows their message,
the API answers ``{"error": code, "detail": message}`` with their status.
"""

from __future__ import annotations

import base64
import binascii

from django.db import transaction
from django.utils.translation import gettext as _

from games.exceptions import BadInput, GameError, GameNotFound
from reach import push, safehttp
from reach.fanout import refresh_flags
from reach.forms import MAX_SUBSCRIPTIONS, MAX_WEBHOOKS
from reach.models import ChannelSettings, EventKind, PushSubscription, Webhook, new_secret
from reach.prefs import settings_for

# The kinds a new webhook hears until its owner ticks others.
NEW_WEBHOOK_KINDS = (EventKind.TURN, EventKind.FINISHED, EventKind.INVITATION)


class PushNotSetUp(GameError):
    code = "push_not_set_up"
    status = 409

    def default_message(self) -> str:
        return _("Push notifications are not set up on this site.")


class UnreadableSubscription(BadInput):
    def default_message(self) -> str:
        return _("This subscription could not be read.")


class TooManyBrowsers(GameError):
    code = "too_many_browsers"
    status = 409

    def default_message(self) -> str:
        return _("Too many browsers: remove one first.")


class TooManyWebhooks(GameError):
    code = "too_many_webhooks"
    status = 409

    def default_message(self) -> str:
        return _("You have %(count)s webhooks, the most there can be.") % {"count": MAX_WEBHOOKS}


class NoSuchWebhook(GameNotFound):
    def default_message(self) -> str:
        return _("You have no such webhook.")


class NoSuchBrowser(GameNotFound):
    def default_message(self) -> str:
        return _("You have no such browser.")


def _b64_length(value, expected: int) -> bool:
    if not isinstance(value, str) or len(value) > 200:
        return False
    try:
        return len(base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))) == expected
    except (binascii.Error, ValueError):
        return False


def subscribe_browser(*, user, data, label: str = "") -> PushSubscription:
    """Store a browser's PushSubscription (the JSON of ``subscription.toJSON()``: ``endpoint`` and ``keys``);
    the same endpoint again updates it (and moves it to ``user`` if another account had it)."""
    if not push.enabled():
        raise PushNotSetUp()
    if not isinstance(data, dict):
        raise UnreadableSubscription()
    endpoint, keys = data.get("endpoint"), data.get("keys")
    if (
        not isinstance(endpoint, str)
        or len(endpoint) > 1000
        or "\x00" in endpoint  # PostgreSQL stores no NUL (issue 29)
        or not isinstance(keys, dict)
        or not _b64_length(keys.get("p256dh"), 65)
        or not _b64_length(keys.get("auth"), 16)
    ):
        raise UnreadableSubscription()
    try:
        safehttp.check_url(endpoint)
    except safehttp.Refused:
        raise UnreadableSubscription() from None
    label = str(data.get("label") or label or "").replace("\x00", "")[:200]
    with transaction.atomic():
        if PushSubscription.objects.filter(user=user).exclude(endpoint=endpoint).count() >= MAX_SUBSCRIPTIONS:
            raise TooManyBrowsers()
        previous = PushSubscription.objects.filter(endpoint=endpoint).values_list("user_id", flat=True).first()
        subscription, _created = PushSubscription.objects.update_or_create(
            endpoint=endpoint,
            defaults={"user": user, "p256dh": keys["p256dh"], "auth": keys["auth"], "label": label},
        )
        refresh_flags(user.pk)
        if previous is not None and previous != user.pk:
            refresh_flags(previous)  # the browser changed hands (another account logged in on it)
    return subscription


def forget_browser(*, user, endpoint: str | None = None, subscription_id: int | None = None) -> bool:
    """Forget one of ``user``'s browsers, by its endpoint (the page's script) or its id; whether there was one."""
    if endpoint is not None and "\x00" in endpoint:
        return False  # no endpoint holds one (PostgreSQL could not even compare it)
    which = {"endpoint": endpoint} if endpoint is not None else {"pk": subscription_id}
    deleted, _kinds = PushSubscription.objects.filter(user=user, **which).delete()
    refresh_flags(user.pk)
    return bool(deleted)


def add_webhook(*, user, url: str) -> Webhook:
    """A new webhook of ``user`` (``url`` checked by ``reach.forms.WebhookForm``), hearing ``NEW_WEBHOOK_KINDS``."""
    with transaction.atomic():
        ChannelSettings.objects.select_for_update().filter(pk=settings_for(user).pk).first()  # one add at a time
        if Webhook.objects.filter(user=user).count() >= MAX_WEBHOOKS:
            raise TooManyWebhooks()
        hook = Webhook.objects.create(user=user, url=url, kinds=[str(kind) for kind in NEW_WEBHOOK_KINDS])
        refresh_flags(user.pk)
    return hook


def webhook_of(*, user, hook_id: int) -> Webhook:
    """``user``'s webhook ``hook_id`` (never another player's: 404 ``not_found``)."""
    hook = Webhook.objects.filter(pk=hook_id, user=user).first()
    if hook is None:
        raise NoSuchWebhook()
    return hook


def remove_webhook(*, user, hook_id: int) -> None:
    webhook_of(user=user, hook_id=hook_id).delete()
    refresh_flags(user.pk)


def enable_webhook(*, user, hook_id: int) -> Webhook:
    """Turn a webhook back on (after repeated failures turned it off), its failures forgotten."""
    hook = webhook_of(user=user, hook_id=hook_id)
    hook.active, hook.failures, hook.disabled_at, hook.last_error = True, 0, None, ""
    hook.save(update_fields=["active", "failures", "disabled_at", "last_error"])
    refresh_flags(user.pk)
    return hook


def renew_webhook_secret(*, user, hook_id: int) -> Webhook:
    """A new signing secret for a webhook; the old one signs nothing more."""
    hook = webhook_of(user=user, hook_id=hook_id)
    hook.secret = new_secret()
    hook.save(update_fields=["secret"])
    return hook


def renew_feed_secret(*, user) -> ChannelSettings:
    """New addresses for ``user``'s private feeds; the old ones stop working at once."""
    row = settings_for(user)
    row.feed_secret = new_secret()
    row.save(update_fields=["feed_secret"])
    return row
