"""Time zones (issue 19, point 7): a new account takes its browser's zone unless its owner chose one, the settings
field accepts a city ("Tokyo"), and a failed save shows nothing unsaved in the header."""

import pytest
from django.urls import reverse

from accounts.models import TimeZoneSource
from accounts.time_zones import find_zone, zone_options
from profiles.services import set_from_browser

pytestmark = pytest.mark.django_db


def _settings(**changes):
    data = {
        "display_name": "Ada",
        "language": "en",
        "time_zone": "Europe/Paris",
        "notify_mode": "once",
        "deadline_reminders": "on",
    }
    return data | changes


@pytest.mark.parametrize(
    ("typed", "zone"),
    [
        ("Tokyo", "Asia/Tokyo"),
        ("tokyo", "Asia/Tokyo"),
        ("東京", "Asia/Tokyo"),
        ("Osaka", "Asia/Tokyo"),
        ("asia/tokyo", "Asia/Tokyo"),
        ("New York", "America/New_York"),
        ("Sao Paulo", "America/Sao_Paulo"),
        ("臺北", "Asia/Taipei"),
        ("Pékin", "Asia/Shanghai"),
        ("Londres", "Europe/London"),
        ("Japan", "Asia/Tokyo"),
        ("Tokyo · UTC+09:00", "Asia/Tokyo"),
        ("UTC", "UTC"),
    ],
)
def test_a_time_zone_is_found_from_a_city_a_country_or_its_name_in_any_language(typed, zone):
    assert find_zone(typed) == zone


def test_an_unknown_place_is_no_time_zone():
    assert find_zone("Olympus Mons") is None and find_zone("") is None


def test_the_list_offers_each_zone_with_its_city_in_the_readers_language_and_its_offset():
    options = dict(zone_options(language="ja"))
    assert options["Asia/Tokyo"].startswith("東京 · UTC+09:00")
    assert options["Europe/Paris"].startswith("パリ · UTC+0")
    assert "Japan" not in options and "Etc/GMT+9" not in options  # legacy names are not offered


def test_the_settings_accept_tokyo_and_the_zone_counts_as_chosen(logged_in_client, user):
    response = logged_in_client.post(reverse("settings"), _settings(time_zone="Tokyo"))
    assert response.status_code == 302
    user.refresh_from_db()
    assert (user.time_zone, user.time_zone_source) == ("Asia/Tokyo", TimeZoneSource.CHOSEN)


def test_the_settings_page_lists_zones_with_their_cities_and_offers_the_devices_zone(logged_in_client):
    html = logged_in_client.get(reverse("settings")).content.decode()
    assert '<option value="Asia/Tokyo">Tokyo · UTC+09:00</option>' in html
    assert "data-browser-zone" in html  # static/js/site.js fills it in


def test_a_failed_save_shows_the_stored_name_in_the_header_not_the_unsaved_one(logged_in_client, user):
    user.display_name = "Ada"
    user.save(update_fields=["display_name"])
    response = logged_in_client.post(
        reverse("settings"), _settings(display_name="Countess Lovelace", time_zone="Mars/Olympus_Mons")
    )
    assert response.status_code == 200 and response.context["form"].errors
    html = response.content.decode()
    header = html.split("</header>", 1)[0]
    assert ">Ada</a>" in header and "Countess Lovelace" not in header
    # ...while the form keeps what was typed, to correct it.
    assert 'value="Countess Lovelace"' in html
    user.refresh_from_db()
    assert user.display_name == "Ada"


def test_a_new_account_takes_its_browsers_time_zone_on_its_first_visit(client, user):
    client.force_login(user)
    html = client.get("/").content.decode()
    assert f'data-tz-detect="{reverse("settings-browser-time-zone")}"' in html
    response = client.post(reverse("settings-browser-time-zone"), {"time_zone": "Asia/Tokyo"})
    assert response.status_code == 204
    user.refresh_from_db()
    assert (user.time_zone, user.time_zone_source) == ("Asia/Tokyo", TimeZoneSource.BROWSER)
    # Once set, pages stop asking, and another browser does not move it.
    assert "data-tz-detect" not in client.get("/").content.decode()
    assert client.post(reverse("settings-browser-time-zone"), {"time_zone": "Europe/Paris"}).status_code == 204
    user.refresh_from_db()
    assert user.time_zone == "Asia/Tokyo"


def test_the_browser_never_overrides_a_zone_chosen_in_the_settings(logged_in_client, user):
    logged_in_client.post(reverse("settings"), _settings(time_zone="Europe/Paris"))
    assert logged_in_client.post(reverse("settings-browser-time-zone"), {"time_zone": "Asia/Tokyo"}).status_code == 204
    user.refresh_from_db()
    assert (user.time_zone, user.time_zone_source) == ("Europe/Paris", TimeZoneSource.CHOSEN)


def test_a_zone_the_server_does_not_know_is_refused_and_asked_again_later(logged_in_client, user):
    response = logged_in_client.post(reverse("settings-browser-time-zone"), {"time_zone": "Mars/Olympus"})
    assert response.status_code == 400
    user.refresh_from_db()
    assert (user.time_zone, user.time_zone_source) == ("UTC", TimeZoneSource.UNSET)


def test_the_browsers_zone_moves_the_deadlines_of_running_clocks_like_a_change_in_the_settings(user, monkeypatch):
    calls = []
    import games.clock_settings

    real = games.clock_settings.change_clock_settings

    def spy(**kwargs):
        calls.append(kwargs["user"].pk)
        return real(**kwargs)

    monkeypatch.setattr(games.clock_settings, "change_clock_settings", spy)
    assert set_from_browser(user=user, name="Asia/Tokyo")
    assert calls == [user.pk]


def test_the_time_zone_detection_needs_a_login_and_a_post(logged_in_client):
    from django.test import Client

    url = reverse("settings-browser-time-zone")
    assert Client().post(url, {"time_zone": "Asia/Tokyo"}).status_code == 302
    assert logged_in_client.get(url).status_code == 405
