"""Activate the signed-in user's language and time zone for each request, and keep
the stored language and the language cookie in step."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.contrib.sessions.middleware import SessionMiddleware as DjangoSessionMiddleware
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation
from django.utils.cache import patch_vary_headers

from accounts.preferences import remember_language

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}


class SessionMiddleware(DjangoSessionMiddleware):
    """Django's, except that a request whose cookie names a session that no longer exists, and which did not touch
    the session itself, leaves the browser's cookie alone.

    Signing in replaces the session key and deletes the old session. A request the page sent just before — a live
    partial, a stream's reconnect, the tutorial page's last fetch — then arrives with the old key and finds nothing;
    Django would answer it by deleting the session cookie, which by then is the new, signed-in one, and the person
    lands signed out. Signing out empties the session by changing it (``flush``), so its cookie is still deleted."""

    def process_response(self, request: HttpRequest, response: HttpResponse) -> HttpResponse:
        session = getattr(request, "session", None)
        if (
            session is not None
            and settings.SESSION_COOKIE_NAME in request.COOKIES
            and not session.modified
            and session.is_empty()
        ):
            if session.accessed:
                patch_vary_headers(response, ("Cookie",))
            return response
        return super().process_response(request, response)


class UserPreferencesMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        signed_in = user is not None and user.is_authenticated
        if signed_in:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            # LocaleMiddleware ran before authentication; a signed-in user's stored
            # language wins over the cookie and the browser.
            if user.language in LANGUAGE_CODES and user.language != translation.get_language():
                translation.activate(user.language)
                request.LANGUAGE_CODE = translation.get_language()
        else:
            timezone.deactivate()
        response = self.get_response(request)
        # Re-read: the request may have logged the user in or out.
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            self._sync_language(request, response, user)
        return response

    @staticmethod
    def _sync_language(request: HttpRequest, response: HttpResponse, user) -> None:
        cookie_name = settings.LANGUAGE_COOKIE_NAME
        chosen = response.cookies.get(cookie_name)
        if chosen is not None and chosen.value:
            # Django's set_language (the nav's switcher) validated and set the cookie:
            # remember the choice on the account so it follows the user everywhere.
            if chosen.value in LANGUAGE_CODES and chosen.value != user.language:
                user.language = chosen.value
                user.save(update_fields=["language"])
        elif user.language in LANGUAGE_CODES and request.COOKIES.get(cookie_name) != user.language:
            # After logging in on a new browser, keep its cookie in the account's
            # language so the site stays in it after logging out.
            remember_language(response, language=user.language)
