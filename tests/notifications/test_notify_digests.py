"""The daily digest: once a day from 08:00 in the user's zone, listing every game awaiting them."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from notify_helpers import play, start_game

from accounts.models import NotifyMode
from games.models import Seat
from notifications.deadlines import send_due_digests
from notifications.models import OutboxEmail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]

DAY = dt.datetime(2030, 3, 1, tzinfo=dt.UTC)


def at(moment):
    return time_machine.travel(moment, tick=False)


def digests(user=None):
    rows = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.DIGEST)
    return rows.filter(user=user) if user is not None else rows


def awaiting_game(digest_user, other):
    """A game that awaits ``digest_user``."""
    game = start_game("mamma-mia", [digest_user, other])
    if not Seat.objects.filter(game=game, user=digest_user, awaited=True).exists():
        play(game)
    assert Seat.objects.filter(game=game, user=digest_user, awaited=True).exists()
    return game


@pytest.fixture
def tokyo(players):
    user = players[0]
    user.notify_mode, user.time_zone = NotifyMode.DAILY_DIGEST, "Asia/Tokyo"
    user.save()
    return user


def test_the_digest_goes_at_8_in_the_users_zone_once_a_day_and_lists_every_awaiting_game(
    tokyo, players, scripted_mailer, run_on_commit
):
    with at(DAY - dt.timedelta(hours=20)):
        games = [awaiting_game(tokyo, players[1]), awaiting_game(tokyo, players[2])]
    # 22:45 UTC is 07:45 in Tokyo: too early.
    with at(DAY - dt.timedelta(minutes=75)):
        assert send_due_digests() == 0
    # 23:00 UTC is 08:00 in Tokyo.
    with at(DAY - dt.timedelta(minutes=60)), run_on_commit():
        assert send_due_digests() == 1
    with at(DAY - dt.timedelta(minutes=45)):
        assert send_due_digests() == 0
    with at(DAY + dt.timedelta(hours=10)):  # 19:00 in Tokyo, same local day
        assert send_due_digests() == 0
    row = digests(tokyo).get()
    assert row.dedupe_key == f"digest:{tokyo.pk}:2030-03-01"
    assert {item["game_id"] for item in row.payload["games"]} == {game.pk for game in games}
    message = next(m for m in scripted_mailer.sent if m.subject == "2 games await your move")
    for game in games:
        assert f"https://play.example/games/{game.pk}/" in message.body
        assert f"Mamma Mia! #{game.pk}" in message.alternatives[0].content
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    # The next local day brings the next digest.
    with at(DAY + dt.timedelta(hours=23)):
        assert send_due_digests() == 1
    assert digests(tokyo).count() == 2


def test_no_digest_when_nothing_awaits(tokyo, players):
    with at(DAY - dt.timedelta(hours=20)):
        game = awaiting_game(tokyo, players[1])
        play(game)  # tokyo moves: nothing awaits them now
    with at(DAY - dt.timedelta(minutes=60)):
        assert send_due_digests() == 0


def test_no_digest_at_night(tokyo, players):
    with at(DAY + dt.timedelta(hours=12, minutes=30)):  # 21:30 in Tokyo
        awaiting_game(tokyo, players[1])
        assert send_due_digests() == 0
    with at(DAY + dt.timedelta(hours=23)):  # 08:00 the next morning
        assert send_due_digests() == 1


def test_each_user_gets_it_at_their_own_8_oclock(tokyo, players):
    paris = players[1]
    paris.notify_mode, paris.time_zone = NotifyMode.DAILY_DIGEST, "Europe/Paris"
    paris.save()
    with at(DAY - dt.timedelta(hours=20)):
        game = start_game("mamma-mia", [tokyo, paris])
        play(game)
        play(game)  # someone is awaited; make both wait in some game
        awaiting_game(tokyo, players[2])
        awaiting_game(paris, players[3])
    with at(DAY - dt.timedelta(hours=1)):  # 08:00 Tokyo, 00:00 Paris
        send_due_digests()
    assert digests(tokyo).count() == 1 and digests(paris).count() == 0
    with at(DAY + dt.timedelta(hours=7)):  # 08:00 Paris (UTC+1 in March)
        send_due_digests()
    assert digests(paris).count() == 1


def test_other_modes_get_no_digest(players):
    with at(DAY):
        awaiting_game(players[0], players[1])
    with at(DAY + dt.timedelta(hours=9)):
        assert send_due_digests() == 0
