import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse

JOINED = dt.datetime(2026, 1, 1, 23, 30, tzinfo=dt.UTC)


@pytest.mark.django_db
def test_member_since_is_shown_in_the_viewers_time_zone(user_factory):
    member = user_factory(username="ada", display_name="Ada L.")
    member.date_joined = JOINED
    member.save()
    tokyo_viewer = user_factory(username="kenji", time_zone="Asia/Tokyo")
    paris_viewer = user_factory(username="amelie", time_zone="Europe/Paris")

    def member_since(viewer):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        html = client.get(reverse("profile", args=["ada"])).content.decode()
        assert "Ada L." in html and "@ada" in html
        return html.split('class="member-since">', 1)[1].split("<", 1)[0]

    assert member_since(tokyo_viewer) == "Jan. 2, 2026"  # already 08:30 on the 2nd in Tokyo
    assert member_since(paris_viewer) == "Jan. 2, 2026"  # 00:30 in Paris
    assert member_since(None) == "Jan. 1, 2026"  # visitors see UTC


@pytest.mark.django_db
def test_unknown_or_deactivated_profiles_are_not_found(client, user_factory):
    user_factory(username="gone", is_active=False)
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404
    assert client.get(reverse("profile", args=["gone"])).status_code == 404


@pytest.mark.django_db
def test_own_profile_links_to_settings_and_warns_about_bouncing_mail(logged_in_client, user):
    user.email_undeliverable_since = JOINED
    user.save()
    html = logged_in_client.get(reverse("profile", args=[user.username])).content.decode()
    assert reverse("settings") in html and "bouncing" in html
    assert "bouncing" not in Client().get(reverse("profile", args=[user.username])).content.decode()


@pytest.mark.django_db
def test_profile_includes_match_history_once_the_platform_template_exists(client, user, settings, tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "_match_history.html").write_text("<p>history of {{ profile_user.username }}</p>")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    html = client.get(reverse("profile", args=[user.username])).content.decode()
    assert f"history of {user.username}" in html
