"""The project's Celery app (mammamia.celery) for the integration test's worker, on a queue of its own.

The embedded Redis of ``make run`` / ``make test`` may be shared by several
processes on a developer machine; a private queue keeps another worker (with
another database) from taking this test's tasks, and this worker from taking
theirs. Everything else is the production app: same tasks, same settings.
"""

import os

from mammamia.celery import app

app.conf.task_default_queue = os.environ["NOTIFY_TEST_QUEUE"]

__all__ = ["app"]
