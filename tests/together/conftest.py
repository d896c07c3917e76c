"""Fixtures of the playing-together tests: eager Celery (bots move at once), players, the platform's helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The platform tests' helpers (start_game, awaited_human), shared rather than copied.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "games"))


@pytest.fixture(autouse=True)
def _bots_move_at_once(eager_celery):
    """Bot tasks run at once, in the committing call."""


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"table{n}") for n in range(4)]
