"""The JSON API of ratings, leaderboards and leagues: errors, lists and input as in games.api."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from api import pagination
from competition import leagues as league_services
from competition import selectors
from competition.models import League, LeagueStatus
from competition.serializers import (
    CreateLeagueSerializer,
    LeaderboardRowSerializer,
    LeagueDetailSerializer,
    LeagueSerializer,
    PlayerRatingSerializer,
)
from games.api import ApiView, _valid, errors, player
from games.engines import engine_slugs
from games.exceptions import GameNotFound

LEAGUES_PER_PAGE = 50


def _rating_fields(shown) -> dict:
    return {"rating": shown.value, "provisional": shown.provisional, "games": shown.games}


class LeaderboardView(ApiView):
    """Active players of one game (a rated game in the last 90 days), best rated first, 50 a page."""

    serializer_class = LeaderboardRowSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[pagination.PAGE_PARAMETER], responses={200: pagination.page_serializer(LeaderboardRowSerializer)}
    )
    def get(self, request, slug: str):
        if slug not in engine_slugs():
            raise GameNotFound(_("There is no such game on this site."))
        page = selectors.leaderboard(engine_slug=slug, page=request.query_params.get("page"))
        rows = [
            {"rank": r.rank, "username": r.username, "name": r.name, "mu": r.mu, "sigma": r.sigma,
             "last_game_at": r.last_game_at, **_rating_fields(r.rating)}
            for r in page.rows
        ]
        results = LeaderboardRowSerializer(rows, many=True).data
        return Response(pagination.page_body(request, results, next_token=page.next, previous_token=page.previous))


class PlayerRatingsView(ApiView):
    """A player's rating in each game they have played rated, with the latest changes."""

    serializer_class = PlayerRatingSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: pagination.page_serializer(PlayerRatingSerializer)})
    def get(self, request, username: str):
        user = player(username)
        data = [
            {
                "game": entry.engine_slug, "mu": entry.mu, "sigma": entry.sigma, "last_game_at": entry.last_game_at,
                "history": [
                    {"game_id": c.game_id, "place": c.rank, "rating": c.conservative, "at": c.at}
                    for c in entry.history
                ],
                **_rating_fields(entry.rating),
            }
            for entry in selectors.player_ratings(user=user)
        ]
        # One entry per game on the site: always one page.
        results = PlayerRatingSerializer(data, many=True).data
        return Response(pagination.page_body(request, results, next_token=None, previous_token=None))


class LeaguesView(ApiView):
    """Leagues, newest first (``status`` filters); or create one (you are its first player)."""

    serializer_class = LeagueSerializer

    def get_permissions(self):
        return [permissions.AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(
        operation_id="leagues_list",
        parameters=[
            OpenApiParameter("status", str, enum=list(LeagueStatus.values), description="Only leagues in this state."),
            pagination.PAGE_PARAMETER,
        ],
        responses={200: pagination.page_serializer(LeagueSerializer)},
    )
    def get(self, request):
        leagues = League.objects.select_related("winner").order_by("-created_at")
        wanted = request.query_params.get("status")
        if wanted is not None and wanted not in LeagueStatus.values:
            # What the schema's enum says (the API conformance test sends the others).
            raise ValidationError({"status": [_("This is not one of the allowed values.")]})
        if wanted is not None:
            leagues = leagues.filter(status=wanted)
        rows, next_token, previous_token = pagination.numbered_page(request, leagues, per_page=LEAGUES_PER_PAGE)
        results = LeagueSerializer(rows, many=True, context={"request": request}).data
        return Response(pagination.page_body(request, results, next_token=next_token, previous_token=previous_token))

    @extend_schema(request=CreateLeagueSerializer, responses={201: LeagueSerializer})
    def post(self, request):
        data = _valid(CreateLeagueSerializer, request)
        league = league_services.create_league(
            user=request.user, name=data["name"], engine_slug=data["game"],
            players_per_game=data["players_per_game"], signup_until=data["signup_until"],
            time_limit_hours=data["time_limit_hours"],
        )
        return Response(LeagueSerializer(league, context={"request": request}).data, status=status.HTTP_201_CREATED)


def _league(queryset, league_id: int) -> League:
    league = queryset.filter(pk=league_id).first()
    if league is None:
        raise league_services.NoSuchLeague()
    return league


def _detail(request, league_id: int) -> Response:
    league = _league(League.objects.select_related("winner"), league_id)
    table = league_services.standings(league=league)
    data = {"league": league, "standings": table.rows, "games": table.games}
    return Response(LeagueDetailSerializer(data, context={"request": request}).data)


class LeagueView(ApiView):
    """One league: its standings now and its games."""

    serializer_class = LeagueDetailSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: LeagueDetailSerializer})
    def get(self, request, league_id: int):
        return _detail(request, league_id)


class LeagueSignUpView(ApiView):
    """Sign up (again: nothing changes) while sign-ups are open; 409 after."""

    serializer_class = None

    @extend_schema(request=None, responses={200: LeagueDetailSerializer, **errors(409)})
    def post(self, request, league_id: int):
        _league(League.objects, league_id)
        league_services.sign_up(user=request.user, league_id=league_id)
        return _detail(request, league_id)


class LeagueWithdrawView(ApiView):
    """Take one's sign-up back while sign-ups are open; 409 after."""

    serializer_class = None

    @extend_schema(request=None, responses={200: LeagueDetailSerializer, **errors(409)})
    def post(self, request, league_id: int):
        _league(League.objects, league_id)
        league_services.withdraw(user=request.user, league_id=league_id)
        return _detail(request, league_id)


