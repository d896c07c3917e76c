"""Celery workers keep their PostgreSQL connection from task to task, as web workers do, and recover when it breaks.

A real worker (notify_worker_app, on a private queue) runs ``notify_test.record_backend``, which appends the
pid of the PostgreSQL backend it used to a file. An eager task run inside a test's transaction must leave
that transaction's connection alone.
"""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import pytest
from django.db import connection
from test_notify_integration import Worker, worker_environment

from mammamia.celery import app as celery_app
from notifications.tasks import deliver_pending_notifications

WAIT_SECONDS = 30


@pytest.fixture
def worker(tmp_path, settings):
    queue = f"conn-test-{uuid.uuid4().hex}"
    # Production's default is 60 s; long enough here that age never closes a connection mid-test.
    env = worker_environment(settings, queue=queue, DB_CONN_MAX_AGE="600")
    handle = Worker(env, tmp_path / "worker.log")
    handle.queue = queue
    # This process publishes for real (send_task would warn that eager mode does not apply to it).
    previous_eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    handle.start()
    yield handle
    handle.stop()
    celery_app.conf.task_always_eager = previous_eager


def run(worker: Worker, out: Path, leave_transaction: str = "") -> int:
    """Send one record_backend task to the worker and return the backend pid it reports."""
    before = len(out.read_text().split()) if out.exists() else 0
    celery_app.send_task("notify_test.record_backend", args=[str(out), leave_transaction], queue=worker.queue)
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        pids = out.read_text().split() if out.exists() else []
        if len(pids) > before:
            return int(pids[before])
        if worker.process is not None and worker.process.poll() is not None:
            pytest.fail(f"the worker exited:\n{worker.output()}")
        time.sleep(0.05)
    pytest.fail(f"the task did not run; worker log:\n{worker.output()}")


def backend_alive(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone()[0] == 1


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_worker_reuses_its_connection_recovers_from_a_killed_backend_and_drops_open_transactions(worker, tmp_path):
    out = tmp_path / "pids"

    # Consecutive tasks of one worker process share one backend.
    first = run(worker, out)
    assert [run(worker, out) for _ in range(4)] == [first] * 4

    # PostgreSQL ends that backend (a restart, an admin): the next task still succeeds, on a new one.
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [first])
    deadline = time.monotonic() + 10
    while backend_alive(first) and time.monotonic() < deadline:
        time.sleep(0.05)
    second = run(worker, out)
    assert second != first
    assert run(worker, out) == second

    # A task that leaves a transaction open, or failed (a DataError, which Django's own check lets by),
    # does not hand it to the next task: the next one runs on a fresh connection.
    for state in ("open", "failed"):
        leaving = run(worker, out, leave_transaction=state)
        after = run(worker, out)
        assert after != leaving, state
        assert run(worker, out) == after


@pytest.mark.django_db
def test_an_eager_task_keeps_the_callers_connection_and_transaction(eager_celery, user_factory):
    # Tests (and CELERY_TASK_ALWAYS_EAGER deployments) run tasks inside the caller's transaction.
    assert celery_app.conf.task_always_eager
    user = user_factory(username="kept")
    raw = connection.connection
    deliver_pending_notifications.delay()
    assert connection.connection is raw and connection.in_atomic_block
    assert type(user).objects.filter(pk=user.pk).exists()
