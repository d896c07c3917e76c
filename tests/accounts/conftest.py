import pytest
from django.core.cache import cache
from django.utils import translation


@pytest.fixture(autouse=True)
def _fresh_rate_limits_and_language():
    # allauth keeps its rate-limit counters in the cache; one test's failed logins
    # must not lock out the next test.
    cache.clear()
    yield
    cache.clear()
    translation.activate("en")
