"""The unsubscribe link (one click, no login, RFC 8058) and the vacation page."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from notify_helpers import awaited, start_game

from accounts.models import NotifyMode
from notifications.tokens import unsubscribe_token, unsubscribe_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


def test_an_unsubscribe_link_shows_one_button_and_changes_nothing_by_itself(user):
    client = Client(enforce_csrf_checks=True)
    response = client.get(reverse("notifications:unsubscribe", args=[unsubscribe_token(user)]))
    assert response.status_code == 200
    assert b'method="post"' in response.content
    user.refresh_from_db()
    assert user.notify_mode == NotifyMode.ONCE_UNTIL_VISIT and user.deadline_reminders


def test_clicking_the_button_unsubscribes_without_logging_in(user):
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("notifications:unsubscribe", args=[unsubscribe_token(user)]))
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.notify_mode == NotifyMode.NEVER and not user.deadline_reminders


def test_the_mail_clients_one_click_post_unsubscribes(user):
    """RFC 8058: the client POSTs List-Unsubscribe=One-Click to the List-Unsubscribe URL, without cookies."""
    path = unsubscribe_url(user).removeprefix("https://play.example")
    response = Client(enforce_csrf_checks=True).post(
        path, data="List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    user.refresh_from_db()
    assert user.notify_mode == NotifyMode.NEVER


@pytest.mark.parametrize("token", ["nonsense", "eyJ1Ijo1fQ:1tampered:signature"])
def test_a_bad_token_is_refused(user, token):
    response = Client().post(reverse("notifications:unsubscribe", args=[token]))
    assert response.status_code == 400
    user.refresh_from_db()
    assert user.notify_mode == NotifyMode.ONCE_UNTIL_VISIT


def test_a_token_names_one_user_only(user_factory):
    alice, bob = user_factory(username="alice"), user_factory(username="bob")
    Client().post(reverse("notifications:unsubscribe", args=[unsubscribe_token(alice)]))
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.notify_mode == NotifyMode.NEVER and bob.notify_mode == NotifyMode.ONCE_UNTIL_VISIT


# Vacation page -------------------------------------------------------------------------

NOW = dt.datetime(2030, 3, 1, 15, 0, tzinfo=dt.UTC)


def test_the_away_page_needs_a_login(client):
    response = client.get(reverse("notifications:away"))
    assert response.status_code == 302


def test_going_away_and_coming_back_from_the_page(client, user, players):
    user.time_zone = "Asia/Tokyo"
    user.save()
    logged_in_client = client
    with time_machine.travel(NOW, tick=False):
        client.force_login(user)  # a session opened "now", in 2030
        game = start_game("mamma-mia", [user, players[1]], time_limit_hours=24)
        seat, _ = awaited(game)
        if seat.user != user:
            from notify_helpers import play

            play(game)
            seat, _ = awaited(game)
        deadline = seat.deadline_at
        assert logged_in_client.get(reverse("notifications:away")).status_code == 200
        response = logged_in_client.post(reverse("notifications:away"), {"back_on": "2030-03-05"})
        assert response.status_code == 302
    user.refresh_from_db()
    assert user.away_until == dt.datetime(2030, 3, 5, tzinfo=zoneinfo.ZoneInfo("Asia/Tokyo"))
    seat.refresh_from_db()
    assert seat.deadline_at == deadline + (user.away_until - NOW)
    with time_machine.travel(NOW + dt.timedelta(days=1), tick=False):
        page = logged_in_client.get(reverse("notifications:away"))
        assert b"I am back now" in page.content
        logged_in_client.post(reverse("notifications:away"), {"action": "back"})
    user.refresh_from_db()
    seat.refresh_from_db()
    assert user.away_until is None
    assert seat.deadline_at == deadline + dt.timedelta(days=1)


@pytest.mark.parametrize("day", ["2030-03-01", "2030-03-16", "not a date"])
def test_an_absence_must_end_after_today_and_within_14_days(client, user, day):
    with time_machine.travel(NOW, tick=False):
        client.force_login(user)
        response = client.post(reverse("notifications:away"), {"back_on": day})
    assert response.status_code == 200
    user.refresh_from_db()
    assert user.away_until is None


def test_the_longest_absence_is_14_days(client, user):
    with time_machine.travel(NOW, tick=False):
        client.force_login(user)
        response = client.post(reverse("notifications:away"), {"back_on": "2030-03-15"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.away_until == dt.datetime(2030, 3, 15, tzinfo=dt.UTC)  # the start of the day back
    assert user.away_until - NOW <= dt.timedelta(days=14)
