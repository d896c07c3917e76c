"""A real Celery worker, the real broker, a real SMTP server, the real test database.

Checks that a move produces exactly one e-mail, that a move made while no
worker runs still produces its e-mail once one starts, and that a move whose
queueing was lost altogether (broker down at commit) is delivered by the
sweep a starting worker runs.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from email import policy
from email.parser import BytesParser
from functools import partial
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection
from notify_helpers import awaited, play, start_game

from mammamia import mailcatcher
from mammamia.celery import app as celery_app
from notifications.models import OutboxEmail
from notifications.outbox import game_thread_id
from notifications.tasks import deliver_email, deliver_emails, deliver_pending_notifications

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

BASE_DIR = Path(__file__).resolve().parents[2]
WAIT_SECONDS = 30


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """The URL of the database this test runs against (pytest-django's ``test_<name>``)."""
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="")
    if db["PASSWORD"]:
        credentials += ":" + quote(db["PASSWORD"], safe="")
    host = quote(db["HOST"] or "", safe="")
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{credentials}@{host}{port}/{quote(db['NAME'], safe='')}"


def worker_environment(settings, *, queue: str, **overrides: str) -> dict:
    """The environment of a real worker process (notify_worker_app) on the test database and broker."""
    return {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "SECRET_KEY": settings.SECRET_KEY,
        "DEBUG": "0",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "NOTIFY_TEST_QUEUE": queue,
        "PYTHONPATH": os.pathsep.join([str(BASE_DIR), str(Path(__file__).parent)]),
        **overrides,
    }


class Worker:
    """``python -m celery worker`` in its own process group; stopped with a warm shutdown, killed if need be."""

    def __init__(self, env: dict, log_path: Path) -> None:
        self.env, self.log_path = env, log_path
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        assert self.process is None
        self.log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "notify_worker_app", "worker",
                "--loglevel", "INFO", "--concurrency", "1", "--hostname", f"notify-test-{uuid.uuid4().hex[:8]}@%h",
                "--without-gossip", "--without-mingle", "--without-heartbeat",
            ],
            cwd=BASE_DIR,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def stop(self) -> None:
        if self.process is None:
            return
        try:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGTERM)
                try:
                    self.process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    os.killpg(self.process.pid, signal.SIGKILL)
                    self.process.wait(timeout=5)
        except ProcessLookupError:
            pass
        finally:
            self.process = None
            self.log.close()

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")[-6000:]


@pytest.fixture
def mailbox(tmp_path):
    folder = tmp_path / "mail"
    port = free_port()
    controller = mailcatcher.start(folder=folder, port=port)
    yield folder, port
    controller.stop()


@pytest.fixture
def worker(tmp_path, mailbox, monkeypatch, settings):
    _folder, port = mailbox
    queue = f"notify-test-{uuid.uuid4().hex}"
    # This process publishes for real (not eagerly), on the worker's private queue.
    previous_eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    for task in (deliver_email, deliver_emails):
        monkeypatch.setattr(task, "apply_async", partial(task.apply_async, queue=queue))
    settings.SECURE_SSL_REDIRECT = False
    env = worker_environment(
        settings, queue=queue, EMAIL_URL=f"smtp://127.0.0.1:{port}", SITE_URL=settings.SITE_URL, DB_CONN_MAX_AGE="0"
    )
    handle = Worker(env, tmp_path / "worker.log")
    handle.publish_queue = queue
    yield handle
    handle.stop()
    celery_app.conf.task_always_eager = previous_eager


def messages(folder: Path) -> list:
    parser = BytesParser(policy=policy.default)
    return [parser.parsebytes(path.read_bytes()) for path in sorted(folder.glob("*.eml"))]


def wait_for_mail(folder: Path, count: int, worker: Worker) -> list:
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        found = messages(folder)
        if len(found) >= count:
            return found
        if worker.process is not None and worker.process.poll() is not None:
            pytest.fail(f"the worker exited:\n{worker.output()}")
        time.sleep(0.1)
    pytest.fail(f"expected {count} e-mails, got {len(messages(folder))}; worker log:\n{worker.output()}")


def settle(folder: Path, count: int, seconds: float = 2.0) -> list:
    """Wait a little and check that no further (duplicate) e-mail arrives."""
    time.sleep(seconds)
    found = messages(folder)
    assert len(found) == count, [m["Subject"] for m in found]
    return found


def test_a_real_worker_delivers_each_moves_email_exactly_once_even_when_it_was_down(
    players, worker, mailbox, monkeypatch
):
    folder, _port = mailbox
    started = time.monotonic()
    worker.start()
    game = start_game("mamma-mia", players[:2])
    wait_for_mail(folder, 2, worker)  # the game-started e-mails

    # 1. A move while the worker runs: exactly one e-mail, to the player now awaited.
    play(game)
    nxt, _ = awaited(game)
    found = wait_for_mail(folder, 3, worker)
    row = OutboxEmail.objects.get(kind=OutboxEmail.Kind.TURN, user=nxt.user)
    turn = [m for m in found if m["Message-ID"] == row.message_id]
    assert len(turn) == 1 and turn[0]["To"] == nxt.user.email
    assert turn[0]["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert turn[0]["List-Unsubscribe"].startswith("<http") and "/unsubscribe/" in turn[0]["List-Unsubscribe"]
    assert turn[0]["References"] == game_thread_id(game.pk)
    # Asking again (a redelivered task, the sweeper) sends nothing more.
    deliver_email.apply_async(args=[row.pk])
    deliver_pending_notifications.apply_async(queue=worker.publish_queue)
    settle(folder, 3)
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.SENT and row.attempts == 1

    # 2. A move while no worker runs: the task waits in the broker, the e-mail goes once a worker starts.
    worker.stop()
    play(game)
    nxt, _ = awaited(game)
    row = OutboxEmail.objects.get(kind=OutboxEmail.Kind.TURN, user=nxt.user)
    time.sleep(0.5)
    assert len(messages(folder)) == 3
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.PENDING
    worker.start()
    found = wait_for_mail(folder, 4, worker)
    assert [m["To"] for m in found if m["Message-ID"] == row.message_id] == [nxt.user.email]

    # 3. A move whose queueing was lost (the broker was down at commit): the row waits in
    #    PostgreSQL and the sweep a starting worker runs delivers it.
    worker.stop()
    monkeypatch.setattr("notifications.outbox.enqueue", lambda ids: None)
    play(game)
    nxt, _ = awaited(game)
    row = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TURN, user=nxt.user).latest("created_at")
    worker.start()
    found = wait_for_mail(folder, 5, worker)
    found = settle(folder, 5, seconds=1.5)
    worker.stop()
    assert [m["To"] for m in found if m["Message-ID"] == row.message_id] == [nxt.user.email]

    # Every row sent, each exactly once.
    ids = [m["Message-ID"] for m in found]
    assert len(ids) == len(set(ids)) == OutboxEmail.objects.filter(status=OutboxEmail.Status.SENT).count()
    assert not OutboxEmail.objects.exclude(status=OutboxEmail.Status.SENT).exists()
    assert time.monotonic() - started < 60
