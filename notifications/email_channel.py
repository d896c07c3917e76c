"""The e-mail channel: ``OutboxEmail`` rows, delivered over SMTP by the workers (``notifications.delivery``).

Registered in ``NotificationsConfig.ready()`` like any other channel; the outbox knows it only by its name.
"""

from __future__ import annotations

import logging

from notifications.outbox import Draft, get_kind, queue, wants_game_mail, wants_reminders

logger = logging.getLogger(__name__)


class EmailChannel:
    """``build(row, shared=...)``: the message of a row whose kind has no ``build_email`` of its own;
    ``shared(seats_by_game)``: what the messages of one delivery batch share (``notifications.emails``)."""

    name = "email"
    quiet = True
    once_field = "turn_email_at"

    def __init__(self, *, build, shared) -> None:
        self.build, self.shared = build, shared

    def build_message(self, row, *, shared=None):
        builder = get_kind(row.kind).build_email
        return builder(row) if builder is not None else self.build(row, shared=shared)

    def queue(self, messages: list[Draft]) -> list[int]:
        """The e-mails of those messages whose recipients get that kind by e-mail at all."""
        wanted = [m for m in messages if self.wants(m)]
        ids = queue(wanted)
        for message in wanted:
            message.written.add(self.name)
        return ids

    @staticmethod
    def wants(message: Draft) -> bool:
        kind = get_kind(message.kind)
        if kind.wants_email is not None and not kind.wants_email(message.user):
            return False
        audience = kind.audience
        if audience == "account":
            return True
        user = message.user
        if audience == "game":
            return wants_game_mail(user)
        if audience == "deadline":
            return wants_reminders(user)
        return bool(user is not None and user.is_active and user.email and user.email_undeliverable_since is None)

    def enqueue(self, ids: list[int], *, countdown: float = 0) -> None:
        """A delivery task per batch (``delivery.BATCH_SIZE`` rows); a broker that is down leaves them to the
        sweeper."""
        from notifications.delivery import BATCH_SIZE
        from notifications.tasks import deliver_emails

        for start in range(0, len(ids), BATCH_SIZE):
            try:
                # retry: briefly, by the one policy of settings.CELERY_TASK_PUBLISH_RETRY_POLICY
                deliver_emails.apply_async(args=[ids[start : start + BATCH_SIZE]], retry=True,
                                           **({"countdown": countdown} if countdown > 0 else {}))
            except Exception:  # noqa: BLE001 - broker down: the rows wait in PostgreSQL for the sweeper
                # The next batches would wait for the same broker, each up to the retry policy's delays.
                logger.warning("could not queue delivery of %s outbox e-mails (ids from %s); the sweeper will send "
                               "them", len(ids) - start, ids[start], exc_info=True)
                return

    def deliver(self, ids: list[int]) -> dict:
        from notifications.delivery import deliver_many

        return deliver_many(ids)

    def sweep(self) -> dict:
        from notifications.delivery import sweep

        return sweep()
