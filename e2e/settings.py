"""The site's settings for the browser tests' stack (e2e/stack.py): production's, with two things of the stack's own.

``make e2e`` runs on several processes, each with a whole stack of its own (docs/testing.md), so:

- the static files are collected into ``E2E_STATIC_ROOT`` (the stack's folder under ``var/``), not the tree's
  ``staticfiles/``: another stack's ``collectstatic`` deletes and rewrites the manifest while this one's servers
  may be reading it;
- a shared Redis cache (only when ``CACHE_URL`` names one) has this stack's keys under ``E2E_CACHE_PREFIX``: game 7
  of one stack's database is not game 7 of another's.
"""

from mammamia.settings import *  # noqa: F403
from mammamia.settings import BASE_DIR, CACHES, env

STATIC_ROOT = env.str("E2E_STATIC_ROOT", default=str(BASE_DIR / "staticfiles"))
CACHES = {"default": {**CACHES["default"], "KEY_PREFIX": env.str("E2E_CACHE_PREFIX", default="")}}
