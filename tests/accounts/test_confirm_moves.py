"""Issue 19, point 2: the "confirm one-tap moves" setting and how "auto" decides without JavaScript."""

from __future__ import annotations

import pytest
from django.test import RequestFactory
from django.urls import reverse

from accounts.confirm import confirm_mode, must_confirm, request_from_phone
from accounts.models import ConfirmMoves

PHONE_UA = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36"
)
DESKTOP_UA = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"


def post(data=None, **headers):
    return RequestFactory().post("/games/1/move/", data or {}, headers=headers)


@pytest.mark.parametrize(
    ("headers", "phone"),
    [
        ({"Sec-CH-UA-Mobile": "?1"}, True),
        ({"Sec-CH-UA-Mobile": "?0", "User-Agent": PHONE_UA}, False),  # the client hint wins
        ({"User-Agent": PHONE_UA}, True),
        ({"User-Agent": DESKTOP_UA}, False),
        ({}, False),
    ],
)
def test_a_request_is_from_a_phone_by_its_mobile_hint_else_by_its_user_agent(headers, phone):
    assert request_from_phone(post(**headers)) is phone


@pytest.mark.django_db
def test_auto_is_the_default_for_new_accounts_and_for_visitors(user):
    from django.contrib.auth.models import AnonymousUser

    assert user.confirm_moves == ConfirmMoves.AUTO
    assert confirm_mode(user) == "auto" and confirm_mode(AnonymousUser()) == "auto"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("mode", "ua", "asked"),
    [
        ("auto", PHONE_UA, True),
        ("auto", DESKTOP_UA, False),
        ("always", DESKTOP_UA, True),
        ("never", PHONE_UA, False),
    ],
)
def test_a_one_tap_move_must_be_confirmed_on_a_phone_under_auto_or_always(user, mode, ua, asked):
    user.confirm_moves = mode
    request = post({"move": "{}"}, **{"User-Agent": ua})
    request.user = user
    assert must_confirm(request) is asked


@pytest.mark.django_db
def test_a_confirmed_move_is_never_asked_again(user):
    user.confirm_moves = ConfirmMoves.ALWAYS
    request = post({"move": "{}", "confirmed": "1"})
    request.user = user
    assert must_confirm(request) is False


@pytest.mark.django_db
def test_the_settings_page_saves_the_choice_in_its_own_form(logged_in_client, user):
    page = logged_in_client.get(reverse("settings")).content.decode()
    assert 'id="confirm-moves"' in page and 'name="confirm_moves"' in page
    response = logged_in_client.post(reverse("settings-confirm-moves"), {"confirm_moves": "always"})
    assert response.status_code == 302 and response["Location"].endswith("#confirm-moves")
    user.refresh_from_db()
    assert user.confirm_moves == ConfirmMoves.ALWAYS


@pytest.mark.django_db
def test_an_unknown_choice_is_refused_and_nothing_changes(logged_in_client, user):
    logged_in_client.post(reverse("settings-confirm-moves"), {"confirm_moves": "sometimes"})
    user.refresh_from_db()
    assert user.confirm_moves == ConfirmMoves.AUTO
