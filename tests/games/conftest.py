"""Fixtures of the platform tests: eager Celery, engines that may not have landed, game helpers."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _bots_move_at_once(eager_celery):
    """Bot tasks run at once, in the committing request."""


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"seat{n}") for n in range(5)]
