from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionConfig(AppConfig):
    name = "competition"
    verbose_name = _("Ratings and leagues")

    def ready(self) -> None:
        # Ratings and league standings follow the games platform's signals (games/signals.py);
        # league e-mails are message kinds of the outbox like every other (competition.emails).
        from competition import emails, receivers  # noqa: F401

        emails.register()
        from competition import selectors
        from games import policies

        policies.register_stats_extra(selectors.add_ratings_to_stats)
        policies.register_access_columns(selectors.access_columns)
        from competition import panel
        from games import panels

        panels.register(panel.panel)
