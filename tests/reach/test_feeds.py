"""Private feeds: my deadlines as iCalendar and games awaiting me as Atom, at secret regenerable URLs."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import icalendar
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.models import Seat
from reach.models import ChannelSettings
from reach.prefs import settings_for
from tests.games.game_helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]
ATOM = "{http://www.w3.org/2005/Atom}"


@pytest.fixture
def tokyo_player(players):
    player = players[0]
    player.language, player.time_zone = "fr", "Asia/Tokyo"
    player.save(update_fields=["language", "time_zone"])
    return player


def awaited_seat(user):
    return Seat.objects.filter(user=user, awaited=True).select_related("game").first()


def test_the_calendar_lists_my_deadlines_in_my_language_and_zone(client, tokyo_player, players):
    game = start_game("konamon", players[:2], time_limit_hours=24)
    seat = awaited_seat(tokyo_player)
    assert seat is not None and seat.deadline_at is not None
    secret = settings_for(tokyo_player).feed_secret
    response = client.get(reverse("reach:calendar", args=[secret]))
    assert response.status_code == 200 and response["Content-Type"].startswith("text/calendar")
    calendar = icalendar.Calendar.from_ical(response.content)
    [event] = list(calendar.walk("VEVENT"))
    start = event.decoded("dtstart")
    assert str(start.tzinfo) == "Asia/Tokyo" and start == seat.deadline_at.replace(microsecond=0)
    assert f"#{game.pk}" in str(event["summary"]) and "(échéance)" in str(event["summary"])
    assert event["url"] == f"https://play.example/games/{game.pk}/"
    assert calendar.walk("VTIMEZONE"), "the zone is described for clients that do not know it"
    assert list(event.walk("VALARM"))


def test_the_atom_feed_lists_games_awaiting_me(client, tokyo_player, players):
    game = start_game("konamon", players[:2], time_limit_hours=24)
    other = start_game("marumiere", [players[1], players[2]])
    response = client.get(reverse("reach:atom", args=[settings_for(tokyo_player).feed_secret]))
    assert response.status_code == 200 and response["Content-Type"].startswith("application/atom+xml")
    feed = ET.fromstring(response.content)
    assert feed.findtext(f"{ATOM}title") == "mammamia\u00a0: parties qui attendent mon coup"  # French no-break space
    links = [e.find(f"{ATOM}link").get("href") for e in feed.findall(f"{ATOM}entry")]
    assert links == [f"https://play.example/games/{game.pk}/"]
    assert f"/games/{other.pk}/" not in response.content.decode()
    assert "Asia/Tokyo" in feed.find(f"{ATOM}entry").findtext(f"{ATOM}summary")


def test_a_feed_costs_the_same_queries_for_one_game_or_many(client, players, django_assert_max_num_queries):
    start_game("konamon", players[:2])
    secret = settings_for(players[0]).feed_secret
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("reach:atom", args=[secret]))
    for _ in range(4):
        start_game("konamon", players[:2])
    with CaptureQueriesContext(connection) as five:
        client.get(reverse("reach:atom", args=[secret]))
    assert len(five) == len(one)


def test_regenerating_the_secret_retires_the_old_addresses(client, players):
    old = settings_for(players[0]).feed_secret
    client.force_login(players[0])
    client.post(reverse("reach:feeds-regenerate"))
    new = ChannelSettings.objects.get(user=players[0]).feed_secret
    assert new != old
    client.logout()
    assert client.get(reverse("reach:calendar", args=[old])).status_code == 404
    assert client.get(reverse("reach:atom", args=[old])).status_code == 404
    assert client.get(reverse("reach:calendar", args=[new])).status_code == 200


@pytest.mark.parametrize("secret", ["nope", "x" * 300, "%00", "%C0%AF", "..%2F..%2Fetc"])
def test_an_unknown_or_malformed_secret_is_refused_with_a_4xx(client, secret):
    # 404 for a secret nobody has; a NUL byte is refused earlier, by the trust middleware (400).
    assert client.get(f"/feeds/{secret}/deadlines.ics").status_code in (400, 404)
    assert client.get(f"/feeds/{secret}/awaiting.atom").status_code in (400, 404)
