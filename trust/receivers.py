"""Signal receivers of the trust app."""

from __future__ import annotations

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="trust.revoke_tokens_on_password_change")
def revoke_tokens_on_password_change(sender, instance, created, **kwargs) -> None:
    """Every API token dies with the password it was issued against: changed, reset, set by an admin or by
    ``manage.py changepassword`` (``set_password`` keeps the new raw password on ``_password`` until the
    save that stores it)."""
    if created or getattr(instance, "_password", None) is None:
        return
    from trust.tokens import revoke_all

    revoke_all(user=instance)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="trust.keep_name_skeletons")
def keep_name_skeletons(sender, instance, created, update_fields=None, raw=False, **kwargs) -> None:
    """What the account's names look like (``trust.names``), kept whenever a save may have changed them."""
    if raw or (update_fields is not None and not {"username", "display_name"} & set(update_fields)):
        return
    from trust.names import keep_skeletons

    keep_skeletons(instance)
