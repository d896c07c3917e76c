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

from accounts.models import NotifyMode
from notifications.models import OutboxEmail

logger = logging.getLogger(__name__)

# Publishing to a broker that is down must not hold a player's request for long:
# the row is in PostgreSQL already and the sweeper will deliver it.
PUBLISH_RETRY_POLICY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.5}


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


def queue(drafts: list[Draft]) -> list[int]:
    """Insert outbox rows (a key already there is left alone) and queue their delivery after commit.

    Runs in the caller's transaction: if it rolls back, the rows vanish with it.
    Returns the ids of the pending rows for these keys.
    """
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
        )
        for draft in drafts
    ]
    OutboxEmail.objects.bulk_create(rows, ignore_conflicts=True)
    ids = list(
        OutboxEmail.objects.filter(
            dedupe_key__in=[draft.key for draft in drafts], status=OutboxEmail.Status.PENDING
        ).values_list("id", flat=True)
    )
    if ids:
        transaction.on_commit(lambda: enqueue(ids), robust=True)
    return ids


def enqueue(ids: list[int]) -> None:
    """Ask the workers to deliver these rows now. Losing this is harmless: the sweeper delivers pending rows."""
    from notifications.tasks import deliver_email

    for email_id in ids:
        try:
            deliver_email.apply_async(args=[email_id], retry=True, retry_policy=PUBLISH_RETRY_POLICY)
        except Exception:  # noqa: BLE001 - broker down: the row waits in PostgreSQL for the sweeper
            logger.warning("could not queue delivery of outbox e-mail %s; the sweeper will send it", email_id,
                           exc_info=True)
