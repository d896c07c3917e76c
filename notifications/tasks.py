"""Celery tasks of notifications: thin wrappers around delivery and deadlines.

- ``deliver_emails(ids)``: queued after commit for each batch of outbox rows
  (``notifications.outbox.enqueue``); delivers them together
  (``delivery.deliver_many``). Rows that failed for now are re-queued with
  their backoff (short delays) and otherwise left to the sweeper.
  ``deliver_email(id)`` is the same for one row.
- ``deliver_pending_notifications``: beat, every 30 s, and once when a worker
  starts. Delivers every pending row that is due: the safety net for a
  queueing lost while the broker or the workers were down.
- ``check_deadlines``: beat, every minute. Reminders, time-outs, stalled bots.
- ``send_due_digests``: beat, every 15 minutes. Daily digests at 08:00 local.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError
from django.utils import timezone

from notifications.claims import REQUEUE_WITHIN_SECONDS  # longer delays are left to the sweeper

logger = logging.getLogger(__name__)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=5)
def deliver_emails(email_ids: list[int]) -> dict[str, int]:
    from notifications.delivery import deliver_many

    outcomes = deliver_many(email_ids)
    _requeue_retries(outcomes)
    counts: dict[str, int] = {}
    for outcome in outcomes.values():
        counts[outcome.value] = counts.get(outcome.value, 0) + 1
    return counts


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=5)
def deliver_email(email_id: int) -> str:
    """One row (tasks queued before batches, a manual resend): the same as ``deliver_emails([email_id])``."""
    from notifications.delivery import deliver_many

    outcomes = deliver_many([email_id])
    _requeue_retries(outcomes)
    return outcomes[email_id].value


def _requeue_retries(outcomes: dict) -> None:
    """Queue again, for when they are due, the rows that failed for now (their backoff) and the rows that were
    not due yet (a "your move" held a few minutes: ``TURN_NOTIFY_HOLD_SECONDS``); all due by the latest of them.
    Later than ``REQUEUE_WITHIN_SECONDS`` is left to the sweeper."""
    from notifications.delivery import Outcome
    from notifications.models import OutboxEmail

    requeued = (Outcome.RETRY, Outcome.SKIPPED)
    if deliver_emails.app.conf.task_always_eager:
        requeued = (Outcome.RETRY,)  # run at once, a countdown would not wait: held rows are the sweeper's
    again = [email_id for email_id, outcome in outcomes.items() if outcome in requeued]
    if not again:
        return
    now = timezone.now()
    soon = {
        email_id: max(0.0, (next_at - now).total_seconds())
        for email_id, next_at in OutboxEmail.objects.filter(
            pk__in=again, status=OutboxEmail.Status.PENDING, next_attempt_at__gt=now
        ).values_list("pk", "next_attempt_at")
    }
    soon = {email_id: delay for email_id, delay in soon.items() if delay <= REQUEUE_WITHIN_SECONDS}
    if soon:
        deliver_emails.apply_async(args=[sorted(soon)], countdown=max(soon.values()))


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=3)
def deliver_pending_notifications() -> dict:
    from notifications.delivery import sweep

    counts = sweep()
    if counts:
        logger.info("outbox sweep: %s", counts)
    return counts


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=3)
def check_deadlines() -> dict:
    from notifications.deadlines import check_deadlines as run

    return run()


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=3)
def send_due_digests() -> int:
    from notifications.deadlines import send_due_digests as run

    return run()


@worker_ready.connect(dispatch_uid="notifications.sweep_on_worker_ready")
def sweep_when_a_worker_starts(sender=None, **kwargs) -> None:
    """A worker coming back delivers what waited while none was running (without waiting for beat)."""
    try:
        deliver_pending_notifications.apply_async(countdown=1)
    except Exception:  # noqa: BLE001 - the beat sweep will do it
        logger.warning("could not queue the start-up outbox sweep", exc_info=True)
