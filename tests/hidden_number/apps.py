from django.utils.translation import gettext_lazy as _

from games import registry


class HiddenNumberConfig(registry.GameAppConfig):
    """A game registered only by the test settings: proof that a game folder plugs in."""

    name = "tests.hidden_number"
    label = "hidden_number"
    verbose_name = "Hidden number"
    names = {"en": "Hidden number"}
    romanized = "Hidden number"
    tagline = _("Guess the other player's secret number before they guess yours.")
    theme = "hidden-number"
    facts = (_("2 players"),)
    seat_colours = ("teal", "orange")

    def ready(self) -> None:
        super().ready()
        from games import panels
        from tests.hidden_number import panel

        panels.register(panel.panel)  # a test-only panel of the table: tests/games/test_panels.py
