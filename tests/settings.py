"""The test suite's settings: the site's, plus the test-only game folder that proves a game plugs in."""

import os
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from mammamia.settings import *  # noqa: F403
from mammamia.settings import INSTALLED_APPS

INSTALLED_APPS = [*INSTALLED_APPS, "tests.hidden_number"]

# Most tests look at a notification's content and delivery right after a move; the hold of issue 34 has its own
# tests (tests/notifications/test_notify_quiet_at_the_table.py), which set it.
TURN_NOTIFY_HOLD_SECONDS = 0

# Reviews of finished games search for seconds per game: most tests finish games and look at other things; the
# review's own tests (tests/games/test_game_review.py, the leak test) turn them on with a small budget.
GAME_REVIEWS = False

# `make test` runs the suite on several processes (pytest-xdist, PYTEST_WORKERS; docs/testing.md). pytest-django
# gives each its own test database; what lives in Redis is shared by every process on the server, so each worker
# gets its own: the pub/sub channels and the presence keys of live updates under a prefix of its own (game 1 of one
# worker's database is not game 1 of another's), and a Redis cache its own database number (a test that empties
# the cache empties only its worker's). The real Celery workers and web processes an integration test starts
# inherit PYTEST_XDIST_WORKER, so they read these same settings. Run serially, nothing changes.


def xdist_worker_cache(cache: dict, worker: str) -> dict:
    """``cache`` for test worker ``worker`` (``gw0``, ``gw1``, ...): a Redis cache moves to database number
    (its own + 1 + the worker's index); any other cache is per process already."""
    if not cache["BACKEND"].endswith("RedisCache"):
        return cache
    url = urlsplit(cache["LOCATION"])
    # The database number, wherever the URL or the options say it (redis-py lets the URL's win, so it leaves it).
    query = parse_qs(url.query)
    in_query = query.pop("db", [""])[0]
    in_path = url.path.strip("/") if url.scheme in ("redis", "rediss") else ""
    base = int(cache.get("OPTIONS", {}).get("db") or in_query or in_path or 0)
    number = base + 1 + int(worker.removeprefix("gw"))
    if number > 15:
        raise ValueError(f"test worker {worker} would need Redis database {number}: run fewer (PYTEST_WORKERS)")
    location = urlunsplit((url.scheme, url.netloc, "" if in_path else url.path, urlencode(query, doseq=True), ""))
    if url.scheme == "unix":  # urlunsplit drops the empty host: unix:/path, which not every parser takes
        location = location.replace("unix:/", "unix:///", 1)
    return {**cache, "LOCATION": location, "OPTIONS": {**cache.get("OPTIONS", {}), "db": number}}


_XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if _XDIST_WORKER:
    from mammamia.settings import CACHES, CHANNEL_LAYERS, LIVE_CHANNEL_PREFIX

    LIVE_CHANNEL_PREFIX = f"{LIVE_CHANNEL_PREFIX}{_XDIST_WORKER}."
    CHANNEL_LAYERS = {"default": {**CHANNEL_LAYERS["default"]}}
    CHANNEL_LAYERS["default"]["CONFIG"] = {**CHANNEL_LAYERS["default"]["CONFIG"], "prefix": LIVE_CHANNEL_PREFIX}
    CACHES = {"default": xdist_worker_cache(CACHES["default"], _XDIST_WORKER)}
