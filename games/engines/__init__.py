"""The engine protocol's entry point (``shared/rules/ENGINE.md``)::

    from games.engines import get_engine
    engine = get_engine("mamma-mia")

Engines live in the game folders (``<folder>/engine.py``, pure Python). Inside the site the installed
game apps are the registry (``games.registry``); outside Django (outside checks, the simulator, the
engine benchmark) the games of ``games/installed.py`` are loaded without Django.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from importlib import import_module

from .base import Engine, IllegalMove

__all__ = ["Engine", "IllegalMove", "all_engines", "engine_slugs", "get_engine"]

_site: dict[str, Engine] | None = None  # the installed game apps, once Django is ready
_site_provider: Callable[[], dict[str, Engine]] | None = None  # set by games.registry: no import back to it


def use_site_registry(provider: Callable[[], dict[str, Engine]]) -> None:
    """Inside the site, the engines are the installed game apps' (``games.registry`` calls this when it loads)."""
    global _site_provider, _site
    _site_provider, _site = provider, None
_standalone: dict[str, Engine] | None = None  # games/installed.py's, without Django


def _registered() -> dict[str, Engine]:
    """slug -> engine of the installed games, in their order."""
    global _site, _standalone
    if _site is not None:
        return _site
    # Django only when the site has loaded it: the engines and outside checks never import it.
    django_apps = sys.modules.get("django.apps")
    apps = getattr(django_apps, "apps", None)
    if apps is not None and apps.ready and _site_provider is not None:
        _site = _site_provider()
        return _site
    if _standalone is None:
        from games.installed import GAME_APPS

        engines = (import_module(f"{folder}.engine").engine for folder in GAME_APPS)
        _standalone = {engine.slug: engine for engine in engines}
    return _standalone


def get_engine(slug: str) -> Engine:
    """The engine for a game slug; ``KeyError`` for an unknown slug."""
    return _registered()[slug]


def engine_slugs() -> list[str]:
    """The slugs of every registered game, in the site's order."""
    return list(_registered())


def all_engines() -> list[Engine]:
    """Every registered engine, in the site's order."""
    return list(_registered().values())
