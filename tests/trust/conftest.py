"""Fixtures of the trust tests: the platform tests' game helpers, eager Celery, fresh rate limits."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from django.core.cache import cache

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "games"))


@pytest.fixture(autouse=True)
def _bots_move_at_once_and_fresh_rate_limits(eager_celery):
    """Bot tasks run at once; allauth's counters (in the cache) start from zero in every test."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"seat{n}") for n in range(5)]
