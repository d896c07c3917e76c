"""Pure rules engines, one module per game, all speaking the protocol of
``shared/rules/ENGINE.md``.

Nothing in this package imports Django, touches a database, reads the clock or
uses global randomness: the web platform knows games only through this
protocol, so a new game is one new module plus its templates.
"""

from __future__ import annotations

import importlib

from .base import Engine, IllegalMove

__all__ = ["ENGINE_MODULES", "Engine", "IllegalMove", "all_engines", "get_engine"]

# slug -> module under games.engines; each module exposes ``engine``.
ENGINE_MODULES: dict[str, str] = {
    "mamma-mia": "mamma_mia",
    "konamon": "konamon",
    "marumiere": "marumiere",
}

_loaded: dict[str, Engine] = {}


def get_engine(slug: str) -> Engine:
    """The engine for a game slug; ``KeyError`` for an unknown slug."""
    if slug not in _loaded:
        module_name = ENGINE_MODULES[slug]
        module = importlib.import_module(f"{__name__}.{module_name}")
        _loaded[slug] = module.engine
    return _loaded[slug]


def all_engines() -> list[Engine]:
    """Every registered engine, in the order of ``ENGINE_MODULES``."""
    return [get_engine(slug) for slug in ENGINE_MODULES]
