"""Deadline reminders: each channel follows its own switch for them, not the e-mail's."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
import time_machine

from notifications.deadlines import check_deadlines
from notifications.models import OutboxEmail
from reach.fanout import refresh_flags
from reach.models import Channel, ChannelSettings, Delivery, PushSubscription, Webhook
from tests.games.game_helpers import awaited_human, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]

T0 = dt.datetime(2030, 3, 1, 9, 0, tzinfo=dt.UTC)
H = dt.timedelta(hours=1)


def at(moment):
    return time_machine.travel(moment, tick=False)


def with_browser(user) -> None:
    PushSubscription.objects.create(user=user, endpoint=f"https://push.example/{uuid.uuid4()}", p256dh="x", auth="y")
    refresh_flags(user.pk)


def with_hook(user, kinds) -> Webhook:
    hook = Webhook.objects.create(user=user, url="https://hooks.example/x", kinds=list(kinds))
    refresh_flags(user.pk)
    return hook


@pytest.fixture
def awaited_player(players):
    with at(T0):
        game = start_game("mamma-mia", players[:2], time_limit_hours=12)
    seat, _view = awaited_human(game)
    return seat.user


def reminders_by(channel, user):
    return Delivery.objects.filter(channel=channel, user=user, kind="reminder")


def email_reminders(user):
    return OutboxEmail.objects.filter(user=user, kind=OutboxEmail.Kind.REMINDER)


def test_a_player_who_turned_email_reminders_off_still_gets_them_by_push_and_webhook(awaited_player):
    awaited_player.deadline_reminders = False
    awaited_player.save(update_fields=["deadline_reminders"])
    with_browser(awaited_player)
    with_hook(awaited_player, ["reminder"])
    with at(T0 + 6 * H):
        assert check_deadlines()["reminders"] == 1
    assert reminders_by(Channel.PUSH, awaited_player).count() == 1
    assert reminders_by(Channel.WEBHOOK, awaited_player).count() == 1
    assert not email_reminders(awaited_player).exists()


def test_a_player_whose_address_bounces_still_gets_push_reminders(awaited_player):
    awaited_player.email_undeliverable_since = T0
    awaited_player.save(update_fields=["email_undeliverable_since"])
    with_browser(awaited_player)
    with at(T0 + 6 * H):
        check_deadlines()
    assert reminders_by(Channel.PUSH, awaited_player).count() == 1
    assert not email_reminders(awaited_player).exists()


def test_push_reminders_turned_off_leave_the_email_ones(awaited_player):
    with_browser(awaited_player)
    ChannelSettings.objects.filter(user=awaited_player).update(off={"push": ["reminder"]})
    with at(T0 + 6 * H):
        check_deadlines()
    assert not reminders_by(Channel.PUSH, awaited_player).exists()
    assert email_reminders(awaited_player).count() == 1


def test_each_stage_goes_once_whatever_the_channels(awaited_player):
    awaited_player.deadline_reminders = False
    awaited_player.save(update_fields=["deadline_reminders"])
    with_browser(awaited_player)
    for hours in (6, 6.5, 8, 9, 11, 11.5):
        with at(T0 + hours * H):
            check_deadlines()
    assert sorted(r.payload["stage"] for r in reminders_by(Channel.PUSH, awaited_player)) == [1, 2, 3]


def test_no_reminder_at_all_for_a_player_who_wants_none_anywhere(awaited_player):
    awaited_player.deadline_reminders = False
    awaited_player.save(update_fields=["deadline_reminders"])
    with_browser(awaited_player)
    ChannelSettings.objects.filter(user=awaited_player).update(off={"push": ["reminder"]})
    with at(T0 + 6 * H):
        assert check_deadlines()["reminders"] == 0
    assert not Delivery.objects.exists() and not email_reminders(awaited_player).exists()
