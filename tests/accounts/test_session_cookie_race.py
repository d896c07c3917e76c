"""Signing in replaces the session key and deletes the old session. A request the page sent just before (a live
partial, the tutorial page's last fetch) arrives afterwards with the old key: it must not delete the browser's
session cookie, which by then is the new, signed-in one — the newcomer who tapped "Play a real game against bots"
landed on their game signed out (seen once in 24 browser runs of the tutorials)."""

from importlib import import_module

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def _deleted(response) -> bool:
    morsel = response.cookies.get(settings.SESSION_COOKIE_NAME)
    return morsel is not None and morsel.value == "" and str(morsel["max-age"]) == "0"


def test_a_request_with_a_session_that_signing_in_replaced_leaves_the_cookie_alone():
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store["tutorial"] = "the guest's games"
    store.create()
    old_key = store.session_key
    store.delete()  # what login()'s cycle_key does to the old row
    late = Client()
    late.cookies[settings.SESSION_COOKIE_NAME] = old_key
    response = late.get(reverse("home"))
    assert response.status_code == 200
    assert not _deleted(response), "the late request deleted the browser's (new) session cookie"


def test_signing_out_still_deletes_the_session_cookie():
    user = User.objects.create_user(username="leaving", email="leaving@example.com", password="a long password 1")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("account_logout"))
    assert response.status_code in (200, 302)
    assert _deleted(response)
    assert client.get(reverse("home")).wsgi_request.user.is_anonymous
