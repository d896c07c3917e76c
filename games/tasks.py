"""Celery tasks of the games app.

Each task takes ids, loads fresh rows through a service and returns early when
the game has moved on; retries live here, the work in games.play.services.
"""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import OperationalError

logger = logging.getLogger(__name__)


# --- Bot moves (platform, issue 6) -----------------------------------------------


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def play_bot_moves(self, game_id: int, version: int | None = None) -> int:
    """Play the moves of awaited bot seats of ``game_id`` if it is still at ``version``."""
    from games.play.services import play_bot_turns

    played = play_bot_turns(game_id=game_id, expected_version=version)
    logger.debug("game %s: %s bot move(s) played", game_id, played)
    return played


# --- Notifications, reminders and deadlines (issue 7) go below. ----------------------


# --- Tutorials (issue 27) -------------------------------------------------------------


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3, time_limit=600)
def sweep_tutorials() -> tuple[int, int]:
    """Delete old tutorials and guests (``games.tutorial.services.sweep``)."""
    from games.tutorial.services import sweep

    games, guests = sweep()
    logger.info("tutorial sweep: %s game(s), %s guest(s) deleted", games, guests)
    return games, guests
