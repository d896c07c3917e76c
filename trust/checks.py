"""``manage.py check --deploy``: rate limits only hold across processes with a shared cache."""

from __future__ import annotations

from django.conf import settings
from django.core.checks import Tags, Warning, register

PER_PROCESS_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
}


@register(Tags.security, deploy=True)
def shared_cache_check(app_configs=None, **kwargs):
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    if backend in PER_PROCESS_CACHES:
        name = backend.rsplit(".", 1)[-1]
        return [
            Warning(
                f"The cache is per process ({name}): login and sign-up rate limits and API token throttling count "
                "in each web process apart, so N processes allow N times the attempts.",
                hint="Set CACHE_URL to a shared cache, e.g. redis://host:6379/1 (docs/deploying.md).",
                id="trust.W001",
            )
        ]
    return []
