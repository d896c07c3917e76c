"""Users and their preferences (profile fields live on the user row: one read per request)."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

TIME_ZONE_CHOICES = [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class NotifyMode(models.TextChoices):
    ONCE_UNTIL_VISIT = "once", _("Once, until I visit the game")
    EVERY_TIME = "every", _("Every time it is my move")
    DAILY_DIGEST = "digest", _("A daily digest")
    NEVER = "never", _("Never")


class TimeZoneSource(models.TextChoices):
    """Where an account's time zone came from: nowhere yet (the site's default), the browser, or its owner."""

    UNSET = "", _("not set yet")
    BROWSER = "browser", _("from the browser")
    CHOSEN = "chosen", _("chosen in the settings")


class ConfirmMoves(models.TextChoices):
    """Whether a one-tap move (a card, a pile, a step) asks "Send this move?" before it goes."""

    AUTO = "auto", _("On touch screens (phones, tablets), not with a mouse")
    ALWAYS = "always", pgettext_lazy("confirm one-tap moves", "Always")
    NEVER = "never", pgettext_lazy("confirm one-tap moves", "Never")


class User(AbstractUser):
    display_name = models.CharField(
        _("display name"), max_length=40, blank=True, help_text=_("Shown to other players. Defaults to your username.")
    )
    language = models.CharField(_("language"), max_length=10, choices=settings.LANGUAGES, default="en")
    time_zone = models.CharField(_("time zone"), max_length=64, choices=TIME_ZONE_CHOICES, default="UTC")
    # Until the owner chooses a zone, the browser's (Intl) is taken at sign-up or the first visit (accounts.time_zones).
    time_zone_source = models.CharField(
        _("time zone from"), max_length=8, choices=TimeZoneSource.choices, default=TimeZoneSource.UNSET, blank=True
    )
    notify_mode = models.CharField(
        _("e-mail when a game awaits me"),
        max_length=10,
        choices=NotifyMode.choices,
        default=NotifyMode.ONCE_UNTIL_VISIT,
    )
    deadline_reminders = models.BooleanField(_("deadline reminders"), default=True)
    # Issue 19: "auto" asks on a touch screen, decided by the browser ((pointer: coarse)), or without
    # JavaScript by the request's mobile hint (accounts.confirm).
    confirm_moves = models.CharField(
        _("confirm one-tap moves"), max_length=8, choices=ConfirmMoves.choices, default=ConfirmMoves.AUTO
    )
    # Issue 32: a seat whose only legal move is one plays it at once (logged as such, no e-mail); after a move
    # the page may go on by itself to the next game that awaits the player.
    play_forced_moves = models.BooleanField(_("play my only possible move for me"), default=True)
    next_game_after_move = models.BooleanField(_("go on to the next game after a move"), default=False)
    # Set by the mailer when an address fails permanently; shown on the profile.
    email_undeliverable_since = models.DateTimeField(_("e-mail undeliverable since"), null=True, blank=True)
    # Vacation: deadlines pause until this moment.
    away_until = models.DateTimeField(_("away until"), null=True, blank=True)
    # Weekdays on which this player's clocks do not run, in their time zone: bit 0 Monday ... bit 6 Sunday
    # (clocks.arithmetic.quiet_weekdays). Changed through games.clock_settings, which re-reads running clocks.
    quiet_days = models.PositiveSmallIntegerField(_("quiet days"), default=0)
    # Has push subscriptions or active webhooks (kept by reach.fanout.refresh_flags): a move looks up the
    # channels only of the players who use them, at no cost for everyone else (the user row is loaded anyway).
    uses_channels = models.BooleanField(default=False, editable=False)

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    @property
    def public_name(self) -> str:
        return self.display_name or self.username

    def is_away(self, *, now=None) -> bool:
        return self.away_until is not None and self.away_until > (now or timezone.now())

    def __str__(self) -> str:
        return self.public_name
