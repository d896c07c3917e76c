"""Whether a user has any push subscription or active webhook: kept on the user so a move looks nothing up."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from reach.models import ChannelSettings, PushSubscription, Webhook


def refresh_flags(user_id: int) -> None:
    """Recompute whether the user has push subscriptions / active webhooks (after any change to them)."""
    settings_row, _ = ChannelSettings.objects.get_or_create(user_id=user_id)
    settings_row.has_push = PushSubscription.objects.filter(user_id=user_id).exists()
    settings_row.has_webhooks = Webhook.objects.filter(user_id=user_id, active=True).exists()
    settings_row.save(update_fields=["has_push", "has_webhooks"])
    get_user_model().objects.filter(pk=user_id).update(
        uses_channels=settings_row.has_push or settings_row.has_webhooks
    )
