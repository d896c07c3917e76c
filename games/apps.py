from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        # The core's own panels of the table (games.panels); the feature apps register theirs in their ready().
        # The Celery tasks the services queue by name (games.play.services.BOT_TASK) exist in every process,
        # the web's too (Celery's autodiscovery imports them only in a worker).
        from games import panels, policies, tasks  # noqa: F401
        from games.lobby import panel as invitations
        from games.panels import clocks, deal_check
        from games.tutorial import panel as tutorial
        from games.tutorial.services import refuse_guests

        panels.register(invitations.panel)
        panels.register(deal_check.panel)
        panels.register(clocks.panel)
        panels.register(tutorial.panel)  # issue 27: the step box of a guided first game
        policies.register_join_veto(refuse_guests)  # a tutorial guest sits at no one else's table
