"""The stream endpoint under a real uvicorn, fed through the real Redis by ``live.publish``."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest
import redis
import uvicorn
from django.db import connection

from live import publish
from live.grants import make_grant
from live.stream import STREAM_PATH, stream


@pytest.fixture
def stream_server(live_prefix, settings):
    """uvicorn serving the stream endpoint on a free loopback port, in a thread of this process."""
    settings.LIVE_KEEPALIVE_SECONDS = 0.3
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(stream, host="127.0.0.1", port=port, lifespan="off", log_level="warning"))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(timeout=10)


class Client:
    def __init__(self, port: int, token: str, origin: str | None = None) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        extra = f"Origin: {origin}\r\n" if origin else ""
        self.sock.sendall(f"GET {STREAM_PATH}?t={token} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
        self.received = b""

    def wait_for(self, needle: bytes, timeout: float = 3.0) -> bool:
        deadline = time.monotonic() + timeout
        while needle not in self.received:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            self.sock.settimeout(left)
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                return False
            if not chunk:
                return False
            self.received += chunk
        return True

    def close(self) -> None:
        self.sock.close()


def test_a_stream_hears_its_game_and_its_user_and_nothing_else(stream_server):
    client = Client(stream_server, make_grant(game_id=5, user_id=7))
    assert client.wait_for(b"event: ready"), client.received
    assert b"text/event-stream" in client.received and b"x-accel-buffering: no" in client.received.lower()
    publish.publish_now([
        ("game.6", "game", {"game": 6, "version": 9, "token": "9.active.2"}),
        ("user.8", "user", {"game": 6, "version": 9}),
        ("game.5", "game", {"game": 5, "version": 3, "token": "3.active.2"}),
        ("user.7", "user", {"game": 5, "version": 3}),
    ])
    assert client.wait_for(b'event: user\ndata: {"game":5,"version":3}\n\n')
    assert b'event: game\ndata: {"game":5,"version":3,"token":"3.active.2"}\n\n' in client.received
    assert b'"game":6' not in client.received, "another game's events never reach this stream"
    client.close()


def test_an_idle_stream_gets_keep_alive_comments(stream_server):
    client = Client(stream_server, make_grant(game_id=5, user_id=None))
    assert client.wait_for(b"event: ready")
    assert client.wait_for(b": keep-alive\n\n", timeout=2)
    client.close()


def test_a_bad_or_missing_grant_is_refused(stream_server):
    for token in ("", "forged:token:x", make_grant(game_id=5, user_id=7)[:-3]):
        client = Client(stream_server, token)
        assert client.wait_for(b"HTTP/1.1 403"), client.received
        client.close()


def test_a_closed_stream_leaves_its_channels(stream_server, settings, live_prefix):
    client = Client(stream_server, make_grant(game_id=77, user_id=78))
    assert client.wait_for(b"event: ready")
    subscribers = redis.Redis.from_url(settings.LIVE_REDIS_URL)
    channels = [f"{live_prefix}__group__game.77", f"{live_prefix}__group__user.78"]
    assert [n for _, n in subscribers.pubsub_numsub(*channels)] == [1, 1]
    client.close()
    deadline = time.monotonic() + 5
    while [n for _, n in subscribers.pubsub_numsub(*channels)] != [0, 0]:
        assert time.monotonic() < deadline, "the stream's subscriptions outlived it"
        time.sleep(0.05)
    subscribers.close()


@pytest.mark.django_db
def test_idle_streams_hold_no_database_connection(stream_server):
    def backends() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
            return cursor.fetchone()[0]

    before = backends()
    clients = [Client(stream_server, make_grant(game_id=100 + n, user_id=200 + n)) for n in range(20)]
    assert all(c.wait_for(b": keep-alive") for c in clients), "every stream is up and idling"
    publish.publish_now([("game.101", "game", {"game": 101, "version": 1, "token": "1.active.2"})])
    assert clients[1].wait_for(b'"game":101')
    assert backends() == before
    for c in clients:
        c.close()


def test_a_deleted_accounts_streams_end_at_once_and_its_grants_open_none_again(stream_server):
    """Issue 29 item 1: the grants in a deleted account's open pages are signed for a week; deletion ends
    their streams at once and every later connection with them is refused (a spectator's grant still works)."""
    mine = make_grant(game_id=5, user_id=7)
    client = Client(stream_server, mine)
    spectator = Client(stream_server, make_grant(game_id=5, user_id=None))
    assert client.wait_for(b"event: ready") and spectator.wait_for(b"event: ready")
    publish.revoke_user(7)
    assert client.wait_for(b"0\r\n\r\n"), client.received  # the chunked body ends: the stream is over
    publish.publish_now([("game.5", "game", {"game": 5, "version": 4, "token": "4.active.2"})])
    assert spectator.wait_for(b'"version":4')
    assert b'"version":4' not in client.received
    again = Client(stream_server, mine)
    assert again.wait_for(b"403"), again.received
    assert b"event: ready" not in again.received
    for each in (client, spectator, again):
        each.close()


def test_a_stream_on_an_address_of_its_own_answers_the_sites_pages_and_no_other_origin(stream_server, settings):
    """The pages on a WSGI server and the streams on the ASGI one at another address (``LIVE_STREAM_URL``, issue
    33): the site's own pages may read the stream across origins, another site's may not."""
    settings.SITE_URL = "http://127.0.0.1:8000"
    settings.LIVE_STREAM_URL = f"http://127.0.0.1:{stream_server}/live/stream/"
    ours = Client(stream_server, make_grant(game_id=5, user_id=7), origin="http://127.0.0.1:8000")
    theirs = Client(stream_server, make_grant(game_id=5, user_id=7), origin="http://evil.example")
    assert ours.wait_for(b"event: ready") and theirs.wait_for(b"event: ready")
    assert b"access-control-allow-origin: http://127.0.0.1:8000" in ours.received.lower()
    assert b"access-control-allow-origin" not in theirs.received.lower()
    ours.close()
    theirs.close()


def test_a_stream_on_the_sites_own_address_sends_no_cross_origin_header(stream_server):
    client = Client(stream_server, make_grant(game_id=5, user_id=7), origin="http://127.0.0.1:8000")
    assert client.wait_for(b"event: ready")
    assert b"access-control-allow-origin" not in client.received.lower()
    client.close()


def test_a_burst_of_streams_opens_every_one_and_records_every_presence(stream_server, settings):
    """Issue 33: 200 pages opening their streams at once (a deploy restart reconnects every page) all get their
    stream and count as at the table. Each opening checks the grant's revocation and records its presence in
    Redis; per-loop clients with redis-py's default pool refused the 101st concurrent command
    (``MaxConnectionsError``), and 32 of 200 streams got a 503 in the bench. They share one bounded pool now and
    wait for a connection instead."""
    clients = [Client(stream_server, make_grant(game_id=500 + n, user_id=900 + n)) for n in range(200)]
    opened = [c.wait_for(b"event: ready", timeout=20) for c in clients]
    refused = [c.received.split(b"\r\n", 1)[0] for c, ok in zip(clients, opened, strict=True) if not ok]
    assert not refused, f"{len(refused)} of 200 streams refused: {refused[:3]}"
    from live import presence

    assert all(presence.stream_open(game_id=500 + n, user_id=900 + n) for n in range(200)), "every stream counts"
    for c in clients:
        c.close()
