"""Celery tasks of the channels: thin wrappers (ids in, fresh rows, a service call).

They make outgoing HTTP calls, so they run on their own queue, ``outgoing`` (settings' CELERY_TASK_ROUTES),
served by a worker of its own: however slow the receivers, moves, bots, time-outs and e-mails (queue
``celery``) never wait behind them. Each task works for at most ``delivery.SWEEP_SECONDS`` (plus the call in
hand, ``safehttp.TIMEOUT_SECONDS``) and leaves the rest to the next sweep; the time limits stop it past that."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.signals import worker_ready
from django.db import OperationalError

logger = logging.getLogger(__name__)


# Past the soft limit the call in hand is cut (its row is due again when its lease ends); the hard limit
# ends the worker process if even that did not stop it.
SOFT_TIME_LIMIT = 60
TIME_LIMIT = 75


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=5,
             soft_time_limit=SOFT_TIME_LIMIT, time_limit=TIME_LIMIT)
def deliver_reach(ids: list[int]) -> dict[str, int]:
    from reach.delivery import SWEEP_SECONDS, deliver_many

    counts: dict[str, int] = {}
    for outcome in deliver_many(ids, budget_seconds=SWEEP_SECONDS).values():
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=3,
             soft_time_limit=SOFT_TIME_LIMIT, time_limit=TIME_LIMIT)
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
