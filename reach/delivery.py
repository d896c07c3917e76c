"""Delivering the push/webhook outbox: claim, send, mark, retry with backoff (as notifications.delivery).

A row is claimed ``FOR UPDATE SKIP LOCKED`` while pending and due, sent with the lock held and marked in
the same transaction, so two workers never both send it. At-least-once: only a crash between the peer's
answer and our COMMIT sends it again (a push replaces the previous one of its game by its tag; a webhook
receiver can drop a repeated ``X-Mammamia-Delivery`` id).

Push: 2xx sent; 404/410 the subscription is gone and deleted; other 4xx failed for good; 429, 5xx and
network errors retried. Webhook: 2xx sent; anything else retried (1, 2, 4... minutes, ``MAX_ATTEMPTS``);
each failed attempt counts against the hook, a success resets it, and after
``webhooks.MAX_CONSECUTIVE_FAILURES`` in a row the hook is turned off and its owner gets an e-mail.
A URL or endpoint that points at a non-public address is never called (``safehttp.Refused``).
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import time

from django.db import transaction
from django.utils import timezone

from notifications.outbox import obsolete_reason_of
from reach import push, safehttp, texts, webhooks
from reach.flags import refresh_flags
from reach.models import Channel, Delivery, Webhook

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
BACKOFF_BASE = dt.timedelta(minutes=1)
BACKOFF_MAX = dt.timedelta(hours=2)
BATCH_SIZE = 25
SWEEP_SECONDS = 25.0


def backoff(attempts: int) -> dt.timedelta:
    delay = min(BACKOFF_BASE * (2 ** max(0, attempts - 1)), BACKOFF_MAX)
    return delay * (1 + random.random() / 10)


def deliver_many(ids: list[int]) -> dict[int, str]:
    """Deliver the rows among ``ids`` that are pending and due; each id's outcome."""
    outcomes = dict.fromkeys(ids, "skipped")
    now = timezone.now()
    with transaction.atomic():
        rows = list(
            Delivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("user", "game", "subscription", "webhook")
            .filter(pk__in=ids, status=Delivery.Status.PENDING, next_attempt_at__lte=now + dt.timedelta(seconds=5))
            .order_by("pk")
        )
        for row in rows:
            outcomes[row.pk] = _deliver(row, now)
    return outcomes


def _deliver(row: Delivery, now) -> str:
    reason = _obsolete(row)
    if reason:
        return _mark(row, Delivery.Status.DROPPED, reason)
    row.attempts += 1
    try:
        message = texts.message(row)
        if row.channel == Channel.PUSH:
            push.send(row.subscription.info(), message)
            row.subscription.last_success_at = timezone.now()
            row.subscription.save(update_fields=["last_success_at"])
        else:
            hook = row.webhook
            webhooks.call(url=hook.url, secret=hook.secret, event=row.kind, delivery_id=row.pk,
                          document=webhooks.document(delivery_id=row.pk, message=message, created_at=row.created_at))
            if hook.failures:
                Webhook.objects.filter(pk=hook.pk).update(failures=0, last_error="")
    except push.Gone as exc:
        subscription = row.subscription
        logger.info("push subscription %s of user %s is gone; removed", subscription.pk, row.user_id)
        subscription.delete()
        row.subscription = None
        refresh_flags(row.user_id)
        return _mark(row, Delivery.Status.FAILED, f"subscription gone: {exc}"[:2000])
    except Exception as exc:  # noqa: BLE001 - every failure is recorded on the row
        return _failed(row, exc, now)
    row.sent_at = timezone.now()
    logger.info("%s delivery %s (%s) sent to user %s", row.channel, row.pk, row.kind, row.user_id)
    return _mark(row, Delivery.Status.SENT, "")


def _obsolete(row: Delivery) -> str | None:
    if not row.user.is_active:
        return "user inactive"
    if row.channel == Channel.PUSH:
        if row.subscription is None:
            return "subscription removed"
        if not push.enabled():
            return "push is not configured"
    elif row.webhook is None or not row.webhook.active:
        return "webhook removed or turned off"
    # What the message's kind says (registered by the app that owns it): the turn is over, the chat was read…
    # It may fill in what the message says (the unread chat, ``row.chat``, read by reach.texts).
    return obsolete_reason_of(row, quiet=row.channel == Channel.PUSH)


def _mark(row: Delivery, status: str, error: str) -> str:
    row.status, row.last_error = status, error
    row.save(update_fields=["status", "last_error", "attempts", "sent_at"])
    return status


def _failed(row: Delivery, exc: Exception, now) -> str:
    permanent = isinstance(exc, (safehttp.Refused, push.Rejected))
    error = f"{type(exc).__name__}: {exc}"[:2000]
    if row.channel == Channel.WEBHOOK:
        _count_failure(row.webhook, error, now)
    if permanent or row.attempts >= MAX_ATTEMPTS:
        logger.warning("%s delivery %s failed for good: %s", row.channel, row.pk, error)
        return _mark(row, Delivery.Status.FAILED, error)
    row.last_error, row.next_attempt_at = error, now + backoff(row.attempts)
    row.save(update_fields=["attempts", "last_error", "next_attempt_at"])
    logger.warning("%s delivery %s: attempt %s failed (%s)", row.channel, row.pk, row.attempts, error)
    return "retry"


def _count_failure(hook: Webhook, error: str, now) -> None:
    """One more failure in a row for ``hook``; at the limit, turn it off and tell its owner by e-mail."""
    hook = Webhook.objects.select_for_update().get(pk=hook.pk)
    hook.failures += 1
    hook.last_error = error
    fields = ["failures", "last_error"]
    if hook.active and hook.failures >= webhooks.MAX_CONSECUTIVE_FAILURES:
        from reach.notices import tell_webhook_disabled

        hook.active, hook.disabled_at = False, now
        fields += ["active", "disabled_at"]
        hook.save(update_fields=fields)
        refresh_flags(hook.user_id)
        tell_webhook_disabled(hook)
        logger.warning("webhook %s of user %s turned off after %s failures", hook.pk, hook.user_id, hook.failures)
        return
    hook.save(update_fields=fields)


def due_ids(*, limit: int = 200) -> list[int]:
    return list(
        Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__lte=timezone.now())
        .order_by("next_attempt_at", "pk").values_list("pk", flat=True)[:limit]
    )


def sweep(*, budget_seconds: float = SWEEP_SECONDS) -> dict[str, int]:
    counts: dict[str, int] = {}
    started = time.monotonic()
    while time.monotonic() - started < budget_seconds:
        ids = due_ids()
        if not ids:
            break
        progressed = False
        for start in range(0, len(ids), BATCH_SIZE):
            for outcome in deliver_many(ids[start:start + BATCH_SIZE]).values():
                counts[outcome] = counts.get(outcome, 0) + 1
                progressed = progressed or outcome != "skipped"
        if not progressed:
            break
    return counts

