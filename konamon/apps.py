from django.utils.translation import gettext_lazy as _

from games import registry


class KonamonConfig(registry.GameAppConfig):
    name = "konamon"
    verbose_name = "こなもんっ!"
    names = {"en": "こなもんっ!", "ja": "こなもんっ!", "zh-hant": "こなもんっ!", "fr": "こなもんっ!"}
    name_language = "ja"
    romanized = "Konamon!"
    tagline = _(
        "Part-timers at an okonomiyaki, taiyaki and takoyaki stall: prep, bake and hand over "
        "snacks before the customers lose their patience."
    )
    theme = "konamon"
    facts = (_("simultaneous action cards"), _("18 customers"))
    seat_colours = ("orange", "teal", "pink", "navy")
