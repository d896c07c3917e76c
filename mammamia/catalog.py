"""The three games as the site presents them: names per language, player
counts and a one-line pitch.

Kept apart from ``games.engines`` so the home page and the rules pages render
even while an engine module is missing or broken; the engine registry, when it
answers, has the last word on player counts (see ``player_counts``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.utils.functional import Promise
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class GameInfo:
    slug: str
    # The published name in each language; a language not listed uses "en".
    names: dict[str, str]
    # A reading aid shown under a name written in another script (e.g. "Konamon!").
    romanized: str
    min_players: int
    max_players: int
    tagline: Promise
    designer: str
    # CSS modifier for the game's colour accents (see site.css .game--*).
    theme: str
    facts: tuple[Promise, ...] = field(default_factory=tuple)

    def name(self, *, language: str | None = None) -> str:
        """The game's name in ``language`` (default: the active language)."""
        language = (language or get_language() or "en").lower()
        return self.names.get(language) or self.names.get(language.split("-")[0]) or self.names["en"]


GAMES: tuple[GameInfo, ...] = (
    GameInfo(
        slug="mamma-mia",
        names={"en": "Mamma Mia!", "fr": "Mamma Mia!", "ja": "マンマミーア!", "zh-hant": "媽媽咪呀!"},
        romanized="Mamma Mia!",
        min_players=2,
        max_players=5,
        tagline=_(
            "Throw toppings into the oven and remember what went in: when the oven opens, "
            "your pizzas bake only if their toppings are there."
        ),
        designer="Uwe Rosenberg",
        theme="mamma-mia",
        facts=(_("3 rounds"), _("memory and bluff")),
    ),
    GameInfo(
        slug="konamon",
        names={"en": "こなもんっ!", "ja": "こなもんっ!", "zh-hant": "こなもんっ!", "fr": "こなもんっ!"},
        romanized="Konamon!",
        min_players=2,
        max_players=4,
        tagline=_(
            "Part-timers at an okonomiyaki, taiyaki and takoyaki stall: prep, bake and hand over "
            "snacks before the customers lose their patience."
        ),
        designer="",
        theme="konamon",
        facts=(_("simultaneous action cards"), _("18 customers")),
    ),
    GameInfo(
        slug="marumiere",
        names={"en": "マルミエール", "ja": "マルミエール", "zh-hant": "マルミエール", "fr": "マルミエール"},
        romanized="Marumiere",
        min_players=2,
        max_players=4,
        tagline=_(
            "A trick-taking game played face down: every card shows its colour and a shape as big "
            "as its number, yours included, but nobody sees the faces."
        ),
        designer="",
        theme="marumiere",
        facts=(_("bid with a card you cannot read"), _("every 5 is a trump")),
    ),
)

GAMES_BY_SLUG: dict[str, GameInfo] = {game.slug: game for game in GAMES}


def player_counts(*, slug: str) -> tuple[int, int]:
    """(min, max) players from the engine registry, or the catalog while the engine can't be loaded."""
    game = GAMES_BY_SLUG[slug]
    try:
        from games.engines import get_engine

        engine = get_engine(slug)
        return int(engine.min_players), int(engine.max_players)
    except Exception:  # noqa: BLE001 - an engine being written must never take the home page down
        logger.debug("engine %s not loadable; using catalog player counts", slug, exc_info=True)
        return game.min_players, game.max_players
