"""Claim with a lease: how every outbox row (an e-mail, a push, a webhook post) is taken for one attempt, so that
no database lock is held while its worker talks to a server.

1. ``claim_due``: in one short transaction, the rows among some ids that are pending and due are locked
   (``FOR UPDATE SKIP LOCKED``: a row another transaction holds is left to it), screened (what must not be sent
   any more is marked so), and each kept row's attempt is counted and its ``next_attempt_at`` pushed a lease
   ahead; COMMIT. No other worker or sweep takes a claimed row while its lease runs.
2. The caller sends, with no transaction open.
3. ``record``: the outcome is written in a second short statement, only while the row is still pending with the
   attempt count of our claim: a row deleted meanwhile (its user erased) or claimed again after our lease ran
   out (the later attempt has the last word) is left alone.

A worker that dies between 1 and 3 leaves its rows pending with their lease running: they are due again when it
runs out. At-least-once: only a crash between the server's "accepted" and step 3 sends a row again.

The rows' model has ``status`` (with ``Status.PENDING``), ``attempts`` and ``next_attempt_at``
(``notifications.OutboxEmail``, ``reach.Delivery``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable

from django.db import transaction
from django.db.models import Q, QuerySet

# A row due within this much is taken now (a task queued with a countdown may start a moment early).
DUE_TOLERANCE = dt.timedelta(seconds=5)
# A row due later than this is left to the sweeper rather than parked in the broker as a task with a countdown.
REQUEUE_WITHIN_SECONDS = 600


def claim_due(
    rows: QuerySet, ids: Iterable[int], *, now: dt.datetime, lease: dt.timedelta, screen: Callable[[list], list]
) -> list:
    """Claim the rows of ``rows`` (a queryset: its ``select_related`` is kept) among ``ids`` that are pending
    and due, in id order. ``screen(locked_rows)`` runs under the locks and returns the rows to send (it marks
    the others itself: obsolete, given up). Returns the claimed rows, their ``attempts`` counted."""
    model = rows.model
    with transaction.atomic():
        locked = list(
            rows.select_for_update(skip_locked=True, of=("self",))
            .filter(pk__in=list(ids), status=model.Status.PENDING, next_attempt_at__lte=now + DUE_TOLERANCE)
            .order_by("pk")
        )
        claimed = screen(locked) if locked else []
        for row in claimed:
            row.attempts += 1
            row.next_attempt_at = now + lease
        if claimed:
            model.objects.bulk_update(claimed, ["attempts", "next_attempt_at"])
    return claimed


def ours(rows: Iterable) -> Q:
    """The rows still as we claimed them: pending, with the attempt count of our claim."""
    condition = Q(pk__in=[])
    for row in rows:
        condition |= Q(pk=row.pk, attempts=row.attempts)
    return condition


def record(model, rows: Iterable, **fields) -> int:
    """Write ``fields`` onto the rows this worker claimed, where they are still ours (``ours``); how many were."""
    rows = list(rows)
    if not rows:
        return 0
    return model.objects.filter(ours(rows), status=model.Status.PENDING).update(**fields)
