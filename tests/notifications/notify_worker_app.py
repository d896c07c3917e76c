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
if os.environ.get("NOTIFY_TEST_OUTGOING_QUEUE"):
    # The outgoing calls' own queue (tests/reach/test_outgoing_queue.py), private too; its receivers are on
    # 127.0.0.1, which only a test may reach (reach.safehttp.ALLOWED_FOR_TESTS, never set in production).
    import ipaddress

    from django.conf import settings

    from reach import safehttp

    # The project's own routes, their outgoing queue renamed to the private one.
    app.conf.task_routes = {
        pattern: {"queue": os.environ["NOTIFY_TEST_OUTGOING_QUEUE"]}
        for pattern, route in getattr(settings, "CELERY_TASK_ROUTES", {}).items()
        if route.get("queue") == getattr(settings, "CELERY_OUTGOING_QUEUE", None)
    }
    safehttp.ALLOWED_FOR_TESTS.add(ipaddress.ip_network("127.0.0.0/8"))


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
