from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TogetherConfig(AppConfig):
    """Playing together (issue 17): table chat, private notes, resign, call off, rematch, block and report."""

    name = "together"
    verbose_name = _("Playing together")

    def ready(self) -> None:
        # Signal receivers (a declined rematch), and the kinds of message this app sends (chat, table news).
        from together import messages, receivers  # noqa: F401

        messages.register()
