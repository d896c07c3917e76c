"""The asyncio Redis client of an ASGI process's streams: one per event loop, on one bounded, blocking pool.

Every stream that opens checks its grant's revocation (``live.stream``) and records its presence
(``live.presence``), each one Redis command. A burst of openings (a deploy restart reconnects every page at
once) runs hundreds of them together: separate clients on redis-py's default pool (at most 100 connections,
then ``MaxConnectionsError``) refused 32 of 200 streams in the bench (issue 33). Here they share at most
``LIVE_REDIS_MAX_CONNECTIONS`` connections and a command waits its turn for one (each takes a fraction of a
millisecond) instead of failing.
"""

from __future__ import annotations

import asyncio
import weakref

from django.conf import settings

SOCKET_TIMEOUT_SECONDS = 2.0
# How long a command waits for a free connection of the pool before it fails (then as any Redis outage).
POOL_WAIT_SECONDS = 5.0

_clients: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def client():
    """The Redis client of the running event loop (a redis.asyncio client belongs to the loop it runs on)."""
    import redis.asyncio

    loop = asyncio.get_running_loop()
    found = _clients.get(loop)
    if found is None:
        pool = redis.asyncio.BlockingConnectionPool.from_url(
            settings.LIVE_REDIS_URL,
            max_connections=settings.LIVE_REDIS_MAX_CONNECTIONS,
            timeout=POOL_WAIT_SECONDS,
            socket_timeout=SOCKET_TIMEOUT_SECONDS,
            socket_connect_timeout=SOCKET_TIMEOUT_SECONDS,
        )
        found = _clients[loop] = redis.asyncio.Redis(connection_pool=pool)
    return found
