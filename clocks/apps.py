from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClocksConfig(AppConfig):
    name = "clocks"
    verbose_name = _("Clocks")

    def ready(self) -> None:
        from clocks import panel
        from games import panels

        panels.register(panel.panel)
