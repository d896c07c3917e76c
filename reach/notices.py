"""E-mails the channels send about themselves (through the e-mail outbox, like every e-mail)."""

from __future__ import annotations

from django.utils import timezone

from notifications.models import OutboxEmail
from notifications.outbox import Draft, queue

WEBHOOK_OFF = "webhook_off"


def tell_webhook_disabled(hook) -> None:
    """Queue "your webhook was turned off" to its owner (in the caller's transaction)."""
    user = hook.user
    if not user.is_active or not user.email:
        return
    stamp = int(timezone.now().timestamp())
    queue([Draft(user, WEBHOOK_OFF, f"webhook_off:{hook.pk}:{stamp}", None,
                 {"url": hook.url, "error": hook.last_error[:300], "failures": hook.failures})])


def render_webhook_off(row: OutboxEmail, ctx: dict):
    from django.conf import settings
    from django.urls import reverse
    from django.utils.translation import gettext as _

    from notifications.emails import Rendered

    ctx.update(url=row.payload.get("url", ""), error=row.payload.get("error", ""),
               failures=int(row.payload.get("failures") or 0),
               channels_url=settings.SITE_URL + reverse("reach:channels"))
    return Rendered(_("Your webhook was turned off"), "webhook_off", ctx)
