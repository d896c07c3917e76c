from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ReachConfig(AppConfig):
    """Channels beyond e-mail: Web Push, webhooks, private feeds and moves by e-mail reply (issue 20)."""

    name = "reach"
    verbose_name = _("Channels")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from notifications import emails
        from notifications.outbox import MessageKind, register_email_preference, register_kind
        from reach import channels, notices, prefs, receivers, replies  # noqa: F401 - receivers: connects them

        channels.register()  # Web Push and webhooks
        register_email_preference(prefs.drop_unwanted_email)  # the per-kind e-mail switches of the channels page
        register_kind(MessageKind(notices.WEBHOOK_OFF, "service", render_email=notices.render_webhook_off))
        register_kind(MessageKind(replies.MOVE_REPLY, "service", render_email=replies.render_move_reply,
                                  prepare=replies.confirmation_folded))
        if replies.email_context not in emails.MOVE_REPLY_CONTEXT:
            emails.MOVE_REPLY_CONTEXT.append(replies.email_context)
