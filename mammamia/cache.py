"""Django's Redis cache backend, with one Redis client per connection pool instead of one per operation.

``django.core.cache.backends.redis.RedisCacheClient.get_client`` builds a ``redis.Redis`` around the
pool for every get/set (~0.1 ms of CPU each; a game page makes two or three). A ``redis.Redis`` is
thread-safe (every command borrows a connection from the pool), so one per pool serves them all.
"""

from __future__ import annotations

from django.core.cache.backends import redis as django_redis

# Caches every web process reads and writes alike; locmem (the default) and the dummy cache are per process.
SHARED_CACHE_BACKENDS = frozenset(
    {
        "mammamia.cache.RedisCache",
        "django.core.cache.backends.redis.RedisCache",
        "django.core.cache.backends.memcached.PyMemcacheCache",
        "django.core.cache.backends.memcached.PyLibMCCache",
        "django.core.cache.backends.db.DatabaseCache",
    }
)


def session_engine_for(cache_backend: str) -> str:
    """Sessions read from the cache (the database only on a miss) when the cache is shared by every
    web process; otherwise from the database on every request: with a per-process cache, a session
    logged out (or rotated) in one process would live on in the others' caches."""
    if cache_backend in SHARED_CACHE_BACKENDS:
        return "django.contrib.sessions.backends.cached_db"
    return "django.contrib.sessions.backends.db"


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, object] = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = RedisCacheClient
