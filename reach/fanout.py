"""From an event about a player to rows in the push/webhook outbox, inside the event's transaction.

An ``Event`` is what happened to whom (``kind``, ``user``, ``game``) and what the recipient may know
of it (``payload``: taken from their own SeatView by the receivers, never from the game's state).
``queue_events`` looks up, in one query, which recipients use push or webhooks at all, then writes a
``Delivery`` per subscribed browser and per matching webhook, and queues their delivery after commit.
Players without such channels cost nothing: ``User.uses_channels`` (the row is loaded already) says so.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.db.models.constants import OnConflict
from django.utils import timezone

from reach.flags import refresh_flags  # noqa: F401 - where callers found it before it had its own module
from reach.models import Channel, ChannelSettings, Delivery, PushSubscription, Webhook

logger = logging.getLogger(__name__)

@dataclass
class Event:
    user: Any
    kind: str
    key: str  # unique per logical event, e.g. "turn:<game>:<seat>:<version>"
    game: Any = None
    payload: dict = field(default_factory=dict)
    push: bool = True  # False: not for push this time ("once until I visit" held it back); webhooks still hear it
    delay: dt.timedelta | None = None  # deliver no sooner (chat: let a burst gather into one notification)
    pushed: bool = False  # set by ``queue_events``: a push delivery was written for it


TRANSPORTS = (Channel.PUSH, Channel.WEBHOOK)


def queue_events(events: list[Event], *, savepoint: bool = True, transports=TRANSPORTS) -> list[int]:
    """Write the deliveries of ``events`` for every channel their recipients chose (among ``transports``); the
    new rows' ids.

    ``savepoint=False``: the caller runs this in a savepoint of its own already."""
    events = [e for e in events if e.user is not None and e.user.is_active and e.user.uses_channels]
    if not events:
        return []  # nobody here uses push or webhooks: no query at all
    if not savepoint:
        return _queue(events, transports)
    with transaction.atomic():  # a failing query here must not abort the caller's transaction
        return _queue(events, transports)


def _queue(events: list[Event], transports=TRANSPORTS) -> list[int]:
    user_ids = {e.user.pk for e in events}
    prefs = {
        row.user_id: row
        for row in ChannelSettings.objects.filter(Q(has_push=True) | Q(has_webhooks=True), user_id__in=user_ids)
    }
    if not prefs:
        return []
    push_users = [uid for uid, s in prefs.items() if s.has_push] if Channel.PUSH in transports else []
    hook_users = [uid for uid, s in prefs.items() if s.has_webhooks] if Channel.WEBHOOK in transports else []
    subscriptions: dict[int, list[PushSubscription]] = {}
    for sub in PushSubscription.objects.filter(user_id__in=push_users).only("pk", "user_id") if push_users else []:
        subscriptions.setdefault(sub.user_id, []).append(sub)
    hooks: dict[int, list[Webhook]] = {}
    for hook in Webhook.objects.filter(user_id__in=hook_users, active=True).only("pk", "user_id", "kinds") \
            if hook_users else []:
        hooks.setdefault(hook.user_id, []).append(hook)
    rows = []
    for event in events:
        settings_row = prefs.get(event.user.pk)
        if settings_row is None:
            continue
        if event.push and settings_row.wants(Channel.PUSH, event.kind):
            for sub in subscriptions.get(event.user.pk, []):
                rows.append(_row(event, Channel.PUSH, f"push:{sub.pk}:{event.key}", subscription=sub))
                event.pushed = True
        for hook in hooks.get(event.user.pk, []):
            if event.kind in (hook.kinds or []):
                rows.append(_row(event, Channel.WEBHOOK, f"hook:{hook.pk}:{event.key}", webhook=hook))
    ids = _insert_new(rows)
    if ids:
        countdown = max((e.delay.total_seconds() for e in events if e.delay), default=0)
        transaction.on_commit(lambda: enqueue(ids, countdown=countdown), robust=True)
    return ids


def _row(event: Event, channel: str, key: str, **target) -> Delivery:
    now = timezone.now()
    return Delivery(
        channel=channel, user=event.user, game=event.game, kind=event.kind, dedupe_key=key[:250],
        payload=event.payload, created_at=now, next_attempt_at=now + event.delay if event.delay else now, **target,
    )


def _insert_new(rows: list[Delivery]) -> list[int]:
    """``INSERT ... ON CONFLICT DO NOTHING RETURNING id`` (as ``notifications.outbox``): an event queued twice
    is written once."""
    if not rows:
        return []
    opts = Delivery._meta
    fields = [f for f in opts.concrete_fields if f is not opts.pk and not f.generated]
    returned = Delivery.objects._insert(rows, fields=fields, returning_fields=[opts.pk], on_conflict=OnConflict.IGNORE)
    return [pk for (pk,) in returned]


def enqueue(ids: list[int], *, countdown: float = 0) -> None:
    """Ask a worker to deliver these rows now (or in ``countdown`` seconds); if the broker is down, the
    sweeper will."""
    from reach.tasks import deliver_reach

    try:
        # retry: briefly, by the one policy of settings.CELERY_TASK_PUBLISH_RETRY_POLICY
        deliver_reach.apply_async(args=[ids], countdown=countdown or None, retry=True)
    except Exception:  # noqa: BLE001 - broker down: the rows wait in PostgreSQL for the sweeper
        logger.warning("could not queue %s push/webhook deliveries; the sweeper will send them", len(ids),
                       exc_info=True)
