"""Sessions come from the cache only when every web process shares it; the Redis cache reuses its client."""

from __future__ import annotations

from mammamia.cache import RedisCacheClient, session_engine_for


def test_sessions_are_cached_only_in_a_cache_every_process_shares():
    assert session_engine_for("mammamia.cache.RedisCache") == "django.contrib.sessions.backends.cached_db"
    assert (
        session_engine_for("django.core.cache.backends.memcached.PyMemcacheCache")
        == "django.contrib.sessions.backends.cached_db"
    )
    assert session_engine_for("django.core.cache.backends.locmem.LocMemCache") == "django.contrib.sessions.backends.db"
    assert session_engine_for("django.core.cache.backends.dummy.DummyCache") == "django.contrib.sessions.backends.db"


def test_the_redis_cache_builds_one_client_per_server_not_per_operation():
    cache = RedisCacheClient(["redis://127.0.0.1:6379/10"])  # no connection is opened by building clients
    assert cache.get_client("a") is cache.get_client("b", write=True)
