"""Fan-out: 10,000 "your move" e-mails queued at once, delivered by the Celery workers to a local SMTP server.

The e-mails go through the real path: ``notifications.outbox.queue`` writes the
outbox rows in one transaction and queues one ``deliver_emails`` task per batch
of rows after commit; the workers claim, render (in each recipient's language)
and send each over SMTP to the mail catcher, which writes one file per message.
The clock runs from the start of that transaction to the last file.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from bench import seed

LANGUAGES = ("en", "ja", "zh-hant", "fr")


def _count(folder: Path) -> int:
    with os.scandir(folder) as entries:
        return sum(1 for entry in entries if entry.name.endswith(".eml"))


def _sample_payload_parts() -> tuple[list[str], list[dict]]:
    """What a real Konamon! turn e-mail carries: the awaited move types and a few of the seat's own log events."""
    from games.engines import get_engine
    from notifications.texts import move_types

    engine = get_engine("konamon")
    state = engine.setup(2, 7)
    for _ in range(12):
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, engine.bot_move(state, seat))
    seat = engine.waiting_for(state)[0]
    return move_types(engine.legal_moves(state, seat)), engine.view(state, seat)["log"][-6:]


def wait_for_quiet_outbox(seconds: float = 60.0) -> int:
    """Let the HTTP runs' own e-mails drain first; the number still pending after ``seconds``."""
    from notifications.models import OutboxEmail

    deadline = time.monotonic() + seconds
    pending = OutboxEmail.objects.filter(status=OutboxEmail.Status.PENDING).count()
    while pending and time.monotonic() < deadline:
        time.sleep(0.5)
        pending = OutboxEmail.objects.filter(status=OutboxEmail.Status.PENDING).count()
    return pending


def run(mail_dir: Path, *, count: int = 10_000, timeout: float = 180.0, log=print) -> dict:
    from django.db import transaction

    from notifications.models import OutboxEmail
    from notifications.outbox import Draft, queue

    left = wait_for_quiet_outbox()
    started = time.perf_counter()
    seats = seed.awaited_seats(count, languages=LANGUAGES)
    types, events = _sample_payload_parts()
    log(f"fan-out: {count} awaited seats seeded in {time.perf_counter() - started:.1f} s")
    drafts = [
        Draft(
            seat.user, OutboxEmail.Kind.TURN, f"turn:{seat.game_id}:{seat.number}:{seat.game.version}", seat.game,
            {"seat_number": seat.number, "version": seat.game.version, "awaited_since": seat.awaited_since.isoformat(),
             "move_types": types, "events": events, "events_skipped": 0, "news": []},
        )
        for seat in seats
    ]
    baseline = _count(mail_dir)
    t0 = time.perf_counter()
    with transaction.atomic():
        ids = queue(drafts)
        t_rows = time.perf_counter()
    t_queued = time.perf_counter()  # on_commit has published every task by now
    target = baseline + len(ids)
    delivered, deadline = baseline, t0 + timeout
    samples = []
    while delivered < target and time.perf_counter() < deadline:
        time.sleep(0.2)
        delivered = _count(mail_dir)
        samples.append((round(time.perf_counter() - t0, 2), delivered - baseline))
    t_done = time.perf_counter()
    statuses = _statuses(ids)
    return {
        "emails": len(ids),
        "delivered": delivered - baseline,
        "seconds": round(t_done - t0, 2),
        "rows_written_s": round(t_rows - t0, 2),
        "tasks_published_s": round(t_queued - t0, 2),
        "per_s": round((delivered - baseline) / (t_done - t0), 1),
        "complete": delivered >= target,
        "timeout_s": timeout,
        "outbox_status": statuses,
        "pending_before": left,
        "progress": samples[:: max(1, len(samples) // 20)],
    }


def _statuses(ids: list[int]) -> dict[str, int]:
    from django.db.models import Count

    from notifications.models import OutboxEmail

    rows = OutboxEmail.objects.filter(pk__in=ids).values("status").annotate(n=Count("id"))
    return {row["status"]: row["n"] for row in rows}
