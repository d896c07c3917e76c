"""Quiet days, time zone and the one-tap confirmation by API, as on ``/settings/quiet-days/`` and ``/settings/``:
the pages' forms validate, ``games.clock_settings`` re-reads the running clocks, so a change counts from now on."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.urls import reverse

import games.clock_settings
from accounts.models import TimeZoneSource
from clocks.arithmetic import quiet_mask
from games.models import Seat
from tests.games.game_helpers import awaited_human, start_game

pytestmark = pytest.mark.django_db
NOW = dt.datetime(2030, 3, 1, 9, 0, tzinfo=dt.UTC)  # a Friday


@pytest.fixture
def now():
    with time_machine.travel(NOW, tick=False):
        yield NOW


@pytest.fixture
def clock_changes(monkeypatch) -> list[int]:
    """The users whose clock settings went through ``games.clock_settings.change_clock_settings``."""
    calls: list[int] = []
    real = games.clock_settings.change_clock_settings

    def spy(**kwargs):
        calls.append(kwargs["user"].pk)
        return real(**kwargs)

    monkeypatch.setattr(games.clock_settings, "change_clock_settings", spy)
    return calls


def _awaited_seat(players, hours: int) -> Seat:
    game = start_game("marumiere", players[:2], time_limit_hours=hours)
    seat, _view = awaited_human(game)
    return seat


def test_quiet_days_are_read_and_replaced_and_stop_a_running_clock_from_now_on(token_client, players, now):
    seat = _awaited_seat(players, 24)
    assert seat.deadline_at == NOW + dt.timedelta(days=1)  # Saturday 09:00
    api = token_client(seat.user)
    assert api.get(reverse("api-settings-quiet-days")).json() == {"days": []}
    answer = api.send("put", reverse("api-settings-quiet-days"), {"days": [6, 5, 5]})
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"days": [5, 6]}
    seat.user.refresh_from_db()
    assert seat.user.quiet_days == quiet_mask([5, 6])
    seat.refresh_from_db()
    # 15 hours run on Friday, the weekend stands still, 9 hours on Monday.
    assert seat.deadline_at == NOW + dt.timedelta(days=3)
    assert api.send("put", reverse("api-settings-quiet-days"), {"days": []}).json() == {"days": []}
    seat.refresh_from_db()
    assert seat.deadline_at == NOW + dt.timedelta(days=1)


@pytest.mark.parametrize("days", [[0, 1, 2, 3], [7], [-1], ["5"], [5.0], [True], "5", None])
def test_bad_quiet_days_are_refused_and_change_nothing(token_client, user, days):
    answer = token_client(user).send("put", reverse("api-settings-quiet-days"), {"days": days})
    assert answer.status_code == 400, answer.content
    assert answer.json()["error"] == "invalid" and "days" in answer.json()["fields"]
    user.refresh_from_db()
    assert user.quiet_days == 0


def test_too_many_quiet_days_are_refused_in_my_language(token_client, user):
    user.language = "fr"
    user.save(update_fields=["language"])
    answer = token_client(user).send("put", reverse("api-settings-quiet-days"), {"days": [0, 1, 2, 3]})
    assert answer.json()["detail"] == "days: Choisissez au plus trois jours calmes."


def test_a_new_time_zone_by_api_rereads_running_clocks_like_the_settings_page(
    token_client, players, now, clock_changes
):
    seat = _awaited_seat(players, 12)  # runs out Friday 21:00 UTC
    user = seat.user
    user.quiet_days = quiet_mask([5])  # Saturday, in the player's zone
    user.save(update_fields=["quiet_days"])
    api = token_client(user)
    assert api.send("patch", reverse("api-settings"), {"language": "ja"}).status_code == 200
    assert clock_changes == []  # nothing about clocks changed
    answer = api.send("patch", reverse("api-settings"), {"time_zone": "Tokyo"})
    assert answer.status_code == 200, answer.content
    assert answer.json()["time_zone"] == "Asia/Tokyo"
    assert clock_changes == [user.pk]
    user.refresh_from_db()
    assert (user.time_zone, user.time_zone_source) == ("Asia/Tokyo", TimeZoneSource.CHOSEN)
    seat.refresh_from_db()
    # Saturday in Tokyo begins Friday 15:00 UTC: 6 hours run before it, 6 after it (Saturday 15:00 UTC).
    assert seat.deadline_at == NOW + dt.timedelta(days=1, hours=12)


def test_the_one_tap_confirmation_is_a_setting_by_api_too(token_client, user):
    api = token_client(user)
    assert api.get(reverse("api-settings")).json()["confirm_moves"] == "auto"
    answer = api.send("patch", reverse("api-settings"), {"confirm_moves": "always"})
    assert answer.status_code == 200 and answer.json()["confirm_moves"] == "always"
    user.refresh_from_db()
    assert user.confirm_moves == "always"
    refused = api.send("patch", reverse("api-settings"), {"confirm_moves": "sometimes", "language": "fr"})
    assert refused.status_code == 400 and "confirm_moves" in refused.json()["fields"]
    user.refresh_from_db()
    assert (user.confirm_moves, user.language) == ("always", "en")


def test_quiet_days_are_in_the_served_schema_with_their_statuses(client):
    paths = json.loads(client.get("/api/schema/", {"format": "json"}).content)["paths"]
    assert set(paths["/api/settings/quiet-days/"]["put"]["responses"]) >= {"200", "400", "401", "403", "413", "415"}
    settings_fields = json.loads(client.get("/api/schema/", {"format": "json"}).content)["components"]["schemas"]
    assert "confirm_moves" in settings_fields["Settings"]["properties"]
