"""Headers and input hygiene for every response.

- ``Permissions-Policy``: the site uses no camera, microphone, location or payment; say so, so that no script
  (ours or injected) may ask for them.
- ``Cache-Control: private, no-store`` on the responses that carry a signed-in player's own hidden cards (the
  game page, its live partial, the move form's answer, the whole log, the API's game and move): no shared
  cache keeps them and the browser does not store them on disk.
- A NUL byte in the address, the query or a form field is refused with 400: PostgreSQL cannot store or even
  compare it, so without this any lookup by such a value answered 500.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, JsonResponse
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "autoplay",
        "camera",
        "display-capture",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "midi",
        "payment",
        "publickey-credentials-get",
        "screen-wake-lock",
        "usb",
        "xr-spatial-tracking",
    )
)

# URL names whose responses show a signed-in player their own hand (see the module docstring).
PRIVATE_VIEWS = frozenset(
    {
        "game",
        "game-table",
        "game-move",
        "game-log",
        "api-game",
        "api-game-move",
        "api-game-log",
        "account-data-export",
        "api-account-export",
    }
)


def _has_nul(request: HttpRequest) -> bool:
    if "\x00" in request.path:
        return True
    for query in (request.GET, request.POST if request.method == "POST" else None):
        if query is None:
            continue
        for key, values in query.lists():
            if "\x00" in key or any(isinstance(v, str) and "\x00" in v for v in values):
                return True
    return False


class TrustMiddleware:
    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self._refuse_nul(request) or self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        match = getattr(request, "resolver_match", None)
        user = getattr(request, "user", None)
        if match is not None and match.url_name in PRIVATE_VIEWS and user is not None and user.is_authenticated:
            patch_cache_control(response, private=True, no_store=True)
        return response

    @staticmethod
    def _refuse_nul(request: HttpRequest) -> HttpResponse | None:
        try:
            bad = _has_nul(request)
        except Exception:  # noqa: BLE001 - a body Django cannot parse is the view's (CSRF's) 400, not ours
            return None
        if not bad:
            return None
        detail = _("The request holds a NUL character, which is not allowed.")
        if request.path.startswith("/api/"):
            if "\x00" in request.path:
                # No id or name in a path holds one: as for any path naming nothing, 404 (the API's schema).
                return JsonResponse({"error": "not_found", "detail": _("There is nothing here.")}, status=404)
            return JsonResponse({"error": "parse_error", "detail": detail}, status=400)
        return HttpResponseBadRequest(detail, content_type="text/plain; charset=utf-8")
