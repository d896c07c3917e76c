"""The OpenAPI schema says every status an operation can answer, each with the error shape.

``ApiAutoSchema`` adds to what a view declares the errors any operation of its kind can give, so a
new endpoint is documented right without listing them: 401 everywhere (a wrong token is refused
even where no login is needed), 403 for writes (CSRF with a session), 404 where the path has an id,
400/413/415 where there is a body, 400 where there are query parameters.
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_basic_type
from drf_spectacular.types import OpenApiTypes
from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField(help_text="A stable code, e.g. `stale`, `not_your_turn`, `invalid`, `not_found`.")
    detail = serializers.CharField(help_text="What went wrong, in the requester's language.")
    fields = serializers.DictField(
        required=False,
        help_text="Only for `invalid` (400) input: the messages of each field that is wrong.",
    )


class ApiAutoSchema(AutoSchema):
    def _error_statuses(self) -> set[int]:
        statuses = {401}
        if self.method not in ("GET", "HEAD", "OPTIONS"):
            statuses.add(403)
        if "{" in self.path:
            statuses.add(404)
        if self.method in ("POST", "PUT", "PATCH") and self.get_request_serializer() is not None:
            statuses |= {400, 413, 415}
        if any(parameter.get("in") == "query" for parameter in self._get_parameters()):
            statuses.add(400)
        return statuses

    def _get_response_bodies(self, direction="response"):
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        for status in sorted(self._error_statuses()):
            if str(status) not in responses:
                responses[str(status)] = self._get_response_for_code(ErrorSerializer, str(status), direction=direction)
        return responses

    def _get_response_headers_for_code(self, status_code, direction="response"):
        headers = super()._get_response_headers_for_code(status_code, direction)
        if str(status_code) == "401":
            headers["WWW-Authenticate"] = {
                "schema": build_basic_type(OpenApiTypes.STR),
                "description": "`Token`: send `Authorization: Token <key>` (from `POST /api/token/`).",
            }
        return headers
