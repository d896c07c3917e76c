"""The games this site offers, in the order the site lists them.

Each entry is a game folder: a Django app whose ``AppConfig`` is a ``games.registry.GameAppConfig``.
Adding a game to the site is adding its folder here (``mammamia.settings`` puts these into
``INSTALLED_APPS``); nothing else lists the games. Pure Python, so ``games.engines.get_engine`` can read it without
Django (``../shared/rules/ENGINE.md``'s outside checks).
"""

GAME_APPS: tuple[str, ...] = ("mamma_mia", "konamon", "marumiere")
