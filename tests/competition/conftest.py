"""Fixtures of the ratings and leagues tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _tasks_at_once(eager_celery):
    """Bot moves, league starts and e-mail deliveries run at once, in the committing call."""


@pytest.fixture
def people(user_factory):
    return [user_factory(username=f"rated{n}") for n in range(8)]
