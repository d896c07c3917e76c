"""The JSON API of the trust app: API tokens (``POST /api/token/`` under the web login's limits; my tokens,
listed and revoked as in /settings/), a private game's invitation links (per link, revocable), and my data:
its export and the account's deletion (with the password, as on ``/settings/delete/``).

Errors are the API's one shape (``api.errors``): ``{"error": code, "detail": message}``.
"""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from allauth.core import ratelimit
from django.contrib.auth import logout
from django.core.exceptions import ValidationError as DjangoValidationError
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.parsers import FormParser, MultiPartParser
from rest_framework.response import Response
from rest_framework.views import APIView

from api import pagination
from api.errors import error_body, form_invalid
from api.fields import StrictCharField
from api.parsers import SafeJSONParser
from games.api import ApiView, _valid, _visible, errors
from games.exceptions import GameNotFound, NotAllowed, NotSeated
from trust import account, invites
from trust.forms import DeleteAccountForm, deletion_attempt_allowed
from trust.tokens import TokenRefused, issue_token, revoke_token, user_tokens


class TokenRequestSerializer(serializers.Serializer):
    username = StrictCharField(max_length=254, help_text="Username or e-mail address.")
    password = StrictCharField(max_length=4096, trim_whitespace=False)
    name = StrictCharField(
        max_length=60, required=False, allow_blank=True, help_text="Which device or program holds the token."
    )


class TokenResponseSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send it as `Authorization: Token <token>`. Shown only this once.")
    name = serializers.CharField()
    expiry = serializers.DateTimeField(help_text="Pushed forward each time the token is used.")


def _error(code: str, detail, status_code: int) -> Response:
    return Response(error_body(code, detail), status=status_code)


class TokenView(APIView):
    """Exchange username (or e-mail) and password for a named API token; verified accounts only.

    400 `invalid_credentials` for a wrong password, 403 `email_unverified` / `inactive` / `too_many_tokens`,
    429 `throttled` after too many failures (shared with the web login, per account and address).
    """

    permission_classes = [permissions.AllowAny]
    authentication_classes: list = []
    # Also a form, as a login usually is (`curl -d username=... -d password=...`).
    parser_classes = [SafeJSONParser, FormParser, MultiPartParser]
    serializer_class = TokenRequestSerializer

    @extend_schema(
        request=TokenRequestSerializer,
        responses={200: TokenResponseSerializer, **errors(400, 403, 429)},
    )
    def post(self, request):
        django_request = request._request
        too_many = _("Too many attempts. Please wait a few minutes, or sign in with a code sent by e-mail.")
        if not ratelimit.consume(django_request, action="login"):
            return _error("throttled", too_many, status.HTTP_429_TOO_MANY_REQUESTS)
        credentials = _valid(TokenRequestSerializer, request)
        adapter = get_adapter(django_request)
        try:
            user = adapter.authenticate(
                django_request, username=credentials["username"], password=credentials["password"]
            )
        except DjangoValidationError:
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


class ApiTokenSerializer(serializers.Serializer):
    token_key = serializers.CharField(help_text="The token's first characters: what names it to revoke it.")
    name = serializers.CharField()
    created = serializers.DateTimeField()
    last_used_at = serializers.DateTimeField(allow_null=True)
    expiry = serializers.DateTimeField(help_text="It lapses then unless used before.")


class MyTokensView(ApiView):
    """My API tokens still valid, newest first (as /settings/ lists them; never the tokens themselves)."""

    serializer_class = ApiTokenSerializer

    @extend_schema(responses={200: pagination.page_serializer(ApiTokenSerializer)})
    def get(self, request):
        # At most API_TOKENS_PER_USER: one page.
        results = ApiTokenSerializer(user_tokens(request.user), many=True).data
        return Response(pagination.page_body(request, results, next_token=None, previous_token=None))


class RevokeTokenView(ApiView):
    """Revoke one of my API tokens by its `token_key` (the one this request uses too, if it is that one)."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, token_key: str):
        if not revoke_token(user=request.user, token_key=token_key):
            raise GameNotFound(_("You have no such API token."))
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteLinkSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.SerializerMethodField(
        help_text="The link to share: whoever opens it while logged in may watch the waiting room and join."
    )
    token = serializers.CharField(help_text="For a program: POST it as `invite` to `/api/games/{id}/join/`.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField(help_text="It also stops working when the game starts.")
    uses = serializers.IntegerField(help_text="How many times it was opened.")

    def get_url(self, link) -> str:
        return invites.link_url(self.context["request"], link)


def _seated_at_open_game(request, game_id: int):
    access = _visible(request, game_id)
    if access.seat is None:
        raise NotSeated()
    return access


class InviteLinksView(ApiView):
    """A game's usable invitation links (for its seated players), newest first; or make a new one (open games)."""

    serializer_class = InviteLinkSerializer

    @extend_schema(responses={200: pagination.page_serializer(InviteLinkSerializer), **errors(403)})
    def get(self, request, game_id: int):
        access = _seated_at_open_game(request, game_id)
        links = invites.links_for(access.game)
        results = InviteLinkSerializer(links, many=True, context={"request": request}).data
        return Response(pagination.page_body(request, results, next_token=None, previous_token=None))

    @extend_schema(request=None, responses={201: InviteLinkSerializer, **errors(403, 409)})
    def post(self, request, game_id: int):
        _seated_at_open_game(request, game_id)
        link = invites.create_link(user=request.user, game_id=game_id)
        return Response(InviteLinkSerializer(link, context={"request": request}).data, status=status.HTTP_201_CREATED)


class InviteLinkView(ApiView):
    """Revoke an invitation link of a game I have a seat at."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None, **errors(403)})
    def delete(self, request, game_id: int, link_id: int):
        _seated_at_open_game(request, game_id)
        try:
            invites.revoke_link(user=request.user, game_id=game_id, link_id=link_id)
        except NotAllowed:
            raise GameNotFound(_("There is no such invitation link.")) from None
        return Response(status=status.HTTP_204_NO_CONTENT)


# My data ----------------------------------------------------------------------------------------


class AccountExportView(ApiView):
    """Download my data (as `/settings/data/`): the account, its settings, API tokens (names and dates), every game
    with a seat (its public facts, my own moves and my own view only), invitations, e-mails and channels — never a
    token, a webhook's secret, a browser's keys or the feeds' secret. `format` names the archive's layout."""

    serializer_class = None

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request):
        return Response(account.export_data(request.user))


class AccountDeleteSerializer(serializers.Serializer):
    password = StrictCharField(max_length=4096, trim_whitespace=False, help_text="My password, as on the page.")


class AccountDeleteView(ApiView):
    """Delete my account (as `/settings/delete/`), with my password — a token alone is not enough. Personal data
    goes at once; bots take my seats in running games; my open games are left or called off. Every attempt counts
    against the login's limits for failed passwords (429 `throttled`)."""

    serializer_class = AccountDeleteSerializer

    @extend_schema(request=AccountDeleteSerializer, responses={204: None, **errors(429)})
    def post(self, request):
        data = _valid(AccountDeleteSerializer, request)
        if not deletion_attempt_allowed(request._request):
            too_many = _("Too many attempts. Please wait a few minutes, or sign in with a code sent by e-mail.")
            return _error("throttled", too_many, status.HTTP_429_TOO_MANY_REQUESTS)
        form = DeleteAccountForm({"password": data["password"]}, user=request.user)
        if not form.is_valid():
            raise form_invalid(form)
        account.delete_account(user=request.user)
        logout(request._request)  # a session ends with the account (tokens are gone with it)
        return Response(status=status.HTTP_204_NO_CONTENT)
