"""A channel plugs in as one file and one registration (``logbook_channel.py``), as a game does
(``tests/hidden_number``): the outbox and the receivers know it only through the registry."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
import time_machine
from django.utils import timezone
from logbook_channel import LogbookChannel
from notify_helpers import awaited, play, start_game, visit

from clocks.arithmetic import TimeControl
from live import presence
from notifications.deadlines import check_deadlines
from notifications.outbox import channels, register_channel, unregister_channel

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site")]


@pytest.fixture
def logbook(settings):
    settings.TURN_NOTIFY_HOLD_SECONDS = 180
    channel = LogbookChannel()
    register_channel(channel)  # the one registration (an app's ready() would do it)
    yield channel
    unregister_channel(channel.name)
    assert "logbook" not in channels()


def test_a_registered_channel_hears_your_move_under_the_quiet_rules_and_drops_it_at_the_table(
    players, run_on_commit, logbook
):
    with run_on_commit():
        game = start_game("mamma-mia", players[:2])
        play(game)
    game.refresh_from_db()
    reader, _view = awaited(game)
    (row,) = [r for r in logbook.rows.values() if r.kind == "turn"]
    assert row.user == reader.user and row.payload["held"] and row.payload["version"] == game.version
    # The reader's page shows the position: the turn kind (notifications.kinds) drops it on this channel too.
    visit(reader)
    assert logbook.deliver([row.id]) == {row.id: "dropped"}
    assert row.last_error == "seen on the open page" and not logbook.delivered


def test_a_registered_channel_delivers_your_move_to_a_player_away(players, run_on_commit, logbook):
    with run_on_commit():
        game = start_game("mamma-mia", players[:2])
        play(game)
    assert logbook.sweep() == {1: "sent"}
    assert [r.kind for r in logbook.delivered] == ["turn"]


def test_a_registered_channel_hears_reminders_and_not_while_the_player_has_the_game_open(
    players, run_on_commit, logbook
):
    with run_on_commit():
        game = start_game("mamma-mia", players[:2], time_control=TimeControl.per_move(dt.timedelta(hours=6)))
    seat, _view = awaited(game)
    stream = {"game_id": game.pk, "user_id": seat.user_id, "stream_id": "test.logbook"}
    with time_machine.travel(timezone.now() + dt.timedelta(hours=3, minutes=1)):
        with run_on_commit():
            check_deadlines()
        (row,) = [r for r in logbook.rows.values() if r.kind == "reminder"]
        asyncio.run(presence.stream_seen(**stream))
        try:
            assert logbook.deliver([row.id]) == {row.id: "dropped"}
        finally:
            asyncio.run(presence.stream_closed(**stream))
