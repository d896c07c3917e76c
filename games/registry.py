"""The one registry of games: a game is a Django app whose config is a ``GameAppConfig``.

Installing the app (``games/installed.py``, or a test settings module) registers the game: its
slug and engine come from its ``engine`` module, its page code from its ``ui`` module, and what the
site says about it (names, pitch, seat colours) from the config's own attributes. The platform finds
games only here and through the engine protocol; it never imports a game module by name.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from django.apps import AppConfig, apps
from django.utils.functional import Promise
from django.utils.translation import get_language

from games import engines

if TYPE_CHECKING:
    from games.engines.base import Engine
    from games.ui.base import GameUI

# Seat colours for a game that names none (the platform's palette, in seat order).
DEFAULT_SEAT_COLOURS = ["orange", "teal", "pink", "navy", "purple", "brown"]


@dataclass(frozen=True)
class GameLength:
    """How long a game of ``players`` lasts, as measured by bot self-play (``games.engines.length``)."""

    players: int
    rounds_mean: float
    rounds_min: int
    rounds_max: int
    moves_mean: float  # moves each seat made

    @property
    def fixed_rounds(self) -> int | None:
        """The number of rounds when every measured game had the same (Mamma Mia! 3), else ``None``."""
        return self.rounds_min if self.rounds_min == self.rounds_max else None


class GameAppConfig(AppConfig):
    """Base of every game folder's app config (``<folder>/apps.py``).

    Subclass it as ``registry.GameAppConfig`` (``from games import registry``): Django picks an
    ``apps.py``'s config automatically only when it is the one ``AppConfig`` class in that module.

    The folder holds ``engine.py`` (pure: exposes ``engine``), ``ui.py`` (exposes ``ui``, a
    ``games.ui.GameUI``), ``templates/<label>/`` (``table.html``, ``moves.html``,
    ``revealed.html``, ``rules/<language>.html``), ``static/<label>/<label>.css`` and, if its rules
    page draws cards, ``rules.py`` with ``rules_context(language=...)``.
    """

    # The published name in each language; a language not listed uses "en".
    names: dict[str, str] = {}
    # The language the name is written in when it is not the reader's (``lang`` attribute); None: the reader's.
    name_language: str | None = None
    # A reading aid shown under a name written in another script (e.g. "Konamon!").
    romanized: str = ""
    tagline: Promise | str = ""
    designer: str = ""
    # CSS modifier for the game's colour accents (site.css ``.game--<theme>``).
    theme: str = ""
    facts: tuple[Promise | str, ...] = ()
    # Seat colours in seat order (players' badges and tokens).
    seat_colours: tuple[str, ...] = ()

    @cached_property
    def engine(self) -> Engine:
        return import_module(f"{self.name}.engine").engine

    @cached_property
    def ui(self) -> GameUI:
        return import_module(f"{self.name}.ui").ui

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def min_players(self) -> int:
        return int(self.engine.min_players)

    @property
    def max_players(self) -> int:
        return int(self.engine.max_players)

    @property
    def stylesheet(self) -> str:
        """The game's own stylesheet, a static path (tables, move forms and rules-page cards)."""
        return f"{self.label}/{self.label}.css"

    def display_name(self, *, language: str | None = None) -> str:
        """The game's name in ``language`` (default: the active language)."""
        language = (language or get_language() or "en").lower()
        return self.names.get(language) or self.names.get(language.split("-")[0]) or self.names.get("en") or self.slug

    def title(self, *, language: str | None = None) -> str:
        """The name in lists and titles: the published name in ``language`` (default: the active language), with
        its reading aid when it is written in another script: "こなもんっ! (Konamon!)" in English, "こなもんっ!" in
        Japanese, "マンマミーア!" in Japanese for Mamma Mia!."""
        language = (language or get_language() or "en").lower()
        name = self.display_name(language=language)
        foreign = self.name_language is not None and language.split("-")[0] != self.name_language
        return f"{name} ({self.romanized})" if foreign and self.romanized and name != self.romanized else name

    @property
    def rules_icons(self) -> str:
        """The SVG symbols the rules page's cards use (``<use href="#...">``)."""
        return f"{self.label}/rules/_icons.html"

    def rules_templates(self, *, language: str) -> list[str]:
        """The rules page in ``language``, English as the fallback."""
        return [f"{self.label}/rules/{language}.html", f"{self.label}/rules/en.html"]

    def rules_context(self, *, language: str) -> dict[str, Any]:
        """The card data the rules page draws, from the game's own data (its ``rules`` module)."""
        try:
            module = import_module(f"{self.name}.rules")
        except ModuleNotFoundError as error:
            if error.name != f"{self.name}.rules":
                raise
            return {}
        return module.rules_context(language=language)

    @cached_property
    def lengths(self) -> dict[int, GameLength]:
        """Seat count -> measured length, from the folder's ``length.json`` (``python -m games.engines.length``
        writes it); ``{}`` for a game not measured yet (the site then says nothing about its length)."""
        from games.engines.length_file import FILE_NAME, read

        stored = read(Path(self.path) / FILE_NAME) or {}
        lengths = {}
        for players, row in (stored.get("players") or {}).items():
            rounds, moves = row["rounds"], row["moves_per_seat"]
            lengths[int(players)] = GameLength(
                players=int(players),
                rounds_mean=float(rounds["mean"]),
                rounds_min=int(rounds["min"]),
                rounds_max=int(rounds["max"]),
                moves_mean=float(moves["mean"]),
            )
        return lengths

    def length(self, players: int) -> GameLength | None:
        """How long a game for ``players`` lasts, or ``None`` when not measured."""
        return self.lengths.get(players)

    @cached_property
    def tutorial(self):
        """The game's guided first game (``games.tutorial_script.Script``) from its folder's ``tutorial.json``;
        ``None`` for a game that brings none."""
        from games.tutorial_script import load

        return load(self.path)

    def forbids_memory_aids(self, options: dict[str, Any]) -> bool:
        """Whether the rules, with these options, forbid memory aids (then players get no private notes)."""
        return False

    def colours_for(self, players: int) -> list[str]:
        return list(self.seat_colours or DEFAULT_SEAT_COLOURS)[:players]


def all_games() -> list[GameAppConfig]:
    """Every installed game, in ``INSTALLED_APPS`` order."""
    return [config for config in apps.get_app_configs() if isinstance(config, GameAppConfig)]


def get_game(slug: str) -> GameAppConfig:
    """The installed game with that slug; ``KeyError`` for an unknown one."""
    for config in all_games():
        if config.slug == slug:
            return config
    raise KeyError(slug)


def game_title(slug: str) -> str:
    """The title of the game ``slug`` in the active language (``GameAppConfig.title``); the slug if unknown."""
    try:
        return get_game(slug).title()
    except KeyError:
        return slug


def tutorial_of(slug: str):
    """The tutorial script of the game ``slug``, or ``None`` (an unknown game, or one without a tutorial)."""
    try:
        return get_game(slug).tutorial
    except KeyError:
        return None


def game_slugs() -> list[str]:
    return [config.slug for config in all_games()]


def _site_engines() -> dict:
    return {game.slug: game.engine for game in all_games()}


# games.engines.get_engine serves the installed game apps once Django is ready, without importing this module.
engines.use_site_registry(_site_engines)
