from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = _("Notifications")

    def ready(self) -> None:
        # Connect the receivers of the games platform's signals (games/signals.py).
        from notifications import emails, kinds, receivers  # noqa: F401
        from notifications.email_channel import EmailChannel
        from notifications.outbox import register_channel

        register_channel(EmailChannel(build=emails.build_message, shared=emails.Shared))
        kinds.register()
