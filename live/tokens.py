"""The page token: what an open game page holds and what the live partial and the streams compare.

Here, below the platform core, so that both the core (``games.play.selectors.page_token``, ``poll_token``) and
the publisher (``live.publish``) make it the same way without ``live`` importing the core.
"""

from __future__ import annotations


def page_token(*, version: int, status: str, seat_count: int, activity: int = 0) -> str:
    """Changes with every move, the start/end, each join or leave, and the table's activity (a chat message,
    a resignation, a call-off, a rematch: ``games.policies`` activity stamps)."""
    return f"{version}.{status}.{seat_count}.{activity}"
