"""Activate the signed-in user's language and time zone for each request."""

import zoneinfo

from django.utils import timezone, translation


class UserPreferencesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            try:
                timezone.activate(zoneinfo.ZoneInfo(user.time_zone))
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
            # LocaleMiddleware ran before authentication; a signed-in user's stored
            # language wins over the cookie and the browser.
            if user.language and user.language != translation.get_language():
                translation.activate(user.language)
                request.LANGUAGE_CODE = translation.get_language()
        else:
            timezone.deactivate()
        response = self.get_response(request)
        return response
