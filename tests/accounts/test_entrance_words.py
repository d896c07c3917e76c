"""Issue 35, item 9: the sign-up and log-in pages use the header's words ("Sign up", "Log in": not allauth's
"Sign Up", "Sign In"), and a message is written in the language of the page that shows it: after logging in, the
account's language, whatever the page the form was on."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _name in settings.LANGUAGES]


def _texts(pattern: str, html: str) -> list[str]:
    return [re.sub(r"<[^>]+>|\s+", " ", found).strip() for found in re.findall(pattern, html, re.S)]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("page", "header_word"), [("account_signup", "Sign up"), ("account_login", "Log in")])
def test_the_sign_up_and_log_in_pages_say_what_the_header_says(client, language, page, header_word):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    html = client.get(reverse(page)).content.decode()
    assert f'<html lang="{language}"' in html
    with translation.override(language):
        word = gettext(header_word)
    header = html.split("</header>", 1)[0]
    assert f">{word}</a>" in header
    body = html.split("</header>", 1)[1]
    assert _texts(r"<h1[^>]*>(.*?)</h1>", body) == [word]
    assert word in _texts(r"<button[^>]*type=\"submit\"[^>]*>(.*?)</button>", body)
    assert word in _texts(r"<title>(.*?)</title>", html)[0]


def test_a_login_message_is_in_the_accounts_language_the_next_page_speaks(client, user):
    user.language = "ja"
    user.save(update_fields=["language"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"  # the log-in form was on a French page
    response = client.post(
        reverse("account_login"), {"login": user.username, "password": "correct horse battery staple"}, follow=True
    )
    html = response.content.decode()
    assert '<html lang="ja"' in html
    with translation.override("ja"):
        japanese = render_to_string("account/messages/logged_in.txt", {"user": user}).strip()
    with translation.override("fr"):
        french = render_to_string("account/messages/logged_in.txt", {"user": user}).strip()
    assert japanese != french
    assert japanese in html and french not in html
