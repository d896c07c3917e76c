"""Real workers, the real broker, the test database: receivers that hold every outgoing worker process never
delay a bot's move, because webhooks and push run on their own queue (the audit: 0.8 s became 57.6 s)."""

from __future__ import annotations

import sys
import time
import uuid
from functools import partial
from pathlib import Path

import pytest

from games.models import Move
from games.tasks import play_bot_moves
from mammamia.celery import app as celery_app
from notifications.tasks import deliver_email, deliver_emails
from reach.fanout import refresh_flags
from reach.models import Delivery, Webhook
from reach.tasks import deliver_reach
from tests.games.game_helpers import awaited_human, start_game
from tests.reach.slow_peers import RawPeer, drip

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "notifications"))
from test_notify_integration import Worker, worker_environment  # noqa: E402 - the real-worker harness

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def workers(tmp_path, monkeypatch, settings, loopback_allowed):
    main, outgoing = f"h29-main-{uuid.uuid4().hex}", f"h29-outgoing-{uuid.uuid4().hex}"
    previous_eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.BOT_MOVE_DELAY_SECONDS = 0
    # Each task goes where the project's routing sends it, that queue renamed to a private one (a worker of
    # another run on the same broker never takes them).
    private = {settings.CELERY_TASK_DEFAULT_QUEUE: main, getattr(settings, "CELERY_OUTGOING_QUEUE", "-"): outgoing}
    for task in (play_bot_moves, deliver_email, deliver_emails, deliver_reach):
        queue = private[celery_app.amqp.router.route({}, task.name)["queue"].name]
        monkeypatch.setattr(task, "apply_async", partial(task.apply_async, queue=queue))
    common = {"NOTIFY_TEST_OUTGOING_QUEUE": outgoing, "BOT_MOVE_DELAY_SECONDS": "0", "EMAIL_URL": "dummymail://",
              "DB_CONN_MAX_AGE": "0"}
    started = [Worker(worker_environment(settings, queue=queue, **common), tmp_path / f"{name}.log")
               for name, queue in (("main", main), ("outgoing", outgoing))]
    for worker in started:
        worker.start()
    yield started
    for worker in started:
        worker.stop()
    celery_app.conf.task_always_eager = previous_eager


def wait_ready(worker: Worker, deadline: float) -> None:
    while "ready." not in worker.output():
        assert time.monotonic() < deadline and worker.process.poll() is None, worker.output()
        time.sleep(0.1)


def test_a_bot_answers_at_once_while_slow_receivers_hold_the_outgoing_worker(workers, user_factory):
    from games.play import services
    from reach.fanout import enqueue
    from reach.models import Channel

    deadline = time.monotonic() + 60
    for worker in workers:
        wait_ready(worker, deadline)
    human = user_factory(username="h29-human")
    game = start_game("marumiere", [human], bots=1)
    while awaited_human(game)[0] is None:  # the bot may open the game
        assert time.monotonic() < deadline, workers[0].output()
        time.sleep(0.1)
        game.refresh_from_db()
    # Two hooks whose receivers answer a byte a second: each call lasts its whole deadline (10 s).
    peers = [RawPeer(drip(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" * 50, every=1.0)) for _ in range(2)]
    try:
        rows = []
        for n, peer in enumerate(peers):
            hook = Webhook.objects.create(user=human, url=peer.url(), kinds=["started"])
            rows.append(Delivery.objects.create(channel=Channel.WEBHOOK, user=human, game=game, webhook=hook,
                                                kind="started", dedupe_key=f"h29-slow-{game.pk}-{n}"))
        refresh_flags(human.pk)
        enqueue([row.pk for row in rows])  # as a move's commit does: one task for both calls
        while not any(peer.holding.is_set() for peer in peers):
            assert time.monotonic() < deadline, f"no call reached a receiver:\n{workers[1].output()}"
            time.sleep(0.05)
        _seat, view = awaited_human(game)
        before = Move.objects.filter(game=game).count()
        moved = time.monotonic()
        services.check_play_move(user=human, game_id=game.pk, move=view.legal_moves[0], expected_version=game.version)
        while Move.objects.filter(game=game).count() < before + 2:
            assert time.monotonic() - moved < 40, workers[0].output()
            time.sleep(0.05)
        answered = time.monotonic() - moved
        assert not Delivery.objects.filter(pk__in=[row.pk for row in rows], status=Delivery.Status.SENT).exists()
        assert answered < 3.0, f"the bot answered after {answered:.1f}s"
    finally:
        for peer in peers:
            peer.close()
