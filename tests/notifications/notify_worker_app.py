"""The project's Celery app (mammamia.celery) for the integration test's worker, on a queue of its own.

The embedded Redis of ``make run`` / ``make test`` may be shared by several
processes on a developer machine; a private queue keeps another worker (with
another database) from taking this test's tasks, and this worker from taking
theirs. Everything else is the production app: same tasks, same settings.
"""

import contextlib
import os
from pathlib import Path

from django.db import DatabaseError, connection

from mammamia.celery import app

app.conf.task_default_queue = os.environ["NOTIFY_TEST_QUEUE"]


# Test-only tasks (test_worker_connections.py), sent by name; results go to a file (the project keeps none).
@app.task(name="notify_test.record_backend")
def record_backend(path: str, leave_transaction: str = "") -> None:
    """Append this task's PostgreSQL backend pid to ``path``; optionally leave a transaction open or failed."""
    with connection.cursor() as cursor:
        if leave_transaction:
            cursor.execute("BEGIN")
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
        if leave_transaction == "failed":
            with contextlib.suppress(DatabaseError):
                cursor.execute("SELECT 1 / 0")
    with Path(path).open("a") as out:
        out.write(f"{pid}\n")


__all__ = ["app"]
