"""Web Push and webhooks as channels of the outbox (``notifications.outbox.register_channel``).

Both write ``reach.models.Delivery`` rows (``reach.fanout``) for recipients who use them and want that kind
there, and share one delivery task and sweeper (``reach.tasks``). A message's ``not_before`` becomes the
delivery's delay.
"""

from __future__ import annotations

import logging

from django.utils import timezone

from reach.fanout import Event, queue_events
from reach.models import Channel

logger = logging.getLogger(__name__)


class DeliveryChannel:
    def __init__(self, transport: str) -> None:
        self.name = str(transport)
        self.transport = transport
        self.quiet = transport == Channel.PUSH  # push is for people; a webhook's program hears every event
        self.once_field = "turn_push_at"  # "once until I visit" counts pushes apart from e-mails

    def queue(self, messages: list) -> list[int]:
        """The rows of ``messages`` on this transport, in a savepoint: a failure here costs these notifications,
        never the caller's transaction."""
        now = timezone.now()
        events = [
            Event(m.user, m.kind, m.key, m.game, m.payload,
                  delay=(m.not_before - now) if m.not_before is not None and m.not_before > now else None)
            for m in messages
        ]
        try:
            ids = queue_events(events, transports=(self.transport,))
        except Exception:
            logger.exception("reach: %s deliveries of %s messages are lost", self.name, len(events))
            return []
        for message, event in zip(messages, events, strict=True):
            if event.pushed or (self.transport == Channel.WEBHOOK and ids):
                message.written.add(self.name)
        return ids

    def deliver(self, ids: list[int]) -> dict:
        from reach.delivery import deliver_many

        return deliver_many(ids)

    def sweep(self) -> dict:
        from reach.delivery import sweep

        return sweep()


def register() -> None:
    from notifications.outbox import register_channel

    register_channel(DeliveryChannel(Channel.PUSH))
    register_channel(DeliveryChannel(Channel.WEBHOOK))
