"""Every answer under /api/ that is not a success is ``{"error": code, "detail": message}``.

Two places make sure of it, and no view needs to care:

- ``exception_handler`` (called by ``games.api_errors.exception_handler``, DRF's ``EXCEPTION_HANDLER``,
  which answers the platform's ``GameError`` itself): DRF's own exceptions (validation, authentication,
  parsing, throttling...) inside an API view; a
  validation error adds ``fields`` (per-field messages).
- ``ApiErrorMiddleware`` (outermost): what never reaches a view or escapes it — an unknown route
  or a bad id in the path (the URL resolver's 404), a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``
  (413), a server error (500) — gets the same shape instead of an HTML page.

Messages are in the requester's language: the session's or, for a token, the account's (``ApiView``
activates it once the request is authenticated).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from rest_framework import exceptions as drf_exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.parsers import JsonRefused

logger = logging.getLogger(__name__)

API_PREFIX = "/api/"
# Pages under /api/ that are not the JSON API: the browsable docs (HTML) and the schema itself.
NOT_JSON_PATHS = ("/api/docs/",)


def status_error(status: int) -> tuple[str, str]:
    """(code, message) for an error known only by its HTTP status."""
    messages = {
        400: ("bad_request", _("The request is not valid.")),
        401: ("not_authenticated", _("Authentication credentials were not provided.")),
        403: ("permission_denied", _("You may not do that.")),
        404: ("not_found", _("There is nothing here.")),
        405: ("method_not_allowed", _("This method is not allowed here.")),
        406: ("not_acceptable", _("This API answers in JSON only.")),
        413: ("too_large", _("The request body is too large.")),
        415: ("unsupported_media_type", _("Send the request body as JSON (Content-Type: application/json).")),
        429: ("throttled", _("Too many requests: try again later.")),
    }
    if status in messages:
        return messages[status]
    if status >= 500:
        return "server_error", _("Something went wrong on our side; nothing was changed. Please try again.")
    return "error", _("The request is not valid.")


def error_body(code: str, detail, **extra) -> dict:
    return {"error": code, "detail": str(detail), **extra}


def _first_message(value) -> str | None:
    """The first message of DRF's nested error data (dicts of lists of ErrorDetail)."""
    if isinstance(value, dict):
        for item in value.values():
            found = _first_message(item)
            if found is not None:
                return found
        return None
    if isinstance(value, list):
        for item in value:
            found = _first_message(item)
            if found is not None:
                return found
        return None
    return str(value)


def _field_messages(value) -> dict | list | str:
    """DRF's error data as plain JSON: ErrorDetail strings become str."""
    if isinstance(value, dict):
        return {str(key): _field_messages(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_field_messages(item) for item in value]
    return str(value)


def validation_response(errors: dict | list) -> Response:
    """400 for a body or query that does not validate: the first message as ``detail``, all in ``fields``."""
    if isinstance(errors, dict):
        first_field = next(iter(errors), None)
        message = _first_message(errors.get(first_field)) if first_field is not None else None
        nonfield = first_field in (None, settings.REST_FRAMEWORK.get("NON_FIELD_ERRORS_KEY", "non_field_errors"))
        detail = message if nonfield or message is None else f"{first_field}: {message}"
        fields = _field_messages(errors)
    else:
        detail, fields = _first_message(errors), {"non_field_errors": _field_messages(errors)}
    return Response(error_body("invalid", detail or _("The request is not valid."), fields=fields), status=400)


def form_invalid(form) -> drf_exceptions.ValidationError:
    """A page's form that refused the input, as the API's 400 ``invalid`` (its messages in ``fields``): raise it."""
    return drf_exceptions.ValidationError(
        {name: [str(message) for message in messages] for name, messages in form.errors.items()}
    )


def exception_handler(exc, context) -> Response | None:
    """DRF's exceptions as the one error shape (``games.api_errors.exception_handler``, DRF's
    ``EXCEPTION_HANDLER``, answers the platform's ``GameError`` and passes the rest here).

    Anything else is left to Django (logged, then turned into the 500 answer by ``ApiErrorMiddleware``).
    """
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body(*status_error(413)), status=413)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    if isinstance(exc, drf_exceptions.ValidationError):
        response = validation_response(exc.detail)
        return response
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code, default = status_error(response.status_code)
    for kind, name in (
        (drf_exceptions.NotAuthenticated, "not_authenticated"),
        (drf_exceptions.AuthenticationFailed, "authentication_failed"),
        (drf_exceptions.ParseError, "parse_error"),
    ):
        if isinstance(exc, kind):
            code = name
    detail = response.data.get("detail") if isinstance(response.data, dict) else None
    if isinstance(exc, drf_exceptions.ParseError) and not isinstance(exc, JsonRefused):
        detail = _("The request body is not valid JSON.")  # not the parser's English
    response.data = error_body(code, detail if detail is not None else default)
    return response


def _is_api(request: HttpRequest) -> bool:
    path = request.path_info
    return path.startswith(API_PREFIX) and not path.startswith(NOT_JSON_PATHS)


class ApiErrorMiddleware:
    """The outermost middleware: errors under /api/ that no API view answered become the error shape."""

    def __init__(self, get_response) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not _is_api(request):
            return self.get_response(request)
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and declared > limit:
            # Refused before anything reads it (Django would answer an HTML 400 from wherever it is read).
            return _json_error(request, 413)
        response = self.get_response(request)
        if response.status_code >= 400 and not response.get("Content-Type", "").startswith("application/json"):
            return _json_error(request, response.status_code, headers=response)
        return response


# The original answer's headers that describe its HTML body, not the request's outcome.
BODY_HEADERS = frozenset({"content-type", "content-length", "content-encoding", "content-disposition", "etag"})


def _json_error(request: HttpRequest, status: int, *, headers: HttpResponse | None = None) -> JsonResponse:
    response = JsonResponse(error_body(*status_error(status)), status=status)
    if headers is not None:
        # Keep the rest (Allow, WWW-Authenticate, Retry-After, Content-Language, Vary, the security headers).
        for name, value in headers.items():
            if name.lower() not in BODY_HEADERS:
                response[name] = value
        response.cookies = headers.cookies
    return response
