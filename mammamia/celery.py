"""The Celery app: turn e-mails, reminders, deadlines and bot moves."""

import os
from typing import Any

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mammamia.settings")

app = Celery("mammamia")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# Worker database connections live like a web worker's (docs/deploying.md, "Worker database connections").
# Celery's Django fixup would close every connection before and after each task, so each task
# paid a new PostgreSQL backend (fork, authentication, cold catalog caches); settings'
# CELERY_DB_REUSE_MAX turns that off, and these handlers do what Django does around a request:
# drop a connection that is broken, older than CONN_MAX_AGE or left in a transaction, and have
# CONN_HEALTH_CHECKS test a kept one before the task's first query (a restarted PostgreSQL).
# Eager tasks run inside the caller (a request, a test's transaction): its connection is not ours.
def _is_eager(task: Any) -> bool:
    return task is None or bool(getattr(task.request, "is_eager", False))


@signals.task_prerun.connect
def _connections_before_task(sender: Any = None, **kwargs: Any) -> None:
    if not _is_eager(sender):
        from django.db import close_old_connections

        close_old_connections()


@signals.task_postrun.connect
def _connections_after_task(sender: Any = None, **kwargs: Any) -> None:
    if _is_eager(sender):
        return
    from django.db import close_old_connections, connections
    from psycopg.pq import TransactionStatus

    for conn in connections.all(initialized_only=True):
        # Whatever transaction the task left open (an atomic block, set_autocommit(False), a BEGIN
        # by hand, idle or failed) must not reach the next task; reading the status is no round trip.
        raw = conn.connection
        if raw is not None and raw.info.transaction_status != TransactionStatus.IDLE:
            conn.close()
    close_old_connections()
