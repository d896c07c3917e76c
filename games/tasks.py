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


# A strong bot thinks up to ~1 s of CPU per move (BOT_STRONG_ITERATIONS), outside the game's lock; a task
# plays at most BOT_MOVES_PER_TASK moves. Past the soft limit the task stops between moves (nothing is held
# while thinking) and the stalled-bot sweep (notifications.deadlines, every minute) queues the rest.
BOT_TASK_SOFT_TIME_LIMIT = 240
BOT_TASK_TIME_LIMIT = 270


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
    soft_time_limit=BOT_TASK_SOFT_TIME_LIMIT,
    time_limit=BOT_TASK_TIME_LIMIT,
)
def play_bot_moves(self, game_id: int, version: int | None = None) -> int:
    """Play the moves of awaited bot seats of ``game_id`` at their levels if it is still at ``version``."""
    from games.play.services import play_bot_turns

    played = play_bot_turns(game_id=game_id, expected_version=version)
    logger.debug("game %s: %s bot move(s) played", game_id, played)
    return played


# --- Reviews of finished games (issue 28) -------------------------------------------


@shared_task(
    bind=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_backoff_max=300,
    max_retries=3,
    soft_time_limit=600,
    time_limit=660,
    ignore_result=True,
)
def review_finished_game(self, game_id: int) -> int:
    """Review the people's decisions of finished game ``game_id`` (the ``slow`` queue; games.history.review)."""
    from games.history.review import review_game

    written = review_game(game_id=game_id)
    logger.info("game %s: %s review(s) written", game_id, written)
    return written


# --- Notifications, reminders and deadlines (issue 7) go below. ----------------------


# --- Tutorials (issue 27) -------------------------------------------------------------


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=3, time_limit=600)
def sweep_tutorials() -> tuple[int, int]:
    """Delete old tutorials and guests (``games.tutorial.services.sweep``)."""
    from games.tutorial.services import sweep

    games, guests = sweep()
    logger.info("tutorial sweep: %s game(s), %s guest(s) deleted", games, guests)
    return games, guests


# --- Seated games whose deal waits for their players' contributions (issue 30) ------------


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5, soft_time_limit=240, time_limit=300)
def draw_due_contributions() -> int:
    """Beat: each seated game past its deadline gets the missing contributions drawn and starts (one task each)."""
    from games.lobby.seated import due_game_ids

    ids = due_game_ids()
    for game_id in ids:
        draw_missing_contributions.delay(game_id)
    return len(ids)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5, soft_time_limit=240, time_limit=300)
def draw_missing_contributions(game_id: int) -> bool:
    """Draw what ``game_id`` misses and start it, if it is still waiting and due (``games.lobby.seated``)."""
    from games.lobby.seated import draw_missing

    return draw_missing(game_id=game_id)
