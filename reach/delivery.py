"""Delivering the push/webhook outbox: claim, send, mark, retry with backoff (as notifications.delivery).

No database lock is held across the network (``notifications.claims``, shared with the e-mails): a row is claimed
in a short transaction (``FOR UPDATE SKIP LOCKED`` while pending and due; its attempt counted and
``next_attempt_at`` pushed ``CLAIM_LEASE`` ahead, so no other worker or sweep takes it meanwhile), committed,
then called (``safehttp``: one deadline for the whole
call), then its outcome is written in a second short transaction. The owner deleting a hook or a browser, a
move, a sweep never wait for a receiver. If the worker dies during the call, the lease runs out and the row is
due again. At-least-once: only a crash between the peer's answer and our second COMMIT sends it again (a push
replaces the previous one of its game by its tag; a webhook receiver can drop a repeated
``X-Mammamia-Delivery`` id). A call counts as sent only on a complete 2xx answer.

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

from notifications import claims
from notifications.outbox import obsolete_reason_of
from reach import push, safehttp, texts, webhooks
from reach.flags import refresh_flags
from reach.models import Channel, Delivery, PushSubscription, Webhook

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 8
BACKOFF_BASE = dt.timedelta(minutes=1)
BACKOFF_MAX = dt.timedelta(hours=2)
BATCH_SIZE = 25
SWEEP_SECONDS = 25.0
# How long a claimed row stays out of the due set: more than one call may take (then it is due again: its
# worker died or was stopped by its time limit).
CLAIM_LEASE = dt.timedelta(seconds=safehttp.TIMEOUT_SECONDS + 50)


def backoff(attempts: int) -> dt.timedelta:
    delay = min(BACKOFF_BASE * (2 ** max(0, attempts - 1)), BACKOFF_MAX)
    return delay * (1 + random.random() / 10)


def deliver_many(ids: list[int], *, budget_seconds: float | None = None) -> dict[int, str]:
    """Deliver the rows among ``ids`` that are pending and due, one at a time; each id's outcome.

    ``budget_seconds``: claim no new row after this long (the rest stays due for the sweeper), so a task
    stays within its time limit however slow the receivers."""
    outcomes = dict.fromkeys(ids, "skipped")
    started = time.monotonic()
    for pk in ids:
        if budget_seconds is not None and time.monotonic() - started > budget_seconds:
            break
        outcome, row = claim(pk)
        outcomes[pk] = _deliver(row) if row is not None else outcome
    return outcomes


def claim(pk: int) -> tuple[str, Delivery | None]:
    """Take row ``pk`` for one attempt: ``("claimed", row)`` if it is pending, due and nobody else has it,
    its lease (``next_attempt_at``) running; ``("dropped", None)`` if it is obsolete (its user, hook or browser
    gone, its turn over, its attempts spent); ``("skipped", None)`` otherwise."""
    dropped = []

    def screen(rows: list[Delivery]) -> list[Delivery]:
        kept = []
        for row in rows:
            reason = _obsolete(row) or ("gave up" if row.attempts >= MAX_ATTEMPTS else None)
            if reason:
                dropped.append(_mark(row, Delivery.Status.DROPPED, reason))
            else:
                kept.append(row)
        return kept

    rows = claims.claim_due(
        Delivery.objects.select_related("user", "game", "subscription", "webhook"),
        [pk], now=timezone.now(), lease=CLAIM_LEASE, screen=screen,
    )
    if rows:
        return "claimed", rows[0]
    return ("dropped", None) if dropped else ("skipped", None)


def _deliver(row: Delivery) -> str:
    """One call for a claimed row (no transaction open), then its outcome recorded."""
    now = timezone.now()
    try:
        message = texts.message(row)
        if row.channel == Channel.PUSH:
            push.send(row.subscription.info(), message)
            PushSubscription.objects.filter(pk=row.subscription_id).update(last_success_at=timezone.now())
        else:
            hook = row.webhook
            webhooks.call(url=hook.url, secret=hook.secret, event=row.kind, delivery_id=row.pk,
                          document=webhooks.document(delivery_id=row.pk, message=message, created_at=row.created_at))
            if hook.failures:
                Webhook.objects.filter(pk=hook.pk).update(failures=0, last_error="")
    except push.Gone as exc:
        logger.info("push subscription %s of user %s is gone; removed", row.subscription_id, row.user_id)
        PushSubscription.objects.filter(pk=row.subscription_id).delete()
        refresh_flags(row.user_id)
        return _record(row, Delivery.Status.FAILED, _error_text(f"subscription gone: {exc}"))
    except Exception as exc:  # noqa: BLE001 - every failure is recorded on the row
        return _failed(row, exc, now)
    row.sent_at = timezone.now()
    logger.info("%s delivery %s (%s) sent to user %s", row.channel, row.pk, row.kind, row.user_id)
    return _record(row, Delivery.Status.SENT, "")


def _record(row: Delivery, status: str, error: str, *, next_attempt_at=None) -> str:
    """Write the outcome of the attempt this worker claimed. Nothing if the row has gone meanwhile (its user
    deleted) or was claimed again after our lease ran out (the later attempt has the last word)."""
    fields = {"last_error": error, "sent_at": row.sent_at}
    if status == Delivery.Status.PENDING:
        fields["next_attempt_at"] = next_attempt_at
    else:
        fields["status"] = status
    claims.record(Delivery, [row], **fields)
    return status if status != Delivery.Status.PENDING else "retry"


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


def _error_text(text: str) -> str:
    """What we keep of an error: it may quote the receiver's answer, and a NUL in it would make the row
    unwritable (PostgreSQL stores none), leaving it claimed and retried for ever."""
    return text.replace("\x00", "\\x00")[:2000]


def _failed(row: Delivery, exc: Exception, now) -> str:
    permanent = isinstance(exc, (safehttp.Refused, push.Rejected))
    error = _error_text(f"{type(exc).__name__}: {exc}")
    if row.channel == Channel.WEBHOOK:
        _count_failure(row.webhook, error, now)
    if permanent or row.attempts >= MAX_ATTEMPTS:
        logger.warning("%s delivery %s failed for good: %s", row.channel, row.pk, error)
        return _record(row, Delivery.Status.FAILED, error)
    logger.warning("%s delivery %s: attempt %s failed (%s)", row.channel, row.pk, row.attempts, error)
    return _record(row, Delivery.Status.PENDING, error, next_attempt_at=now + backoff(row.attempts))


def _count_failure(hook: Webhook, error: str, now) -> None:
    """One more failure in a row for ``hook``; at the limit, turn it off and tell its owner by e-mail."""
    with transaction.atomic():
        hook = Webhook.objects.select_for_update().filter(pk=hook.pk).first()
        if hook is not None:  # its owner may have removed it during the call
            _count_failure_locked(hook, now, error)


def _count_failure_locked(hook: Webhook, now, error: str) -> None:
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
            if time.monotonic() - started >= budget_seconds:
                break
            left = budget_seconds - (time.monotonic() - started)
            batch = deliver_many(ids[start:start + BATCH_SIZE], budget_seconds=left)
            for outcome in batch.values():
                counts[outcome] = counts.get(outcome, 0) + 1
                progressed = progressed or outcome != "skipped"
        if not progressed:
            break
    return counts

