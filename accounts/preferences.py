"""Keeping the language cookie and a user's stored language in step."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse


def remember_language(response: HttpResponse, *, language: str) -> HttpResponse:
    """Set the language cookie the way Django's ``set_language`` view does, so a
    visitor keeps the language after logging out."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )
    return response
