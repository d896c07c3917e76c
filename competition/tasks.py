"""Celery tasks of leagues: thin, ids in; the services lock the league row and return early if it moved on."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def start_due_leagues() -> int:
    """Beat: start every league whose sign-ups have closed (each in its own transaction)."""
    from competition.leagues import due_league_ids

    ids = due_league_ids()
    for league_id in ids:
        start_league.delay(league_id)
    return len(ids)


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def start_league(league_id: int) -> bool:
    """Create every game of the league once; a repeat (or a second worker) does nothing."""
    from competition.leagues import start_league as start

    return start(league_id=league_id) is not None
