"""Per-device API tokens: issued to verified accounts only, under the web login's limits, hashed, listed and
revocable in the settings, lapsing after idleness, and all revoked when the password changes."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse

from trust.models import ApiToken

PASSWORD = "correct horse battery staple"


def get_token(client, login, password=PASSWORD, name="laptop", **extra):
    return client.post(reverse("api-token"), {"username": login, "password": password, "name": name}, **extra)


def games_with(client, token):
    return client.get(reverse("api-games"), HTTP_AUTHORIZATION=f"Token {token}")


def test_a_token_is_named_stored_hashed_and_works(client, user):
    response = get_token(client, user.username)
    assert response.status_code == 200, response.content
    token = response.json()["token"]
    row = ApiToken.objects.get(user=user)
    assert row.name == "laptop"
    assert token not in row.digest and row.digest != token  # only a digest is stored
    assert games_with(client, token).status_code == 200
    ApiToken.objects.get(user=user).refresh_from_db()


def test_the_email_address_logs_in_too(client, user):
    assert get_token(client, user.email).status_code == 200


def test_no_token_for_an_unverified_account(client, user_factory):
    unverified = user_factory(username="fresh", verified_email=False)
    response = get_token(client, unverified.username)
    assert response.status_code == 403
    assert response.json()["error"] == "email_unverified"
    assert not ApiToken.objects.exists()


def test_wrong_passwords_are_throttled_then_even_the_right_one_is_refused(client, user):
    for _ in range(5):
        assert get_token(client, user.username, password="wrong").status_code == 400
    response = get_token(client, user.username)
    assert response.status_code == 429
    assert set(response.json()) == {"error", "detail"}
    assert not ApiToken.objects.exists()


def test_the_api_and_the_web_login_share_one_counter(client, user):
    for _ in range(5):
        client.post(reverse("account_login"), {"login": user.username, "password": "wrong"})
    assert get_token(client, user.email).status_code == 429


def test_a_stranger_elsewhere_cannot_lock_the_owner_out(client, user):
    for _ in range(12):
        get_token(client, user.username, password="wrong", REMOTE_ADDR="203.0.113.9")
    assert get_token(client, user.username, REMOTE_ADDR="198.51.100.7").status_code == 200


def test_the_client_address_is_read_behind_the_proxy(client, user, settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    for _ in range(5):
        get_token(client, user.username, password="wrong", HTTP_X_FORWARDED_FOR="203.0.113.9")
    # Same proxy address (REMOTE_ADDR), another client behind it: not throttled.
    assert get_token(client, user.username, HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 200
    assert get_token(client, user.username, HTTP_X_FORWARDED_FOR="203.0.113.9").status_code == 429


def test_tokens_are_listed_and_revoked_in_the_settings(client, user):
    first = get_token(client, user.username, name="phone").json()["token"]
    second = get_token(client, user.username, name="bot script").json()["token"]
    client.force_login(user)
    page = client.get(reverse("settings")).content.decode()
    assert "phone" in page and "bot script" in page
    assert first not in page and second not in page
    phone = ApiToken.objects.get(name="phone")
    assert client.post(reverse("api-token-revoke", args=[phone.token_key])).status_code == 302
    client.logout()
    assert games_with(client, first).status_code == 401
    assert games_with(client, second).status_code == 200


def test_a_token_made_in_the_settings_is_shown_once(client, user):
    client.force_login(user)
    response = client.post(reverse("api-token-create"), {"name": "tablet"})
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    token = response.context["token"]
    assert token in response.content.decode()
    client.logout()
    assert games_with(client, token).status_code == 200


def test_a_token_lapses_after_idleness_but_lives_on_with_use(client, user, settings):
    token = get_token(client, user.username).json()["token"]
    idle = dt.timedelta(days=settings.API_TOKEN_IDLE_DAYS)
    with time_machine.travel(dt.datetime.now(tz=dt.UTC) + idle - dt.timedelta(days=1)):
        assert games_with(client, token).status_code == 200  # used: the expiry moves on
    with time_machine.travel(dt.datetime.now(tz=dt.UTC) + 2 * idle - dt.timedelta(days=3)):
        assert games_with(client, token).status_code == 200
    with time_machine.travel(dt.datetime.now(tz=dt.UTC) + 4 * idle):
        assert games_with(client, token).status_code == 401


@pytest.mark.parametrize("how", ["change", "reset", "admin"])
def test_every_token_dies_with_the_password(client, user, how):
    tokens = [get_token(client, user.username, name=n).json()["token"] for n in ("a", "b")]
    if how == "change":
        client.force_login(user)
        response = client.post(
            reverse("account_change_password"),
            {"oldpassword": PASSWORD, "password1": "another fine passphrase", "password2": "another fine passphrase"},
        )
        assert response.status_code == 302
        client.logout()
    elif how == "reset":
        user.set_password("reset by a link")
        user.save()
    else:
        user.set_password("set by an admin")
        user.save(update_fields=["password"])
    for token in tokens:
        assert games_with(client, token).status_code == 401
    assert not ApiToken.objects.filter(user=user).exists()


def test_a_token_header_that_is_not_utf8_is_a_401(client, db):
    response = client.get(reverse("api-games"), HTTP_AUTHORIZATION="Token \xff\xfe")
    assert response.status_code == 401


def test_the_admin_login_is_the_rate_limited_site_login(client, user):
    response = client.get("/admin/login/")
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))
    for _ in range(5):
        client.post(reverse("account_login"), {"login": user.username, "password": "wrong"})
    response = client.post(reverse("account_login"), {"login": user.username, "password": PASSWORD})
    assert response.status_code != 302 or not response.wsgi_request.user.is_authenticated
