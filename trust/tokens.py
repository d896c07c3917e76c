"""Per-device API tokens on django-rest-knox (``trust.ApiToken``).

- Issued only to an active account with a verified e-mail address, after the same login checks and rate limits
  as the web login (allauth's adapter: ``login`` per address, ``login_failed`` per account and address).
- Stored as a SHA-512 digest (knox); the token itself is shown once.
- Each has a name, is listed in /settings/ and can be revoked there; it lapses after ``API_TOKEN_IDLE_DAYS``
  without use (knox's ``AUTO_REFRESH`` pushes the expiry forward on use); all of a user's tokens are deleted
  when the password changes or is reset (``trust.receivers``).
"""

from __future__ import annotations

from allauth.account.models import EmailAddress
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _
from knox.auth import TokenAuthentication
from rest_framework import exceptions

from trust.models import ApiToken


class TokenRefused(Exception):
    def __init__(self, code: str, message: str, status: int) -> None:
        super().__init__(message)
        self.code, self.message, self.status = code, message, status


def has_verified_email(user) -> bool:
    return EmailAddress.objects.filter(user=user, verified=True).exists()


def issue_token(*, user, name: str) -> tuple[ApiToken, str]:
    """A new token for ``user`` (who has just proved their password or is signed in): (row, the token itself)."""
    if not user.is_active:
        raise TokenRefused("inactive", _("This account is inactive."), 403)
    if not has_verified_email(user):
        raise TokenRefused(
            "email_unverified", _("Confirm your e-mail address first: API tokens are for verified accounts."), 403
        )
    if ApiToken.objects.filter(user=user, expiry__gt=timezone.now()).count() >= settings.API_TOKENS_PER_USER:
        raise TokenRefused(
            "too_many_tokens",
            _("You have %(count)s API tokens already. Revoke one in your settings first.")
            % {"count": settings.API_TOKENS_PER_USER},
            403,
        )
    name = " ".join((name or "").split())[:60] or _("API token")
    return ApiToken.objects.create(user=user, name=name)


def user_tokens(user) -> list[ApiToken]:
    """The user's tokens still valid, newest first (expired ones are deleted on the way)."""
    now = timezone.now()
    ApiToken.objects.filter(user=user, expiry__lte=now).delete()
    return list(ApiToken.objects.filter(user=user).order_by("-created"))


def revoke_token(*, user, token_key: str) -> bool:
    """Revoke one of ``user``'s tokens by its visible prefix; whether one was."""
    deleted, _rows = ApiToken.objects.filter(user=user, token_key=token_key).delete()
    return bool(deleted)


def revoke_all(*, user) -> int:
    deleted, _rows = ApiToken.objects.filter(user=user).delete()
    return deleted


class ApiTokenAuthentication(TokenAuthentication):
    """knox's authentication, plus: a header that is not UTF-8 is a 401 (not a 500), and each use records
    ``last_used_at`` with the expiry knox pushes forward (one write a minute at most)."""

    def authenticate_credentials(self, token):
        try:
            token.decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if b"\x00" in token:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return super().authenticate_credentials(token)

    def renew_token(self, auth_token) -> None:
        previous = auth_token.expiry
        super().renew_token(auth_token)
        if auth_token.expiry != previous:
            now = timezone.now()
            ApiToken.objects.filter(pk=auth_token.pk).update(last_used_at=now)
            auth_token.last_used_at = now

    def validate_user(self, auth_token):
        if not auth_token.user.is_active:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        return auth_token.user, auth_token
