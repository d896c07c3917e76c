"""Fixtures of the live-update tests: a pub/sub prefix of the test's own on the real Redis, and a
listener subscribed to the channels the stream's channel layer uses."""

from __future__ import annotations

import json
import sys
import time
import uuid
from pathlib import Path

import pytest
import redis
from channels.layers import get_channel_layer


@pytest.fixture
def live_prefix(settings):
    """Channel names no other run on this Redis server shares."""
    prefix = f"test.{uuid.uuid4().hex[:12]}."
    settings.LIVE_CHANNEL_PREFIX = prefix
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": settings.LIVE_REDIS_URL}], "prefix": prefix},
        }
    }
    return prefix


class Listener:
    """A plain Redis subscriber on the groups' channels, decoding what the stream would receive."""

    def __init__(self, url: str, prefix: str, groups: list[str]) -> None:
        self.client = redis.Redis.from_url(url)
        self.pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        self.channels = {f"{prefix}__group__{group}": group for group in groups}
        self.pubsub.subscribe(*self.channels)

    def events(self, *, wait: float = 1.0) -> list[tuple[str, str, dict]]:
        """(group, event, data) of every message arriving within ``wait`` seconds."""
        layer = get_channel_layer()
        got = []
        deadline = time.monotonic() + wait
        while (left := deadline - time.monotonic()) > 0:
            message = self.pubsub.get_message(timeout=left)
            if message is None:
                continue
            decoded = layer.deserialize(message["data"])
            got.append((self.channels[message["channel"].decode()], decoded["event"], json.loads(decoded["data"])))
        return got

    def close(self) -> None:
        self.pubsub.close()
        self.client.close()


@pytest.fixture
def listen(settings, live_prefix):
    listeners = []

    def make(*groups: str) -> Listener:
        listener = Listener(settings.LIVE_REDIS_URL, live_prefix, list(groups))
        listeners.append(listener)
        return listener

    yield make
    for listener in listeners:
        listener.close()


# The platform tests' helpers (start_game, awaited_human) live beside them.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "games"))


@pytest.fixture(autouse=True)
def _tasks_at_once(eager_celery):
    """Turn e-mails and bot moves run inline, as in the platform tests."""


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"live{n}") for n in range(4)]
