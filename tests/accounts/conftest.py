import pytest
from django.core.cache import cache
from django.utils import translation


@pytest.fixture(autouse=True)
def _development_like_http_and_static(settings):
    # Tests run with DEBUG off, i.e. production's HTTPS redirect; the test client speaks HTTP.
    settings.SECURE_SSL_REDIRECT = False
    # A fast hasher: the flows log in many times; the hash algorithm is not what they test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # ...and production's manifest storage needs a collectstatic the tests don't run.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _fresh_rate_limits_and_language():
    # allauth keeps its rate-limit counters in the cache; one test's failed logins
    # must not lock out the next test.
    cache.clear()
    yield
    cache.clear()
    translation.activate("en")
