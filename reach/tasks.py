"""Celery tasks of the channels: thin wrappers (ids in, fresh rows, a service call)."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError

logger = logging.getLogger(__name__)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=5)
def deliver_reach(ids: list[int]) -> dict[str, int]:
    from reach.delivery import deliver_many

    counts: dict[str, int] = {}
    for outcome in deliver_many(ids).values():
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=3)
def deliver_pending_reach() -> dict[str, int]:
    """Beat, every 30 s: deliver what is due (retries, and rows whose queueing was lost)."""
    from reach.delivery import sweep

    counts = sweep()
    if counts:
        logger.info("push/webhook sweep: %s", counts)
    return counts


@worker_ready.connect(dispatch_uid="reach.sweep_on_worker_ready")
def sweep_when_a_worker_starts(sender=None, **kwargs) -> None:
    try:
        deliver_pending_reach.apply_async(countdown=1)
    except Exception:  # noqa: BLE001 - beat will do it
        logger.warning("could not queue the start-up push/webhook sweep", exc_info=True)
