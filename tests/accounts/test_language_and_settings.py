"""Language switching (visitors and accounts), the settings page and time zones."""

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

JAPANESE_HOME_HEADING = "友だちとカードゲーム、一手ずつ"


def _valid_settings(**changes):
    data = {
        "display_name": "Ada",
        "language": "en",
        "time_zone": "Europe/Paris",
        "notify_mode": "once",
        "deadline_reminders": "on",
    }
    return data | changes


@pytest.mark.django_db
def test_visitor_switching_to_japanese_gets_a_cookie_and_japanese_pages(client):
    response = client.post(reverse("set_language"), {"language": "ja", "next": "/"})
    assert response.status_code == 302
    assert response.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "ja"
    html = client.get("/").content.decode()
    assert '<html lang="ja">' in html
    assert JAPANESE_HOME_HEADING in html
    assert "ログイン" in html  # base.html's nav, translated too


@pytest.mark.django_db
def test_logged_in_switch_is_saved_on_the_account_and_follows_the_user_to_a_new_session(user):
    first_browser = Client()
    first_browser.force_login(user)
    first_browser.post(reverse("set_language"), {"language": "ja", "next": "/"})
    user.refresh_from_db()
    assert user.language == "ja"

    second_browser = Client()  # no language cookie at all
    second_browser.force_login(user)
    response = second_browser.get("/")
    assert JAPANESE_HOME_HEADING in response.content.decode()
    # ...and the new browser's cookie follows, so the site stays Japanese after logging out.
    assert response.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "ja"


@pytest.mark.django_db
def test_an_unsupported_language_changes_nothing(logged_in_client, user):
    logged_in_client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    user.refresh_from_db()
    assert user.language == "en"


@pytest.mark.django_db
def test_settings_require_login(client):
    response = client.get(reverse("settings"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("account_login"))


@pytest.mark.django_db
def test_saving_french_in_settings_switches_the_site_at_once_and_sets_the_cookie(logged_in_client, user):
    response = logged_in_client.post(reverse("settings"), _valid_settings(language="fr"), follow=True)
    assert response.redirect_chain[0][1] == 302
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Vos réglages sont enregistrés." in html
    assert logged_in_client.cookies[django_settings.LANGUAGE_COOKIE_NAME].value == "fr"
    user.refresh_from_db()
    assert (user.language, user.time_zone, user.deadline_reminders) == ("fr", "Europe/Paris", True)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone", "is not a time zone we know"),
        ({"time_zone": ""}, "time_zone", "This field is required."),
        ({"display_name": "x" * 41}, "display_name", "at most 40 characters"),
        ({"display_name": "evil\u202eman"}, "display_name", "Use letters, digits, spaces and punctuation only."),
        ({"language": "de"}, "language", "Select a valid choice."),
        ({"notify_mode": "hourly"}, "notify_mode", "Select a valid choice."),
    ],
)
def test_settings_refuse_invalid_values_and_say_why(logged_in_client, user, changes, field, message):
    response = logged_in_client.post(reverse("settings"), _valid_settings(**changes))
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert field in errors and any(message in error for error in errors[field])
    assert message in response.content.decode().replace("&#x27;", "'")
    user.refresh_from_db()
    assert user.time_zone == "UTC" and user.display_name == ""


@pytest.mark.django_db
def test_time_zone_is_accepted_in_any_capitalisation(logged_in_client, user):
    logged_in_client.post(reverse("settings"), _valid_settings(time_zone="asia/tokyo"))
    user.refresh_from_db()
    assert user.time_zone == "Asia/Tokyo"


@pytest.mark.django_db
def test_settings_page_offers_every_zone_notification_choice_and_account_links(logged_in_client):
    html = logged_in_client.get(reverse("settings")).content.decode()
    assert '<datalist id="time-zones">' in html and '<option value="Asia/Tokyo">' in html
    for label in ("Once, until I visit the game", "Every time it is my move", "A daily digest", "Never"):
        assert label in html
    assert reverse("account_email") in html and reverse("account_change_password") in html


def test_settings_page_warns_when_email_is_undeliverable_and_links_to_vacation(client, user):
    import datetime as dt

    from django.utils import timezone

    client.force_login(user)
    page = client.get("/settings/").content.decode()
    assert "stopped sending game e-mails" not in page
    assert "Going away? Pause your deadlines" in page

    user.email_undeliverable_since = timezone.now()
    user.away_until = timezone.now() + dt.timedelta(days=3)
    user.save()
    page = client.get("/settings/").content.decode()
    assert "stopped sending game e-mails" in page
    assert "Away until" in page
