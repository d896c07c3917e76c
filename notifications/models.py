"""Storage of notifications: an outbox of e-mails, per-seat bookkeeping, reminders sent.

The outbox is what makes e-mail reliable. The signal receivers write one
``OutboxEmail`` row per e-mail INSIDE the transaction that made the move, so the
row exists exactly when the move does. Delivery happens later, from Celery:
``transaction.on_commit`` queues ``deliver_emails(row ids)`` and the beat-driven
sweeper delivers whatever is still pending (a queueing that was lost because
the broker or the workers were down). ``dedupe_key`` is unique: the same
logical e-mail can never be queued twice, and a row is marked sent in the
transaction that claimed it, so retries never send it twice (see
``notifications.delivery`` for the one crash window that remains).

Vacations live on the user (``User.away_until``); see ``notifications.vacations``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class OutboxEmail(models.Model):
    class Kind(models.TextChoices):
        TURN = "turn", _("your move")
        DIGEST = "digest", _("daily digest")
        REMINDER = "reminder", _("deadline reminder")
        TIMEOUT = "timeout", _("time ran out")
        INVITATION = "invitation", _("invitation")
        STARTED = "started", _("game started")
        FINISHED = "finished", _("game finished")
        CANCELLED = "cancelled", _("game cancelled")
        # Confirmation, password reset, e-mail change, sign-in code (trust.account_mail); user may be empty.
        ACCOUNT = "account", _("account e-mail")
        # Issue 17 (together.emails): chat alone ("every time" readers, once an hour per game), and
        # table news (a call-off proposed, declined or done, a rematch declined).
        CHAT = "chat", _("table chat")
        TABLE = "table", _("table news")

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        SENT = "sent", _("sent")
        # Gave up: the server refused it for good, or too many attempts failed.
        FAILED = "failed", _("failed")
        # Not sent on purpose: obsolete by the time it could go (the move was made,
        # the player unsubscribed, the address is known to bounce).
        DROPPED = "dropped", _("dropped")

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="outbox_emails"
    )
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="outbox_emails"
    )
    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    # One logical e-mail, one key: "turn:<game>:<seat>:<version>", "digest:<user>:<local date>", ...
    dedupe_key = models.CharField(_("dedupe key"), max_length=200, unique=True)
    # What the e-mail needs beyond current rows: a snapshot of the recipient's own
    # log events (need to know: from their SeatView only), the awaited move types...
    payload = models.JSONField(_("payload"), default=dict, blank=True)
    # Chosen once, so every attempt sends the same Message-ID (mail systems drop duplicates by it).
    message_id = models.CharField(_("Message-ID"), max_length=255)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), default=timezone.now)
    last_error = models.TextField(_("last error"), blank=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    sent_at = models.DateTimeField(_("sent"), null=True, blank=True)

    class Meta:
        verbose_name = _("outbox e-mail")
        verbose_name_plural = _("outbox e-mails")
        ordering = ["-created_at"]
        indexes = [
            models.Index(
                fields=["next_attempt_at"], name="notif_outbox_pending_idx", condition=Q(status="pending")
            ),
            models.Index(fields=["user", "kind", "-created_at"], name="notif_outbox_user_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user_id} ({self.status})"


class SeatNotice(models.Model):
    """Per seat: where "what happened since your last move" starts, and the "once until I visit" state."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="+")
    seat_number = models.PositiveSmallIntegerField()
    # Length of the seat's own log (SeatView.log_size) right after its last move.
    log_mark = models.PositiveIntegerField(default=0)
    # Game version right after its last move (platform events since then are news too).
    version_mark = models.PositiveIntegerField(default=0)
    # When the last "your move" e-mail for this game was queued (a channel for people without a field of its own
    # counts here too); cleared when the player moves. "Once until I visit": no new one while this is later than
    # Seat.last_visited_at.
    turn_email_at = models.DateTimeField(null=True, blank=True)
    # When the seat last moved itself (not a bot for it): a bot's answer seconds later holds the "your move"
    # e-mail of an "every time" reader a while, and drops it once their open page has shown the new position.
    moved_at = models.DateTimeField(null=True, blank=True)
    # The same for push (``reach.channels``: its ``once_field``): when the last "your move" push for this game
    # was queued; cleared when the player moves. Webhooks keep no such state: they hear every turn.
    turn_push_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("seat notification state")
        verbose_name_plural = _("seat notification states")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat_number"], name="notif_seatnotice_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.seat_number}"


class DeadlineReminder(models.Model):
    """A deadline reminder queued for one turn of one seat (each stage at most once per turn)."""

    class Stage(models.IntegerChoices):
        HALF = 1, _("half the time is gone")
        FOUR_HOURS = 2, _("4 hours left")
        ONE_HOUR = 3, _("1 hour left")

    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="deadline_reminders")
    # Identifies the turn: Seat.awaited_since when the reminder was due.
    awaited_since = models.DateTimeField()
    stage = models.PositiveSmallIntegerField(choices=Stage.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name = _("deadline reminder")
        verbose_name_plural = _("deadline reminders")
        constraints = [
            models.UniqueConstraint(fields=["seat", "awaited_since", "stage"], name="notif_reminder_unique_stage"),
        ]

    def __str__(self) -> str:
        return f"{self.seat_id}@{self.awaited_since:%Y-%m-%d %H:%M}:{self.stage}"
