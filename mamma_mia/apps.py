from django.utils.translation import gettext_lazy as _

from games import registry


class MammaMiaConfig(registry.GameAppConfig):
    name = "mamma_mia"
    verbose_name = "Mamma Mia!"
    names = {"en": "Mamma Mia!", "fr": "Mamma Mia!", "ja": "マンマミーア!", "zh-hant": "媽媽咪呀!"}
    romanized = "Mamma Mia!"
    tagline = _(
        "Throw toppings into the oven and remember what went in: when the oven opens, "
        "your pizzas bake only if their toppings are there."
    )
    designer = "Uwe Rosenberg"
    theme = "mamma-mia"
    facts = (_("3 rounds"), _("memory and bluff"))
    # The rules give each seat a recipe colour (seat 0 green, 1 red ...): the seat's colour follows it.
    seat_colours = ("green", "red", "yellow", "purple", "brown")

    def forbids_memory_aids(self, options: dict) -> bool:
        # "Strict memory" (the default): remembering the oven is the game, so no private notes.
        return (options or {}).get("memory", "strict") == "strict"
