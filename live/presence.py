"""Who has a live stream of which game open right now: a fact kept in Redis, shared by every process and host.

"At the table" (issue 34) is evidence, never a guess: a page of the game has shown the player this position
(``Seat.last_seen_version``), or a live stream of that game is open in their browser. The second fact lives
here. Each open stream of a game page (its grant names a game and a user) is a member of a sorted set per
(game, user) in the live updates' Redis (``LIVE_REDIS_URL``), scored by when it expires; the stream renews it
while it runs (at most every ``LIVE_KEEPALIVE_SECONDS``) and removes it when it ends. A web process that dies
leaves members that expire by themselves after ``ttl()`` seconds. Nothing is kept in one process's memory, so
the worker that decides whether to send "your move" sees the stream another web process holds.

Failures are quiet and lean towards "not at the table": a notification sent to someone who was there costs
less than one never sent.
"""

from __future__ import annotations

import asyncio
import logging
import time
from functools import cache

from django.conf import settings

from live import aioredis

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 1.0  # a presence write or read never holds a stream or a delivery longer than this


def ttl() -> float:
    """How long a stream counts as open after its last renewal: a few keep-alive periods."""
    return max(30.0, 3 * float(settings.LIVE_KEEPALIVE_SECONDS))


def key(game_id: int, user_id: int) -> str:
    return f"{settings.LIVE_CHANNEL_PREFIX}presence:{game_id}:{user_id}"


@cache
def _client():
    import redis

    return redis.Redis.from_url(
        settings.LIVE_REDIS_URL, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS
    )


async def stream_seen(*, game_id: int, user_id: int, stream_id: str) -> None:
    """The stream ``stream_id`` of ``user_id``'s page of ``game_id`` is open now (called on opening and renewing)."""
    name, now = key(game_id, user_id), time.time()
    try:
        async with aioredis.client().pipeline(transaction=False) as pipe:
            pipe.zadd(name, {stream_id: now + ttl()})
            pipe.zremrangebyscore(name, "-inf", now)
            pipe.expire(name, int(ttl()) + 1)
            await asyncio.wait_for(pipe.execute(), TIMEOUT_SECONDS)
    except Exception:  # noqa: BLE001 - the stream works without it; notifications then assume "away"
        logger.warning("live presence: could not record stream %s of game %s", stream_id, game_id, exc_info=True)


async def stream_closed(*, game_id: int, user_id: int, stream_id: str) -> None:
    try:
        await asyncio.wait_for(aioredis.client().zrem(key(game_id, user_id), stream_id), TIMEOUT_SECONDS)
    except Exception:  # noqa: BLE001 - it expires by itself
        logger.warning("live presence: could not remove stream %s of game %s", stream_id, game_id, exc_info=True)


def stream_open(*, game_id: int, user_id: int) -> bool:
    """Whether ``user_id`` has a live stream of ``game_id`` open now (in any process, on any host)."""
    try:
        return bool(_client().zcount(key(game_id, user_id), time.time(), "+inf"))
    except Exception:  # noqa: BLE001 - unknown: not at the table (a notification is never lost to an outage)
        logger.warning("live presence: could not read game %s user %s", game_id, user_id, exc_info=True)
        return False
