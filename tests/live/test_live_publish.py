"""What a write tells open pages: after commit only, only "game N is at version V" (need to know)."""

from __future__ import annotations

import pytest
from django.db import transaction
from game_helpers import awaited_human, start_game

from games.exceptions import BadInput
from games.lobby import services as lobby
from games.models import Seat
from games.play import services as play
from live import publish

pytestmark = pytest.mark.django_db

GAME_KEYS = {"game", "version", "token"}


def test_a_move_tells_the_game_and_each_seated_player_after_commit(players, listen, django_capture_on_commit_callbacks):
    game = start_game("konamon", players[:2])
    seat, view = awaited_human(game)
    listener = listen(f"game.{game.pk}", *(f"user.{p.pk}" for p in players[:3]))

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        play.check_play_move(
            user=seat.user, game_id=game.pk, move=view.legal_moves[0], expected_version=game.version
        )
        assert listener.events(wait=0.3) == [], "nothing is published before the move commits"
    for callback in callbacks:
        callback()

    game.refresh_from_db()
    seats = Seat.objects.filter(game=game).count()
    events = listener.events()
    assert (f"game.{game.pk}", "game", {"game": game.pk, "version": game.version,
                                       "token": f"{game.version}.active.{seats}.0"}) in events
    user_events = sorted(group for group, name, _ in events if name == "user")
    assert user_events == sorted(f"user.{p.pk}" for p in players[:2]), "the two players, not the bystander"
    for _, name, data in events:
        assert set(data) <= GAME_KEYS, f"a {name} event says which game and version only: {data}"


def test_a_refused_move_publishes_nothing(players, listen, django_capture_on_commit_callbacks):
    game = start_game("konamon", players[:2])
    seat, view = awaited_human(game)
    listener = listen(f"game.{game.pk}")
    # A version above the game's is refused as bad input (issue 16), before anything is written.
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(BadInput):
        play.check_play_move(
            user=seat.user, game_id=game.pk, move=view.legal_moves[0], expected_version=game.version + 5
        )
    assert listener.events(wait=0.3) == []


def test_joining_leaving_and_inviting_are_announced(players, listen, django_capture_on_commit_callbacks):
    creator, joiner, invitee = players[:3]
    game = lobby.create_game(user=creator, engine_slug="konamon", players=3, options={}, bots=0,
                                visibility="public", time_limit_hours=0)
    listener = listen(f"game.{game.pk}", f"user.{invitee.pk}")
    with django_capture_on_commit_callbacks(execute=True):
        lobby.join_game(user=joiner, game_id=game.pk)
    assert listener.events() == [(f"game.{game.pk}", "game", {"game": game.pk, "version": 0, "token": "0.open.2.0"})]
    with django_capture_on_commit_callbacks(execute=True):
        lobby.leave_game(user=joiner, game_id=game.pk)
    assert listener.events() == [(f"game.{game.pk}", "game", {"game": game.pk, "version": 0, "token": "0.open.1.0"})]
    with django_capture_on_commit_callbacks(execute=True):
        lobby.invite_user(user=creator, game_id=game.pk, username=invitee.username)
    assert listener.events() == [(f"user.{invitee.pk}", "user", {"game": game.pk, "version": 0})]


def test_chat_posted_says_which_game_and_message_only(listen, django_capture_on_commit_callbacks):
    listener = listen("game.41")
    with django_capture_on_commit_callbacks(execute=True):
        publish.chat_posted(game_id=41, message_id=9)
    assert listener.events() == [("game.41", "chat", {"game": 41, "message": 9})]


def test_a_redis_outage_never_fails_the_committed_write(settings, live_prefix, caplog):
    publish._client = None
    settings.LIVE_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    try:
        publish.publish_now([("game.1", "game", {"game": 1, "version": 2, "token": "2.active.2"})])
    finally:
        publish._client = None
    assert "could not publish" in caplog.text


def test_live_updates_off_publishes_nothing(settings, listen):
    listener = listen("game.5")
    settings.LIVE_UPDATES = False
    publish.publish_now([("game.5", "game", {"game": 5, "version": 1, "token": "1.active.2"})])
    assert listener.events(wait=0.3) == []


def test_a_failed_publish_never_stops_the_commits_other_callbacks(settings, live_prefix, monkeypatch, caplog,
                                                                django_capture_on_commit_callbacks):
    def broken(message):
        raise TypeError("cannot serialize")

    monkeypatch.setattr(publish, "_serialize", broken)
    ran = []
    with django_capture_on_commit_callbacks(execute=True):
        publish.chat_posted(game_id=1, message_id=2)
        transaction.on_commit(lambda: ran.append("queued after it"))
    assert ran == ["queued after it"]
    assert "could not publish" in caplog.text
