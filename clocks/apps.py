from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClocksConfig(AppConfig):
    # The clock arithmetic, its words and its template tags: below the core, knowing nothing of games. The clock
    # at each player's row is the core's panel (games.clock_panel); changing a person's clock settings locks
    # their games (games.clock_settings).
    name = "clocks"
    verbose_name = _("Clocks")
