"""Delivering outbox rows over SMTP: claim, send, mark, with retries and backoff.

Batches: rows are delivered in batches (``deliver_many``; the on-commit tasks
carry up to ``BATCH_SIZE`` ids, the sweeper takes the due rows in batches of
that size): one claim, one query for the seats of the batch's games
(obsolescence, players, deadlines), one SMTP connection, one UPDATE for the
rows sent. ``deliver`` is a batch of one.

Claiming, with no lock held while SMTP talks (``notifications.claims``, as for
pushes and webhooks): the batch's rows are claimed in a short transaction
(``FOR UPDATE SKIP LOCKED`` while ``pending`` and due; the obsolete dropped;
each kept row's attempt counted and its ``next_attempt_at`` pushed
``CLAIM_LEASE`` ahead), committed; then rendered and sent with no transaction
open; then the outcomes are written, each only while the row is still as we
claimed it. Two workers (the on-commit task and the sweeper, a task
redelivered by the broker) can never both send a row: the second one skips
the locked row, or finds it claimed (not due) or sent. A move, an account's
deletion or another batch never waits for a mail server.

At-least-once, deliberately. A worker that dies after its claim leaves the
rows pending: they are due again when the lease runs out (it outlasts any
task, ``CELERY_TASK_TIME_LIMIT``), and those the server had accepted are sent
again, with the SAME Message-ID, which most mail systems use to drop the copy.
Every message of a batch is rendered before the first is sent, so the window
is the batch's SMTP conversations (milliseconds on a local relay) plus the
UPDATE. The alternative, marking them sent before talking to SMTP
(at-most-once), would turn the same crash into a lost "your move" e-mail,
which is worse for a game that waits on that player.

Failures: a temporary one (connection refused, timeout, 4xx) is logged and
retried with exponential backoff (``backoff``) up to ``MAX_ATTEMPTS``; a
permanent refusal of the recipient (5xx on RCPT, or an address that cannot be
written) stops at once and flags ``User.email_undeliverable_since``, after
which nothing more is queued or sent to that address until it changes.
Another permanent 5xx fails that e-mail only. Each row of a batch gets its own
outcome; only a mail server that cannot be reached at all (a new connection
fails) defers the rest of the batch with that same error, each row counting
the attempt and getting its own backoff, rather than waiting for a timeout per
row.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import smtplib
import time
from collections import defaultdict
from contextlib import suppress
from enum import StrEnum

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import mailers
from django.utils import timezone

from accounts.models import NotifyMode
from notifications import claims
from notifications.models import OutboxEmail
from notifications.outbox import get_channel, get_kind, obsolete_reason_of

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 12  # with the backoff below: retried for about a day and a half
BACKOFF_BASE = dt.timedelta(minutes=1)
BACKOFF_MAX = dt.timedelta(hours=6)
DUE_TOLERANCE = claims.DUE_TOLERANCE
SWEEP_BATCH = 200
# Rows per delivery batch (an on-commit task, a step of the sweeper). Larger batches share more (one claim, one
# SMTP connection) but widen the re-send window on a crash.
BATCH_SIZE = 25
# How long claimed rows stay out of the due set: longer than any task may run (its hard time limit stops it), so
# a row is due again only once the worker that claimed it can no longer be sending it.
CLAIM_LEASE = dt.timedelta(seconds=settings.CELERY_TASK_TIME_LIMIT + 60)
SWEEP_SECONDS = 25.0  # keep a sweep shorter than the beat period

class Outcome(StrEnum):
    SENT = "sent"
    RETRY = "retry"  # temporary failure; next_attempt_at is set
    FAILED = "failed"  # permanent failure or out of attempts
    DROPPED = "dropped"  # obsolete, not sent on purpose
    SKIPPED = "skipped"  # not ours now: sent already, being sent elsewhere, or not due yet


def backoff(attempts: int) -> dt.timedelta:
    """Delay before attempt ``attempts + 1``: 1, 2, 4 ... minutes, at most 6 hours, with 10% jitter."""
    delay = min(BACKOFF_BASE * (2 ** max(0, attempts - 1)), BACKOFF_MAX)
    return delay * (1 + random.random() / 10)


class PermanentFailure(Exception):
    def __init__(self, message: str, *, bad_address: bool) -> None:
        super().__init__(message)
        self.bad_address = bad_address


def classify(exc: BaseException) -> PermanentFailure | None:
    """A PermanentFailure for errors that retrying cannot fix; None for temporary ones."""
    if isinstance(exc, smtplib.SMTPRecipientsRefused):
        codes = [code for code, _msg in exc.recipients.values()]
        if codes and all(code >= 500 for code in codes):
            return PermanentFailure(f"recipient refused: {exc.recipients}", bad_address=True)
        return None
    if isinstance(exc, smtplib.SMTPSenderRefused):
        return None  # our side's configuration; retry while someone fixes it
    if isinstance(exc, smtplib.SMTPResponseException) and exc.smtp_code >= 500:
        return PermanentFailure(f"{exc.smtp_code} {exc.smtp_error!r}", bad_address=False)
    if isinstance(exc, ValueError):  # Django refuses to write the address (prep_address)
        return PermanentFailure(f"bad address: {exc}", bad_address=True)
    return None


def obsolete_reason(row: OutboxEmail, *, seats: list | None = None) -> str | None:
    """Why this row should not be sent any more, or None: the recipient's settings for its kind's audience, then
    what the kind itself says (``MessageKind.prepare``: the turn is over, the reader is at the table…).

    ``seats``: the seats of ``row.game`` if the caller loaded them (a batch does, once for all its games).
    """
    audience = get_kind(row.kind).audience
    if audience == "account":
        return None  # to the address allauth chose, whatever the account's state (a reset, a new address)
    user = row.user
    if not user.is_active or not user.email:
        return "no active address"
    if user.email_undeliverable_since is not None:
        return "address undeliverable"
    if audience == "game" and user.notify_mode == NotifyMode.NEVER:
        return "unsubscribed"
    if audience == "deadline" and not user.deadline_reminders:
        return "reminders off"
    if seats is not None:
        row.game_seats = seats  # for the kind's check: the batch loaded them once
    return obsolete_reason_of(row)


def _seats_by_game(rows: list[OutboxEmail]) -> dict[int, list]:
    """Every seat (user loaded) of the games the rows are about, in one query."""
    from games.models import Seat

    game_ids = {row.game_id for row in rows if row.game_id is not None}
    by_game: dict[int, list] = {game_id: [] for game_id in game_ids}
    if game_ids:
        for seat in Seat.objects.filter(game_id__in=game_ids).select_related("user"):
            by_game[seat.game_id].append(seat)
    return by_game


def _unreachable(exc: BaseException) -> bool:
    """Whether the mail server could not be talked to at all (rather than refusing one message)."""
    if isinstance(exc, (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError)):
        return True
    return isinstance(exc, OSError) and not isinstance(exc, smtplib.SMTPException)


def deliver(email_id: int, *, mailer=None) -> Outcome:
    """Deliver one outbox row if it is pending and due; what happened (a batch of one, see ``deliver_many``)."""
    return deliver_many([email_id], mailer=mailer)[email_id]


def deliver_many(email_ids: list[int], *, mailer=None) -> dict[int, Outcome]:
    """Deliver the rows among ``email_ids`` that are pending and due; each id's outcome. Claimed in one short
    transaction, sent with none open, each outcome written after (``notifications.claims``).

    ``mailer``: an open backend to reuse (the sweeper's), left open; else a new ``mailers.default`` connection,
    opened for the rows to send and closed at the end.
    """
    channel = get_channel("email")
    outcomes = dict.fromkeys(email_ids, Outcome.SKIPPED)
    now = timezone.now()
    seats: dict[int, list] = {}

    def screen(rows: list[OutboxEmail]) -> list[OutboxEmail]:
        """Under the claim's locks: drop what must not be sent any more; the rows to send."""
        seats.update(_seats_by_game(rows))
        ready, dropped = [], defaultdict(list)
        for row in rows:
            reason = obsolete_reason(row, seats=seats.get(row.game_id))
            if reason is not None:
                dropped[reason].append(row.pk)
                outcomes[row.pk] = Outcome.DROPPED
                logger.info("outbox e-mail %s (%s) dropped: %s", row.pk, row.dedupe_key, reason)
            elif row.attempts >= MAX_ATTEMPTS:  # its workers stopped during every attempt (each lease ran out)
                OutboxEmail.objects.filter(pk=row.pk).update(
                    status=OutboxEmail.Status.FAILED, last_error=row.last_error or "gave up: no attempt finished"
                )
                outcomes[row.pk] = Outcome.FAILED
                logger.error("outbox e-mail %s gave up after %s attempts", row.pk, row.attempts)
            else:
                ready.append(row)
        for reason, ids in dropped.items():
            OutboxEmail.objects.filter(pk__in=ids).update(status=OutboxEmail.Status.DROPPED, last_error=reason)
        return ready

    rows = claims.claim_due(
        OutboxEmail.objects.select_related("user", "game"), outcomes, now=now, lease=CLAIM_LEASE, screen=screen
    )
    if not rows:
        return outcomes
    connection = mailer if mailer is not None else mailers.default
    try:
        # Render every message before the first is sent: the window between a server's "accepted" and the
        # outcome's UPDATE (see the module docstring) holds only the SMTP conversations.
        shared, messages = channel.shared(seats), []
        for row in rows:
            try:
                messages.append((row, channel.build_message(row, shared=shared)))
            except Exception as exc:  # noqa: BLE001 - every failure is recorded on the row
                outcomes[row.pk] = _failed(row, exc, now)
        sent = _send(messages, connection, outcomes, now)
        claims.record(OutboxEmail, sent, status=OutboxEmail.Status.SENT, sent_at=timezone.now(), last_error="")
        for row in sent:
            outcomes[row.pk] = Outcome.SENT
            logger.info("outbox e-mail %s (%s) sent to user %s", row.pk, row.dedupe_key, row.user_id)
        return outcomes
    finally:
        if mailer is None:
            with suppress(Exception):
                connection.close()


def _send(messages: list, connection, outcomes: dict[int, Outcome], now) -> list[OutboxEmail]:
    """Send each (row, message) over ``connection``; record the failures on their rows; the rows sent."""
    sent: list[OutboxEmail] = []
    unreachable, refused = None, set()
    for row, message in messages:
        if unreachable is not None:
            # A new connection just failed: the rest would wait for the same refusal or timeout, one by one.
            outcomes[row.pk] = _failed(row, unreachable, now)
            continue
        if row.user_id in refused and get_kind(row.kind).audience != "account":
            # Its address was refused for good a moment ago (and flagged): as obsolete_reason would say now. Not
            # an attempt: its claim's count is given back.
            claims.record(
                OutboxEmail, [row], status=OutboxEmail.Status.DROPPED, last_error="address undeliverable",
                attempts=row.attempts - 1,
            )
            outcomes[row.pk] = Outcome.DROPPED
            continue
        connecting = True  # until open() says it reused a connection (an old one may just have gone stale)
        try:
            connecting = connection.open() is not False  # False: already open; None: a backend without connections
            if not connection.send_messages([message]):
                raise smtplib.SMTPException("the mail backend sent nothing")
        except Exception as exc:  # noqa: BLE001 - every failure is recorded on the row
            outcomes[row.pk] = _failed(row, exc, now)
            permanent = classify(exc)
            if permanent is not None and permanent.bad_address and get_kind(row.kind).audience != "account":
                refused.add(row.user_id)
            elif permanent is None:
                # The connection may be the broken thing: the next row starts afresh.
                with suppress(Exception):
                    connection.close()
                if connecting and _unreachable(exc):
                    unreachable = exc
            continue
        sent.append(row)
    return sent


def _failed(row: OutboxEmail, exc: Exception, now) -> Outcome:
    """Record a failed attempt of a claimed row (``row.attempts`` counts it): failed for good, or due again after
    its backoff."""
    permanent = classify(exc)
    row.last_error = f"{type(exc).__name__}: {exc}"[:2000]
    if permanent is not None:
        row.status = OutboxEmail.Status.FAILED
        claims.record(OutboxEmail, [row], status=row.status, last_error=row.last_error)
        logger.warning("outbox e-mail %s to user %s failed for good: %s", row.pk, row.user_id, permanent)
        if permanent.bad_address and get_kind(row.kind).audience != "account":
            get_user_model().objects.filter(pk=row.user_id, email_undeliverable_since__isnull=True).update(
                email_undeliverable_since=now
            )
            logger.warning("user %s: e-mail address flagged undeliverable", row.user_id)
        return Outcome.FAILED
    if row.attempts >= MAX_ATTEMPTS:
        row.status = OutboxEmail.Status.FAILED
        claims.record(OutboxEmail, [row], status=row.status, last_error=row.last_error)
        logger.error("outbox e-mail %s gave up after %s attempts: %s", row.pk, row.attempts, row.last_error)
        return Outcome.FAILED
    row.next_attempt_at = now + backoff(row.attempts)
    claims.record(OutboxEmail, [row], last_error=row.last_error, next_attempt_at=row.next_attempt_at)
    logger.warning(
        "outbox e-mail %s: attempt %s failed (%s); next at %s",
        row.pk, row.attempts, row.last_error, row.next_attempt_at.isoformat(),
        exc_info=not isinstance(exc, (smtplib.SMTPException, OSError)),
    )
    return Outcome.RETRY


def due_ids(*, limit: int = SWEEP_BATCH, now=None) -> list[int]:
    now = now or timezone.now()
    return list(
        OutboxEmail.objects.filter(status=OutboxEmail.Status.PENDING, next_attempt_at__lte=now)
        .order_by("next_attempt_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )


def sweep(*, budget_seconds: float = SWEEP_SECONDS) -> dict[str, int]:
    """Deliver every pending, due row (bounded by ``budget_seconds``) in batches over one SMTP connection."""
    counts: dict[str, int] = {}
    started = time.monotonic()
    mailer = mailers.default
    try:
        while time.monotonic() - started < budget_seconds:
            ids = due_ids()
            if not ids:
                break
            progressed = False
            for start in range(0, len(ids), BATCH_SIZE):
                if time.monotonic() - started >= budget_seconds:
                    break
                for outcome in deliver_many(ids[start : start + BATCH_SIZE], mailer=mailer).values():
                    counts[outcome.value] = counts.get(outcome.value, 0) + 1
                    progressed = progressed or outcome is not Outcome.SKIPPED
            if not progressed:
                break  # everything due is being sent by someone else
    finally:
        with suppress(Exception):
            mailer.close()
    return counts
