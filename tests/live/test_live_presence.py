"""An open stream of a game page is the fact "at the table" (issue 34), kept in Redis with expiry."""

from __future__ import annotations

import time

from test_live_stream import Client, stream_server  # noqa: F401 - the fixture

from live import presence
from live.grants import make_grant


def test_an_open_game_stream_is_presence_until_it_closes(stream_server):  # noqa: F811
    assert not presence.stream_open(game_id=5, user_id=7)
    client = Client(stream_server, make_grant(game_id=5, user_id=7))
    assert client.wait_for(b"event: ready"), client.received
    assert presence.stream_open(game_id=5, user_id=7)
    assert not presence.stream_open(game_id=5, user_id=8), "another player's stream says nothing of this one"
    assert not presence.stream_open(game_id=6, user_id=7), "nor one of another game"
    client.close()
    deadline = time.monotonic() + 5
    while presence.stream_open(game_id=5, user_id=7):
        assert time.monotonic() < deadline, "a closed stream still counts as presence"
        time.sleep(0.05)


def test_presence_is_renewed_while_the_stream_stays_open(stream_server, settings, monkeypatch):  # noqa: F811
    monkeypatch.setattr(presence, "ttl", lambda: 1.0)  # expires a second after its last renewal
    client = Client(stream_server, make_grant(game_id=5, user_id=7))
    assert client.wait_for(b"event: ready")
    time.sleep(2.0)  # keep-alives every 0.3 s renew it
    assert client.wait_for(b": keep-alive")
    assert presence.stream_open(game_id=5, user_id=7)
    client.close()


def test_a_stream_without_a_user_or_a_game_is_nobody_at_the_table(stream_server):  # noqa: F811
    client = Client(stream_server, make_grant(game_id=5, user_id=None))
    assert client.wait_for(b"event: ready")
    assert not presence.stream_open(game_id=5, user_id=7)
    client.close()
