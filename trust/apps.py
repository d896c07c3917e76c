from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TrustConfig(AppConfig):
    name = "trust"
    verbose_name = _("Trust and privacy")

    def ready(self) -> None:
        from trust import checks, receivers, schema  # noqa: F401 - registers the deploy check, receivers, schema
