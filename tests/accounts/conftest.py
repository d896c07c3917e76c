import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    # allauth keeps its rate-limit counters in the cache; one test's failed logins
    # must not lock out the next test.
    cache.clear()
    yield
    cache.clear()
