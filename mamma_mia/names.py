"""Translated names of Mamma Mia!'s toppings, recipe colours and special recipes.

Through ``pgettext`` with a context of the game's own, because the same English word may need
different words in other languages (a Marumiere "red" card is not a Mamma Mia! "red" recipe in
every language).
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

TOPPING_NAMES = {
    "pineapple": pgettext_lazy("mamma mia topping", "pineapple"),
    "olive": pgettext_lazy("mamma mia topping", "olive"),
    "pepper": pgettext_lazy("mamma mia topping", "pepper"),
    "mushroom": pgettext_lazy("mamma mia topping", "mushroom"),
    "salami": pgettext_lazy("mamma mia topping", "salami"),
}
RECIPE_COLOUR_NAMES = {
    "green": pgettext_lazy("mamma mia recipe colour", "green"),
    "red": pgettext_lazy("mamma mia recipe colour", "red"),
    "yellow": pgettext_lazy("mamma mia recipe colour", "yellow"),
    "purple": pgettext_lazy("mamma mia recipe colour", "purple"),
    "brown": pgettext_lazy("mamma mia recipe colour", "brown"),
}
RECIPE_SPECIAL_NAMES = {
    "bombastica": pgettext_lazy("mamma mia recipe", "Bombastica"),
    "monotoni": pgettext_lazy("mamma mia recipe", "Monotoni"),
    "minimale": pgettext_lazy("mamma mia recipe", "Minimale"),
}
