"""``POST /api/token/``: a named API token for username (or e-mail) and password, under the web login's limits."""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from allauth.core import ratelimit
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.serializers import ErrorSerializer
from trust.tokens import TokenRefused, issue_token


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=254, help_text="Username or e-mail address.")
    password = serializers.CharField(max_length=4096, trim_whitespace=False)
    name = serializers.CharField(
        max_length=60, required=False, allow_blank=True, help_text="Which device or program holds the token."
    )


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`. Shown only this once.")
    name = serializers.CharField()
    expiry = serializers.DateTimeField(help_text="Pushed forward each time the token is used.")


def _error(code: str, detail, status_code: int) -> Response:
    return Response({"error": code, "detail": detail}, status=status_code)


class TokenView(APIView):
    """Exchange username (or e-mail) and password for a named API token; verified accounts only."""

    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    serializer_class = TokenRequestSerializer

    def get_exception_handler(self):
        from games.api import api_exception_handler

        return api_exception_handler

    @extend_schema(
        request=TokenRequestSerializer,
        responses={200: TokenResponseSerializer, 400: ErrorSerializer, 403: ErrorSerializer, 429: ErrorSerializer},
    )
    def post(self, request):
        django_request = request._request
        too_many = _("Too many attempts. Please wait a few minutes, or sign in with a code sent by e-mail.")
        if not ratelimit.consume(django_request, action="login"):
            return _error("throttled", too_many, status.HTTP_429_TOO_MANY_REQUESTS)
        data = request.data if hasattr(request.data, "get") else {}
        serializer = TokenRequestSerializer(data=data)
        if not serializer.is_valid():
            return _error("invalid", serializer.errors, status.HTTP_400_BAD_REQUEST)
        credentials = serializer.validated_data
        adapter = get_adapter(django_request)
        try:
            user = adapter.authenticate(
                django_request, username=credentials["username"], password=credentials["password"]
            )
        except ValidationError:
            return _error("throttled", too_many, status.HTTP_429_TOO_MANY_REQUESTS)
        if user is None:
            return _error(
                "invalid_credentials", _("The username or password is not correct."), status.HTTP_400_BAD_REQUEST
            )
        try:
            row, token = issue_token(user=user, name=credentials.get("name") or "")
        except TokenRefused as refused:
            return _error(refused.code, refused.message, refused.status)
        return Response({"token": token, "name": row.name, "expiry": row.expiry})
