"""The outbox: messages are written inside the caller's transaction and delivered after commit, per channel.

Two registries, filled by the apps that own their entries in ``AppConfig.ready()``:

- **channels** (``register_channel``): how a message leaves: e-mail (``notifications.email_channel``), Web Push
  and webhooks (``reach.channels``). A ``Channel`` writes its own rows for the messages it is given (skipping
  recipients who do not use it or turned that kind off), queues their delivery after commit, delivers rows by
  id and sweeps what is due.
- **message kinds** (``register_kind``): what a message is (your move, reminder, chat, account mail…): who may
  turn it off (its ``audience``), how its e-mail is rendered, and what makes it obsolete or fills it in at
  delivery (``prepare``: the turn is over, the reader is at the table, the chat was read).

Nothing here, nor in the delivery code, imports a channel or a kind: they are looked up by name.
``publish`` hands messages to every registered channel (or some); ``queue`` is the e-mail channel's rows alone.
"""

from __future__ import annotations

import hashlib
import logging
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Protocol
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models.constants import OnConflict

from accounts.models import NotifyMode
from notifications.claims import REQUEUE_WITHIN_SECONDS
from notifications.models import OutboxEmail

logger = logging.getLogger(__name__)

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
    # Filled in by the channels: the names of those that wrote a row for it.
    written: set = field(default_factory=set)


# The message of a channel: a Draft (who, which kind, a unique key, the game, what the recipient may know).
Message = Draft


class Channel(Protocol):
    """A way out for messages (e-mail, Web Push, webhook): its own outbox rows, delivery and sweeper."""

    name: str
    # A channel for people follows the quiet rules (hold, presence, "once until I visit"); one for programs
    # (webhooks) hears every event at once.
    quiet: bool
    # Optional, for a channel for people: the ``SeatNotice`` field holding when it last told a seat "your move"
    # ("once until I visit" counts per channel); without it, the e-mail's (``turn_email_at``).

    def queue(self, messages: list[Draft]) -> list[int]:
        """In the caller's transaction: write the rows of those messages this channel carries; their ids. Adds its
        name to ``written`` of each message it wrote a row for. Delivery is queued after commit (losing that is
        harmless: ``sweep`` finds the rows)."""

    def deliver(self, ids: list[int]) -> dict:
        """Deliver the rows among ``ids`` that are pending and due; each id's outcome."""

    def sweep(self) -> dict:
        """Deliver every pending row that is due (beat, and when a worker starts)."""


_CHANNELS: dict[str, Channel] = {}


def register_channel(channel: Channel) -> None:
    """Called in the owning app's ``ready()``; the last registration of a name wins (a test may replace one)."""
    _CHANNELS[channel.name] = channel


def unregister_channel(name: str) -> None:
    _CHANNELS.pop(name, None)


def channels() -> dict[str, Channel]:
    """Every registered channel by name."""
    return dict(_CHANNELS)


def get_channel(name: str) -> Channel:
    return _CHANNELS[name]


def publish(messages: Iterable[Draft], *, only: Iterable[str] | None = None) -> dict[str, list[int]]:
    """Hand ``messages`` to every registered channel (or those named in ``only``), in the caller's transaction;
    the ids of the rows each channel wrote."""
    messages = [m for m in messages if m.user is not None]
    names = list(_CHANNELS) if only is None else [name for name in only if name in _CHANNELS]
    return {name: (_CHANNELS[name].queue(messages) if messages else []) for name in names}


# Message kinds ------------------------------------------------------------------------------------------

# Who may stop a kind: "game" (the e-mail setting "never" stops it), "deadline" (the reminders switch), "service"
# (only an address that no longer works: a webhook turned off, a league's news) and "account" (always sent, to
# the address allauth chose).
AUDIENCES = ("game", "deadline", "service", "account")


