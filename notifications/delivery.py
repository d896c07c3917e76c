"""Delivering outbox rows over SMTP: claim, send, mark, with retries and backoff.

Claiming: a row is locked ``SELECT ... FOR UPDATE SKIP LOCKED`` and only while
still ``pending`` and due; the SMTP conversation happens with the lock held and
the row is marked ``sent`` in that same transaction. Two workers (the
on-commit task and the sweeper, a task redelivered by the broker) can never
both send a row: the second one skips the locked row, or finds it sent.

At-least-once, deliberately. The one window left is between the SMTP server's
"250 accepted" and our COMMIT (microseconds, plus a worker killed exactly
there or the database vanishing at that instant): the row stays pending and is
sent again later, with the SAME Message-ID, which most mail systems use to
drop the copy. The alternative, committing "sending" before talking to SMTP
(at-most-once), would turn the same crash into a lost "your move" e-mail,
which is worse for a game that waits on that player.

Failures: a temporary one (connection refused, timeout, 4xx) is logged and
retried with exponential backoff (``backoff``) up to ``MAX_ATTEMPTS``; a
permanent refusal of the recipient (5xx on RCPT, or an address that cannot be
written) stops at once and flags ``User.email_undeliverable_since``, after
which nothing more is queued or sent to that address until it changes.
Another permanent 5xx fails that e-mail only.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import smtplib
import time
from contextlib import suppress
from enum import StrEnum

from django.contrib.auth import get_user_model
from django.core.mail import mailers
from django.db import transaction
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from accounts.models import NotifyMode
from notifications.models import OutboxEmail

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 12  # with the backoff below: retried for about a day and a half
BACKOFF_BASE = dt.timedelta(minutes=1)
BACKOFF_MAX = dt.timedelta(hours=6)
DUE_TOLERANCE = dt.timedelta(seconds=5)
SWEEP_BATCH = 200
SWEEP_SECONDS = 25.0  # keep a sweep shorter than the beat period

GAME_MAIL = {
    OutboxEmail.Kind.TURN,
    OutboxEmail.Kind.DIGEST,
    OutboxEmail.Kind.INVITATION,
    OutboxEmail.Kind.STARTED,
    OutboxEmail.Kind.FINISHED,
    OutboxEmail.Kind.CANCELLED,
}
DEADLINE_MAIL = {OutboxEmail.Kind.REMINDER, OutboxEmail.Kind.TIMEOUT}


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


def obsolete_reason(row: OutboxEmail) -> str | None:
    """Why this row should not be sent any more, or None."""
    user = row.user
    if not user.is_active or not user.email:
        return "no active address"
    if user.email_undeliverable_since is not None:
        return "address undeliverable"
    if row.kind in GAME_MAIL and user.notify_mode == NotifyMode.NEVER:
        return "unsubscribed"
    if row.kind in DEADLINE_MAIL and not user.deadline_reminders:
        return "reminders off"
    if row.kind in (OutboxEmail.Kind.TURN, OutboxEmail.Kind.REMINDER):
        return _turn_over(row)
    return None


def _turn_over(row: OutboxEmail) -> str | None:
    """A "your move" or reminder e-mail whose turn is over (the player moved meanwhile) is not worth sending."""
    from games.models import GameStatus, Seat

    game = row.game
    if game is None or game.status != GameStatus.ACTIVE:
        return "game no longer active"
    seat = Seat.objects.filter(game=game, number=row.payload.get("seat_number")).first()
    since = parse_datetime(row.payload.get("awaited_since") or "")
    if seat is None or not seat.awaited or seat.user_id != row.user_id or seat.is_bot:
        return "seat no longer awaited"
    if since is not None and seat.awaited_since != since:
        return "that turn is over"
    return None


def _claim(email_id: int, now) -> OutboxEmail | None:
    return (
        OutboxEmail.objects.select_for_update(skip_locked=True, of=("self",))
        .select_related("user", "game")
        .filter(pk=email_id, status=OutboxEmail.Status.PENDING, next_attempt_at__lte=now + DUE_TOLERANCE)
        .first()
    )


def deliver(email_id: int, *, mailer=None) -> Outcome:
    """Deliver one outbox row if it is pending and due; what happened.

    ``mailer``: an open backend to reuse (the sweeper's); else ``mailers.default``.
    """
    from notifications.emails import build_message

    now = timezone.now()
    with transaction.atomic():
        row = _claim(email_id, now)
        if row is None:
            return Outcome.SKIPPED
        reason = obsolete_reason(row)
        if reason is not None:
            row.status, row.last_error = OutboxEmail.Status.DROPPED, reason
            row.save(update_fields=["status", "last_error"])
            logger.info("outbox e-mail %s (%s) dropped: %s", row.pk, row.dedupe_key, reason)
            return Outcome.DROPPED
        row.attempts += 1
        try:
            message = build_message(row)
            sent = (mailer or mailers.default).send_messages([message])
            if not sent:
                raise smtplib.SMTPException("the mail backend sent nothing")
        except Exception as exc:  # noqa: BLE001 - every failure is recorded on the row
            return _failed(row, exc, now)
        row.status, row.sent_at, row.last_error = OutboxEmail.Status.SENT, timezone.now(), ""
        row.save(update_fields=["status", "sent_at", "attempts", "last_error"])
        logger.info("outbox e-mail %s (%s) sent to user %s", row.pk, row.dedupe_key, row.user_id)
        return Outcome.SENT


def _failed(row: OutboxEmail, exc: Exception, now) -> Outcome:
    permanent = classify(exc)
    row.last_error = f"{type(exc).__name__}: {exc}"[:2000]
    if permanent is not None:
        row.status = OutboxEmail.Status.FAILED
        row.save(update_fields=["status", "attempts", "last_error"])
        logger.warning("outbox e-mail %s to user %s failed for good: %s", row.pk, row.user_id, permanent)
        if permanent.bad_address:
            get_user_model().objects.filter(pk=row.user_id, email_undeliverable_since__isnull=True).update(
                email_undeliverable_since=now
            )
            logger.warning("user %s: e-mail address flagged undeliverable", row.user_id)
        return Outcome.FAILED
    if row.attempts >= MAX_ATTEMPTS:
        row.status = OutboxEmail.Status.FAILED
        row.save(update_fields=["status", "attempts", "last_error"])
        logger.error("outbox e-mail %s gave up after %s attempts: %s", row.pk, row.attempts, row.last_error)
        return Outcome.FAILED
    row.next_attempt_at = now + backoff(row.attempts)
    row.save(update_fields=["attempts", "last_error", "next_attempt_at"])
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
    """Deliver every pending, due row (bounded by ``budget_seconds``) over one SMTP connection."""
    counts: dict[str, int] = {}
    started = time.monotonic()
    mailer = mailers.default
    try:
        with suppress(Exception):
            mailer.open()  # one connection for the whole sweep; if it fails, each row records why
        while time.monotonic() - started < budget_seconds:
            ids = due_ids()
            if not ids:
                break
            progressed = False
            for email_id in ids:
                if time.monotonic() - started >= budget_seconds:
                    break
                outcome = deliver(email_id, mailer=mailer)
                counts[outcome.value] = counts.get(outcome.value, 0) + 1
                progressed = progressed or outcome is not Outcome.SKIPPED
                if outcome is Outcome.RETRY:
                    # The connection may be the broken thing: start the next one afresh.
                    with suppress(Exception):
                        mailer.close()
                    with suppress(Exception):
                        mailer.open()
            if not progressed:
                break  # everything due is being sent by someone else
    finally:
        with suppress(Exception):
            mailer.close()
    return counts
