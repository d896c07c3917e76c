"""Storage of playing together: chat, notes, call-off proposals, rematches, blocks and reports.

What issue 22 (ratings) and others read about a game's outcome lives on the platform's own rows:

- ``Game.status == "abandoned"``: the players called the game off (``CallOff`` tells how); no ranking,
  no stats, every ``Seat.final_rank`` empty.
- ``Seat.resigned_at``: that player resigned; the bot played on for them and the seat's
  ``final_rank`` is last (shared by every resigned seat) whatever the bot scored.
- ``Seat.dropped_out``: the bot took the seat for good without a resignation (three timeouts, a
  stalled seat handed over after 14 days, a deactivated account).

Need to know: nothing here holds anything the platform knows about the cards. A chat message or a
note is what a person typed, nothing more.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

CHAT_MAX_LENGTH = 500
NOTE_MAX_LENGTH = 5000
REPORT_DETAILS_MAX_LENGTH = 1000


class TableActivity(models.Model):
    """A counter per game, raised by everything of this app that changes what the game page shows
    besides a move (a chat message, a resignation, a call-off proposal or answer, a rematch).

    The live partial's token holds it (``games.play.selectors.poll_token``), so whatever makes an open page
    refresh brings these too; ``together.live.table_changed`` is the one place that raises it."""

    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, primary_key=True, related_name="activity")
    stamp = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("table activity")
        verbose_name_plural = _("table activities")

    def __str__(self) -> str:
        return f"{self.game_id}@{self.stamp}"


class ChatMessage(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="chat_messages")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="chat_messages"
    )
    seat_number = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    author_name = models.CharField(_("author's name"), max_length=150)  # the public name at the time
    text = models.TextField(_("text"), max_length=CHAT_MAX_LENGTH)
    created_at = models.DateTimeField(_("written"), auto_now_add=True)
    # A moderator removed it: pages say "removed by a moderator"; the text stays for the admin.
    removed_at = models.DateTimeField(_("removed"), null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")
        indexes = [
            models.Index(fields=["game", "-id"], name="together_chat_game_idx"),
            models.Index(fields=["author", "-created_at"], name="together_chat_author_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.pk} {self.author_name}: {self.text[:40]}"

    @property
    def is_removed(self) -> bool:
        return self.removed_at is not None


class SeatCorner(models.Model):
    """What belongs to one seat of one game beside the game: its private note, how far it has read
    the chat, and when it was last e-mailed about chat alone."""

    seat = models.OneToOneField("games.Seat", on_delete=models.CASCADE, primary_key=True, related_name="corner")
    note = models.TextField(_("private note"), max_length=NOTE_MAX_LENGTH, blank=True)
    note_updated_at = models.DateTimeField(_("note saved"), null=True, blank=True)
    chat_read_upto = models.BigIntegerField(_("chat read up to message"), default=0)
    chat_emailed_at = models.DateTimeField(_("last chat e-mail"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat corner")
        verbose_name_plural = _("seat corners")

    def __str__(self) -> str:
        return f"corner of seat {self.seat_id}"


class CallOff(models.Model):
    """A proposal to call a game in progress off. The game ends as abandoned when every other seated
    human has accepted, or when the proposal has stood unanswered for the game's time limit (3 days
    without one); one refusal ends the proposal."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted: the game was called off")
        LAPSED = "lapsed", _("unanswered in time: the game was called off")
        DECLINED = "declined", _("declined")
        VOID = "void", _("void: the game ended first")

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="call_offs")
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    proposer_seat = models.PositiveSmallIntegerField(_("proposed by seat"))
    accepted_seats = models.JSONField(_("seats that accepted"), default=list, blank=True)
    declined_seat = models.PositiveSmallIntegerField(_("declined by seat"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("proposed"), auto_now_add=True)
    expires_at = models.DateTimeField(_("lapses"))
    settled_at = models.DateTimeField(_("settled"), null=True, blank=True)

    class Meta:
        verbose_name = _("call-off proposal")
        verbose_name_plural = _("call-off proposals")
        constraints = [
            models.UniqueConstraint(
                fields=["game"], condition=Q(status="pending"), name="together_one_pending_calloff"
            ),
        ]
        indexes = [models.Index(fields=["expires_at"], name="together_calloff_due_idx", condition=Q(status="pending"))]

    def __str__(self) -> str:
        return f"call-off of {self.game_id} ({self.status})"


class Rematch(models.Model):
    """A finished (or abandoned) game's rematch: a new private game with the same game, options, time
    limit and bot seats, its humans invited; it starts when they have all accepted."""

    original = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rematches")
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="rematch_of")
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    created_at = models.DateTimeField(_("proposed"), auto_now_add=True)
    declined_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    declined_at = models.DateTimeField(_("declined"), null=True, blank=True)

    class Meta:
        verbose_name = _("rematch")
        verbose_name_plural = _("rematches")
        constraints = [
            models.UniqueConstraint(
                fields=["original"], condition=Q(declined_at__isnull=True), name="together_one_live_rematch"
            ),
        ]

    def __str__(self) -> str:
        return f"rematch of {self.original_id}: {self.game_id}"


class Block(models.Model):
    """``blocker`` blocked ``blocked``: private (only the blocker sees it). The blocked user can no
    longer invite the blocker or join games the blocker created; the blocker no longer sees their chat."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(_("blocked"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [models.UniqueConstraint(fields=["blocker", "blocked"], name="together_block_unique")]
        indexes = [models.Index(fields=["blocked", "blocker"], name="together_block_rev_idx")]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocks {self.blocked_id}"


class Report(models.Model):
    class Reason(models.TextChoices):
        ABUSE = "abuse", _("Insults or harassment")
        SPAM = "spam", _("Spam or advertising")
        CHEATING = "cheating", _("Cheating or sharing hidden cards")
        OTHER = "other", _("Something else")

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made")
    reported_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received", verbose_name=_("reported")
    )
    message = models.ForeignKey(
        ChatMessage, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports", verbose_name=_("message")
    )
    reason = models.CharField(_("reason"), max_length=10, choices=Reason.choices)
    details = models.TextField(_("details"), max_length=REPORT_DETAILS_MAX_LENGTH, blank=True)
    created_at = models.DateTimeField(_("reported"), auto_now_add=True)
    handled_at = models.DateTimeField(_("handled"), null=True, blank=True)
    handled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        ordering = ["handled_at", "-created_at"]
        indexes = [models.Index(fields=["reported_user", "-created_at"], name="together_report_user_idx")]

    def __str__(self) -> str:
        return f"report {self.pk} on {self.reported_user_id}"
