"""Storage of the trust app: per-device API tokens and per-link game invitations.

``ApiToken`` is django-rest-knox's token model (``KNOX_TOKEN_MODEL``): only a SHA-512 digest of the token is
stored, with a name the owner chose (which device or program holds it), when it was created and last used,
and an expiry pushed forward on use (so it lapses after ``API_TOKEN_IDLE_DAYS`` without use).

``InviteLink`` is one invitation link to a private game: each has its own random token (stored hashed), was
made by a seated player, may be revoked, and stops working when the game starts or at ``expires_at``.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken


class ApiToken(AbstractAuthToken):
    name = models.CharField(_("name"), max_length=60)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.name} ({self.token_key}…)"


class InviteLinkQuerySet(models.QuerySet):
    def usable(self, *, now=None):
        """Links that still admit someone: not revoked, not expired, their game still open."""
        from games.models import GameStatus

        now = now or timezone.now()
        return self.filter(revoked_at__isnull=True, expires_at__gt=now, game__status=GameStatus.OPEN)


class InviteLink(models.Model):
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="invite_links")
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(_("created"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)
    uses = models.PositiveIntegerField(_("uses"), default=0)

    objects = InviteLinkQuerySet.as_manager()

    class Meta:
        verbose_name = _("invitation link")
        verbose_name_plural = _("invitation links")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"link to game {self.game_id}"

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(24)


class NameSkeleton(models.Model):
    """What an account's names look like (Unicode TR 39's skeleton: ``trust.names.skeleton``), so a new display
    name is compared with every other account's in one indexed query. Kept by ``trust.receivers``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="name_skeleton"
    )
    username = models.CharField(max_length=600, db_index=True)
    display_name = models.CharField(max_length=200, blank=True, db_index=True)

    class Meta:
        verbose_name = _("name skeleton")
        verbose_name_plural = _("name skeletons")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.username} / {self.display_name}"
