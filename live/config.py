"""The Redis server live updates use for pub/sub (read by settings; no Django here)."""

from __future__ import annotations

DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def redis_py_url(url: str) -> str:
    """A Celery/kombu or django-environ style Redis URL as redis-py spells it (the embedded Redis is
    ``redis+socket:///path``, django-environ's cache ``rediscache://``); None for other schemes."""
    if url.startswith("redis+socket://"):
        return "unix://" + url.removeprefix("redis+socket://")
    if url.startswith("rediscache://"):
        rest = url.removeprefix("rediscache://")
        if rest.startswith("/"):  # a socket path, ?db=N as django-environ writes it
            path, _, query = rest.partition("?")
            return f"unix://{path}" + (f"?{query}" if query else "")
        return "redis://" + rest
    if url.startswith(("redis://", "rediss://", "unix://")):
        return url
    return ""


def live_redis_url(configured: str, *, broker_url: str, cache_url: str) -> str:
    """LIVE_REDIS_URL if set; else the broker when it is Redis; else the cache when it is Redis; else
    Redis on localhost (a RabbitMQ broker with a per-process cache still needs a Redis for pub/sub)."""
    for candidate in (configured, broker_url, cache_url):
        url = redis_py_url(candidate or "")
        if url:
            return url
    return DEFAULT_REDIS_URL
