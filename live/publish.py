"""What writes call to tell open pages that something changed: always after commit, from any process.

Events say only *that* something changed, never what (need to know): a page hearing one fetches
its own partial, built from its own view, as it did when it polled.

- ``game``  on ``game.<id>``: ``{"game": id, "version": V, "token": "V.status.seats"}`` (the token
  is the live partial's ``?v=``: it also changes when someone joins or leaves before the start);
- ``user``  on ``user.<id>``: ``{"game": id, "version": V}``: one of the user's games (or an
  invitation) changed, so "My games" and the header's count may have;
- ``chat``  on ``game.<id>``: ``{"game": id, "message": id}``: for the chat (issue 17), through
  ``chat_posted``.

Publishing is one pipelined Redis round trip (PUBLISH per channel) on ``settings.LIVE_REDIS_URL``,
in the format of the channel layer the stream listens on (channels_redis' pub/sub layer). A Redis
failure is logged and swallowed: the move has committed, and pages catch up when their stream
reconnects (each reconnect checks the version) or by polling.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Iterable

import redis
from django.conf import settings
from django.db import transaction

from live.grants import game_group, user_group
from live.tokens import page_token

logger = logging.getLogger(__name__)

_client: redis.Redis | None = None
_client_lock = threading.Lock()


def _redis() -> redis.Redis:
    global _client
    if _client is None:
        with _client_lock:
            if _client is None:
                _client = redis.Redis.from_url(
                    settings.LIVE_REDIS_URL, socket_timeout=2, socket_connect_timeout=2, health_check_interval=30
                )
    return _client


def _layer_channel(group: str) -> str:
    """The Redis channel channels_redis' RedisPubSubChannelLayer subscribes for ``group``
    (tests/live/test_stream.py proves a real stream hears what we publish here)."""
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"].get("prefix", "asgi")
    return f"{prefix}__group__{group}"


def _serialize(message: dict) -> bytes:
    from channels.layers import get_channel_layer

    return get_channel_layer().serialize(message)


def publish_now(events: Iterable[tuple[str, str, dict]]) -> None:
    """Publish ``(group, event name, data)`` triples at once (one round trip)."""
    events = list(events)
    if not events or not settings.LIVE_UPDATES:
        return
    try:
        pipe = _redis().pipeline(transaction=False)
        for group, name, data in events:
            message = {"type": "live.event", "event": name, "data": json.dumps(data, separators=(",", ":"))}
            pipe.publish(_layer_channel(group), _serialize(message))
        pipe.execute()
    except Exception:  # noqa: BLE001 - never let a failed publish skip the commit's other on_commit work
        # (the bot task, e-mail delivery queued after it): pages catch up on their next reconnect or poll.
        logger.warning("live updates: could not publish %d event(s)", len(events), exc_info=True)


def publish_on_commit(events: Iterable[tuple[str, str, dict]]) -> None:
    events = list(events)
    transaction.on_commit(lambda: publish_now(events))


def game_changed(*, game, seats) -> None:
    """``game`` (as just saved, with ``seats``: every seat now at the table) changed: its version, its
    status or who sits there. Tells the game's viewers and each seated person's other pages."""
    token = page_token(version=game.version, status=game.status, seat_count=len(seats))
    data = {"game": game.pk, "version": game.version, "token": token}
    users = sorted({seat.user_id for seat in seats if seat.user_id is not None and not seat.is_bot})
    publish_on_commit(
        [(game_group(game.pk), "game", data)]
        + [(user_group(user_id), "user", {"game": game.pk, "version": game.version}) for user_id in users]
    )


def users_changed(*, user_ids: Iterable[int], game) -> None:
    """Something of ``game`` concerning these users changed without the table changing (an invitation,
    a seat given up): their "My games" and header count may differ."""
    data = {"game": game.pk, "version": game.version}
    publish_on_commit([(user_group(user_id), "user", data) for user_id in sorted(set(user_ids))])


def chat_posted(*, game_id: int, message_id: int) -> None:
    """A chat message was posted at game ``game_id``: every open page of it fetches its own chat
    partial (the message itself never goes on the stream). Call inside the transaction that saved it."""
    publish_on_commit([(game_group(game_id), "chat", {"game": game_id, "message": message_id})])


def table_activity(*, game_id: int, stamp: int, reason: str, **_signal) -> None:
    """Receiver of ``together.live.table_activity`` (sent after the commit of a chat message, a resignation,
    a call-off or a rematch): the game's open pages fetch their own partial, which brings the chat."""
    publish_now([(game_group(game_id), "game", {"game": game_id, "activity": stamp})])
