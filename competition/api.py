"""The JSON API of ratings, leaderboards and leagues; errors as in games.api."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, status
from rest_framework.response import Response

from accounts.models import User
from competition import leagues as league_services
from competition import selectors
from competition.models import League, LeagueStatus
from competition.serializers import (
    CreateLeagueSerializer,
    LeaderboardSerializer,
    LeagueDetailSerializer,
    LeagueSerializer,
    PlayerRatingSerializer,
)
from games.api import ERRORS, ApiView, _valid
from games.engines import engine_slugs

PAGE_PARAM = OpenApiParameter("page", str, description="A `next` or `previous` token of a page; none: the top.")


def _rating_fields(shown) -> dict:
    return {"rating": shown.value, "provisional": shown.provisional, "games": shown.games}


class LeaderboardView(ApiView):
    """Active players of one game (a rated game in the last 90 days), best rated first, 50 a page."""

    serializer_class = LeaderboardSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(parameters=[PAGE_PARAM], responses={200: LeaderboardSerializer, **ERRORS})
    def get(self, request, slug: str):
        if slug not in engine_slugs():
            raise Http404
        page = selectors.leaderboard(engine_slug=slug, page=request.query_params.get("page"))
        rows = [
            {"rank": r.rank, "username": r.username, "name": r.name, "mu": r.mu, "sigma": r.sigma,
             "last_game_at": r.last_game_at, **_rating_fields(r.rating)}
            for r in page.rows
        ]
        data = {"game": slug, "results": rows, "next": page.next, "previous": page.previous}
        return Response(LeaderboardSerializer(data).data)


class PlayerRatingsView(ApiView):
    """A player's rating in each game they have played rated, with the latest changes."""

    serializer_class = PlayerRatingSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: PlayerRatingSerializer(many=True), **ERRORS})
    def get(self, request, username: str):
        user = get_object_or_404(User, username=username, is_active=True)
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
        return Response(PlayerRatingSerializer(data, many=True).data)


class LeaguesView(ApiView):
    """Leagues (newest first, 50; ``status`` filters), or create one (you are its first player)."""

    serializer_class = LeagueSerializer

    def get_permissions(self):
        return [permissions.AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(
        parameters=[OpenApiParameter("status", str, enum=list(LeagueStatus.values))],
        responses={200: LeagueSerializer(many=True), **ERRORS},
    )
    def get(self, request):
        leagues = League.objects.select_related("winner").order_by("-created_at")
        wanted = request.query_params.get("status")
        if wanted in LeagueStatus.values:
            leagues = leagues.filter(status=wanted)
        return Response(LeagueSerializer(leagues[:50], many=True, context={"request": request}).data)

    @extend_schema(request=CreateLeagueSerializer, responses={201: LeagueSerializer, **ERRORS})
    def post(self, request):
        data = _valid(CreateLeagueSerializer, request)
        league = league_services.create_league(
            user=request.user, name=data["name"], engine_slug=data["game"],
            players_per_game=data["players_per_game"], signup_until=data["signup_until"],
            time_limit_hours=data["time_limit_hours"],
        )
        return Response(LeagueSerializer(league, context={"request": request}).data, status=status.HTTP_201_CREATED)


def _detail(request, league_id: int) -> Response:
    league = get_object_or_404(League.objects.select_related("winner"), pk=league_id)
    table = league_services.standings(league=league)
    data = {"league": league, "standings": table.rows, "games": table.games}
    return Response(LeagueDetailSerializer(data, context={"request": request}).data)


class LeagueView(ApiView):
    """One league: its standings now and its games."""

    serializer_class = LeagueDetailSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: LeagueDetailSerializer, **ERRORS})
    def get(self, request, league_id: int):
        return _detail(request, league_id)


class LeagueSignUpView(ApiView):
    """Sign up (again: nothing changes) while sign-ups are open; 409 after."""

    serializer_class = None

    @extend_schema(request=None, responses={200: LeagueDetailSerializer, **ERRORS})
    def post(self, request, league_id: int):
        get_object_or_404(League, pk=league_id)
        league_services.sign_up(user=request.user, league_id=league_id)
        return _detail(request, league_id)


class LeagueWithdrawView(ApiView):
    """Take one's sign-up back while sign-ups are open; 409 after."""

    serializer_class = None

    @extend_schema(request=None, responses={200: LeagueDetailSerializer, **ERRORS})
    def post(self, request, league_id: int):
        get_object_or_404(League, pk=league_id)
        league_services.withdraw(user=request.user, league_id=league_id)
        return _detail(request, league_id)


