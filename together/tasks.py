"""Celery tasks of playing together (thin: call a service)."""

from __future__ import annotations

from celery import shared_task


@shared_task(ignore_result=True)
def settle_call_offs() -> int:
    """Beat, every 5 minutes: call-off proposals nobody declined in time end their games as abandoned."""
    from together.services import settle_lapsed_call_offs

    return settle_lapsed_call_offs()
