from django.utils.translation import gettext_lazy as _

from games import registry


class MarumiereConfig(registry.GameAppConfig):
    name = "marumiere"
    verbose_name = "マルミエール"
    names = {"en": "マルミエール", "ja": "マルミエール", "zh-hant": "マルミエール", "fr": "マルミエール"}
    name_language = "ja"
    romanized = "Marumiere"
    tagline = _(
        "A trick-taking game played face down: every card shows its colour and a shape as big "
        "as its number, yours included, but nobody sees the faces."
    )
    theme = "marumiere"
    facts = (_("bid with a card you cannot read"), _("every 5 is a trump"))
    # Not the card colours (red, blue, yellow, green), so a seat is never mistaken for a suit.
    seat_colours = ("purple", "brown", "teal", "orange")
