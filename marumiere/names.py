"""Translated names of Marumiere's colours and shapes.

Through ``pgettext`` with a context of the game's own, because the same English word may need
different words in other languages (a Marumiere "red" card is not a Mamma Mia! "red" recipe in
every language).
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

SUIT_NAMES = {
    "red": pgettext_lazy("marumiere colour", "red"),
    "blue": pgettext_lazy("marumiere colour", "blue"),
    "yellow": pgettext_lazy("marumiere colour", "yellow"),
    "green": pgettext_lazy("marumiere colour", "green"),
}
SUIT_SHAPES = {
    "red": pgettext_lazy("marumiere shape", "heart"),
    "blue": pgettext_lazy("marumiere shape", "drop"),
    "yellow": pgettext_lazy("marumiere shape", "star"),
    "green": pgettext_lazy("marumiere shape", "clover"),
}
