"""Celery tasks of notifications: thin wrappers around delivery and deadlines.

- ``deliver_email(id)``: queued after commit for each outbox row; retries by
  re-queueing itself with the row's backoff (short delays) and otherwise leaves
  the row to the sweeper.
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

logger = logging.getLogger(__name__)

# Longer delays than this are left to the sweeper rather than parked in the broker.
REQUEUE_WITHIN_SECONDS = 600


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=5)
def deliver_email(email_id: int) -> str:
    from notifications.delivery import Outcome, deliver
    from notifications.models import OutboxEmail

    outcome = deliver(email_id)
    if outcome is Outcome.RETRY:
        next_at = OutboxEmail.objects.filter(pk=email_id).values_list("next_attempt_at", flat=True).first()
        if next_at is not None:
            delay = max(0.0, (next_at - timezone.now()).total_seconds())
            if delay <= REQUEUE_WITHIN_SECONDS:
                deliver_email.apply_async(args=[email_id], countdown=delay)
    return outcome.value


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