@dataclass(frozen=True)
class MessageKind:
    name: str
    audience: str = "service"
    # E-mail: (row, context) -> notifications.emails.Rendered, the templates' context filled in; or
    # ``build_email(row) -> EmailMessage`` for a message rendered elsewhere (account mail: allauth's).
    render_email: Callable | None = None
    build_email: Callable | None = None
    # At delivery, on every channel: ``prepare(row, quiet=…)`` a reason to drop the row (the turn is over, the
    # chat was read; with ``quiet``, a channel for people: the reader is at the table), or None; it may attach
    # what the message says to the row (``row.chat``).
    prepare: Callable | None = None
    # Whether a user gets this kind by e-mail at all, beyond its audience (your move: "every time" or "once").
    wants_email: Callable | None = None


_KINDS: dict[str, MessageKind] = {}


def register_kind(kind: MessageKind) -> None:
    """Called in the owning app's ``ready()``."""
    if kind.audience not in AUDIENCES:
        raise ValueError(f"unknown audience {kind.audience!r} for message kind {kind.name!r}")
    _KINDS[kind.name] = kind


def get_kind(name: str) -> MessageKind:
    """The kind registered under ``name``; an unregistered one is a plain service message."""
    return _KINDS.get(name) or MessageKind(name)


def obsolete_reason_of(row, *, quiet: bool = True) -> str | None:
    """What the row's kind says at delivery, on any channel (``quiet``: one for people): a reason to drop it,
    or None."""
    prepare = get_kind(row.kind).prepare
    return prepare(row, quiet=quiet) if prepare is not None else None


# Preferences: functions (drafts) -> the drafts their recipients want by e-mail (reach registers the per-kind
# switches of its channels page).
_EMAIL_PREFERENCES: list[Callable[[list[Draft]], list[Draft]]] = []


def register_email_preference(keep: Callable[[list[Draft]], list[Draft]]) -> None:
    if keep not in _EMAIL_PREFERENCES:
        _EMAIL_PREFERENCES.append(keep)


def wanted_by_email(drafts: list[Draft]) -> list[Draft]:
    """The drafts whose recipients have not turned their kind off for e-mail."""
    for keep in _EMAIL_PREFERENCES:
        if not drafts:
            break
        drafts = keep(drafts)
    return drafts


def queue(drafts: list[Draft]) -> list[int]:
    """Insert outbox rows and queue their delivery after commit; the ids of the rows inserted.

    Runs in the caller's transaction: if it rolls back, the rows vanish with it.
    A key already there is left alone and not queued again: the transaction that
    wrote it queued it, and the sweeper delivers whatever that queueing lost.
    """
    drafts = wanted_by_email(drafts)
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
        # Rows all held for later (a "your move" waits TURN_NOTIFY_HOLD_SECONDS) are queued for when they are
        # due: queued now, a task found nothing due and queued itself again, one task and two queries per move
        # for nothing (issue 33). Later than the tasks' requeue horizon is the sweeper's, as it was.
        wait = _seconds_held(drafts)
        if not wait:
            transaction.on_commit(lambda: enqueue(ids), robust=True)
        elif wait <= REQUEUE_WITHIN_SECONDS:
            transaction.on_commit(lambda: enqueue(ids, countdown=wait), robust=True)
    return ids


def _seconds_held(drafts: list[Draft]) -> float:
    """How long until every one of ``drafts`` is due (0: one is due now)."""
    from django.utils import timezone

    now = timezone.now()
    if any(draft.not_before is None or draft.not_before <= now for draft in drafts):
        return 0.0
    return max((draft.not_before - now).total_seconds() for draft in drafts)


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


def enqueue(ids: list[int], *, countdown: float = 0) -> None:
    """Ask the workers to deliver these e-mail rows now, or in ``countdown`` seconds when they are held (the
    e-mail channel's tasks).

    Losing this is harmless: the sweeper delivers pending rows.
    """
    channel = _CHANNELS.get("email")
    if channel is not None:
        channel.enqueue(ids, countdown=countdown)
