from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReachConfig(AppConfig):
    """Channels beyond e-mail: Web Push, webhooks, private feeds and moves by e-mail reply (issue 20)."""

    name = "reach"
    verbose_name = _("Channels")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from notifications import emails
        from reach import notices, receivers, replies  # noqa: F401 - receivers: connects the signal receivers

        emails.RENDERERS.setdefault(notices.WEBHOOK_OFF, notices.render_webhook_off)
        emails.RENDERERS.setdefault(replies.MOVE_REPLY, replies.render_move_reply)
