"""Writing to the outbox, inside the caller's transaction, and queueing delivery after commit."""

from __future__ import annotations

import hashlib
import logging
import uuid
from dataclasses import dataclass, field
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models.constants import OnConflict

from accounts.models import NotifyMode
from notifications.models import OutboxEmail

logger = logging.getLogger(__name__)

# Publishing to a broker that is down must not hold a player's request for long:
# the row is in PostgreSQL already and the sweeper will deliver it.
PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}
INSERT_BATCH = 1000  # rows per INSERT statement (a fan-out queues thousands at once)


@cache
def mail_domain() -> str:
    """The domain of Message-IDs: the site's host name."""
    return urlsplit(settings.SITE_URL).hostname or "mammamia.invalid"


def new_message_id(dedupe_key: str) -> str:
    """A Message-ID chosen once per outbox row (kept across retries)."""
    digest = hashlib.sha256(dedupe_key.encode()).hexdigest()[:16]
    return f"<{digest}.{uuid.uuid4().hex[:12]}@{mail_domain()}>"


def game_thread_id(game_id: int) -> str:
    """The per-game root Message-ID every e-mail about that game refers to, so clients thread them."""
    return f"<game-{game_id}@{mail_domain()}>"


def wants_game_mail(user) -> bool:
    """Whether ``user`` gets e-mails about games at all (turns, invitations, starts, ends)."""
    return bool(
        user is not None
        and user.is_active
        and user.email
        and user.notify_mode != NotifyMode.NEVER
        and user.email_undeliverable_since is None
    )


def wants_reminders(user) -> bool:
    """Whether ``user`` gets deadline reminders and time-ran-out notices."""
    return bool(
        user is not None
        and user.is_active
        and user.email
        and user.deadline_reminders
        and user.email_undeliverable_since is None
    )


@dataclass
class Draft:
    user: Any
    kind: str
    key: str
    game: Any = None
    payload: dict = field(default_factory=dict)
    # Not sent before this moment (a "your move" e-mail held a while: see notifications.receivers); None: at once.
    not_before: Any = None


def queue(drafts: list[Draft]) -> list[int]:
    """Insert outbox rows and queue their delivery after commit; the ids of the rows inserted.

    Runs in the caller's transaction: if it rolls back, the rows vanish with it.
    A key already there is left alone and not queued again: the transaction that
    wrote it queued it, and the sweeper delivers whatever that queueing lost.
    """
    from reach.prefs import drop_unwanted_email  # the per-kind e-mail switches of the channels page

    drafts = drop_unwanted_email(drafts)
    if not drafts:
        return []
    rows = [
        OutboxEmail(
            user=draft.user,
            game=draft.game,
            kind=draft.kind,
            dedupe_key=draft.key,
            payload=draft.payload,
            message_id=new_message_id(draft.key),
            **({"next_attempt_at": draft.not_before} if draft.not_before is not None else {}),
        )
        for draft in drafts
    ]
    ids = _insert_new(rows)
    if ids:
        transaction.on_commit(lambda: enqueue(ids), robust=True)
    return ids


def _insert_new(rows: list[OutboxEmail]) -> list[int]:
    """``INSERT ... ON CONFLICT DO NOTHING RETURNING id``: the ids of the rows actually inserted, in one query.

    ``bulk_create(ignore_conflicts=True)`` asks for no ids (Django cannot pair them with the objects when some
    are skipped), which cost a second query to find them; ``update_conflicts`` would return them but rewrite,
    and wait for, an existing row that a worker may hold locked while it talks to the mail server.
    """
    opts = OutboxEmail._meta
    fields = [f for f in opts.concrete_fields if f is not opts.pk and not f.generated]
    ids: list[int] = []
    for start in range(0, len(rows), INSERT_BATCH):
        returned = OutboxEmail.objects._insert(
            rows[start : start + INSERT_BATCH], fields=fields, returning_fields=[opts.pk],
            on_conflict=OnConflict.IGNORE,
        )
        ids += [pk for (pk,) in returned]
    return ids


def enqueue(ids: list[int]) -> None:
    """Ask the workers to deliver these rows now, a task per batch (``delivery.BATCH_SIZE`` rows).

    Losing this is harmless: the sweeper delivers pending rows.
    """
    from notifications.delivery import BATCH_SIZE
    from notifications.tasks import deliver_emails

    for start in range(0, len(ids), BATCH_SIZE):
        try:
            deliver_emails.apply_async(
                args=[ids[start : start + BATCH_SIZE]], retry=True, retry_policy=PUBLISH_RETRY_POLICY
            )
        except Exception:  # noqa: BLE001 - broker down: the rows wait in PostgreSQL for the sweeper
            # The next batches would wait for the same broker, each up to the retry policy's delays.
            logger.warning("could not queue delivery of %s outbox e-mails (ids from %s); the sweeper will send them",
                           len(ids) - start, ids[start], exc_info=True)
            return
