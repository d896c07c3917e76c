"""Translated names of Konamon!'s products, processes and boards.

Through ``pgettext`` with a context of the game's own, because the same English word may need
different words in other languages (a Marumiere "red" card is not a Mamma Mia! "red" recipe in
every language).
"""

from __future__ import annotations

from django.utils.translation import pgettext_lazy

PRODUCT_NAMES = {
    "okonomiyaki": pgettext_lazy("konamon product", "okonomiyaki"),
    "taiyaki": pgettext_lazy("konamon product", "taiyaki"),
    "takoyaki": pgettext_lazy("konamon product", "takoyaki"),
}
PROCESS_NAMES = {
    "prep": pgettext_lazy("konamon process", "prep"),
    "bake": pgettext_lazy("konamon process", "bake"),
    "hand_over": pgettext_lazy("konamon process", "hand over"),
}
BOARD_NAMES = {
    "cooking": pgettext_lazy("konamon board", "Cooking board"),
    "stove": pgettext_lazy("konamon board", "Stove"),
    "showcase": pgettext_lazy("konamon board", "Hot showcase"),
}
