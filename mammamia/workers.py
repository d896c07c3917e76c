"""The Celery workers a site runs: one per queue (settings' CELERY_TASK_ROUTES), so calls to receivers that
users chose (webhooks, Web Push: queue ``outgoing``) and slow searches (reviews of finished games: queue
``slow``) never wait in line with moves, bots, time-outs and e-mails (queue ``celery``). ``make run``, the
e2e stack and the bench all start these."""

from __future__ import annotations

# The queues of settings (CELERY_TASK_DEFAULT_QUEUE, CELERY_OUTGOING_QUEUE); every one gets a worker.
QUEUES = {
    "celery": "moves, bots, time-outs, reminders, e-mails, leagues",
    "outgoing": "webhooks and Web Push (calls to addresses users give us)",
    "slow": "reviews of finished games (seconds of search each, one at a time)",
}


def worker_commands(python: str, *, concurrency: int, name: str, outgoing_concurrency: int = 2,
                    loglevel: str = "info", extra: tuple[str, ...] = (), main_queue: str = "celery",
                    outgoing_queue: str = "outgoing", slow_queue: str = "slow") -> dict[str, list[str]]:
    """One ``celery worker`` command line per queue: ``worker`` for the main queue (``concurrency``
    processes), ``worker-outgoing`` for the outgoing one (``outgoing_concurrency``: they mostly wait on the
    network), ``worker-slow`` with one process for the slow one (a review uses a core while it runs). The
    bench names its queues apart (bench/settings.py) and passes them."""
    commands = {}
    for key, queue, processes in (("worker", main_queue, concurrency),
                                  ("worker-outgoing", outgoing_queue, outgoing_concurrency),
                                  ("worker-slow", slow_queue, 1)):
        commands[key] = [python, "-m", "celery", "-A", "mammamia", "worker", "-l", loglevel, "-Q", queue,
                         "-c", str(processes), "-n", f"{key}-{name}@%h", *extra]
    return commands
