"""Signed unsubscribe tokens: they name a user, need no login and do not expire (old e-mails keep working)."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

SALT = "notifications.unsubscribe"


def unsubscribe_token(user) -> str:
    return signing.dumps({"u": user.pk}, salt=SALT, compress=True)


def user_id_from_token(token: str) -> int | None:
    try:
        value = signing.loads(token, salt=SALT)
    except signing.BadSignature:
        return None
    user_id = value.get("u") if isinstance(value, dict) else None
    return user_id if isinstance(user_id, int) and not isinstance(user_id, bool) else None


def unsubscribe_url(user) -> str:
    return f"{settings.SITE_URL}{reverse('notifications:unsubscribe', args=[unsubscribe_token(user)])}"
