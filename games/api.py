"""The JSON API (DRF): my games, my view and legal moves, moves, creating and joining.

Errors are ``{"error": code, "detail": message}`` with the platform's translated
messages: 409 stale version / game not open, 403 not seated / not your turn,
400 illegal or malformed input, 401 without credentials.
"""

from __future__ import annotations

from django.db.models import Prefetch
from django.http import Http404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import exceptions as drf_exceptions
from rest_framework import permissions, status
from rest_framework.generics import GenericAPIView
from rest_framework.pagination import PageNumberPagination
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engines import engine_slugs
from games.exceptions import GameError
from games.history import selectors as history_selectors
from games.lobby import selectors as lobby_selectors
from games.lobby import services as lobby_services
from games.models import GameStatus, Seat
from games.play import selectors as play_selectors
from games.play import services as play_services
from games.serializers import (
    CreateGameSerializer,
    ErrorSerializer,
    GameDetailSerializer,
    GameSummarySerializer,
    JoinSerializer,
    MoveResultSerializer,
    MoveSerializer,
    MyGameSerializer,
)

ERRORS = {400: ErrorSerializer, 401: ErrorSerializer, 403: ErrorSerializer, 404: ErrorSerializer, 409: ErrorSerializer}


def api_exception_handler(exc, context):
    """Platform and DRF errors alike as ``{"error": code, "detail": message}``."""
    if isinstance(exc, GameError):
        return Response({"error": exc.code, "detail": exc.message}, status=exc.status)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    code = getattr(exc, "default_code", "error")
    detail = response.data.get("detail", response.data) if isinstance(response.data, dict) else response.data
    response.data = {"error": code, "detail": detail}
    return response


class ApiView(GenericAPIView):
    permission_classes = [permissions.IsAuthenticated]

    def get_exception_handler(self):
        return api_exception_handler


def seats_prefetch():
    return Prefetch("game__seats", queryset=Seat.objects.select_related("user"))


class MyGamesView(ApiView):
    """My games (open, in progress and finished), games awaiting my move first; or create a game."""

    serializer_class = MyGameSerializer
    pagination_class = PageNumberPagination

    @extend_schema(responses={200: MyGameSerializer(many=True), **ERRORS})
    def get(self, request):
        seats = (
            Seat.objects.filter(
                user=request.user,
                game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE, GameStatus.FINISHED, GameStatus.ABANDONED],
            )
            .select_related("game", "user")
            .prefetch_related(seats_prefetch())
            .order_by("-awaited", "awaited_since", "-game__finished_at", "-game_id")
        )
        page = self.paginate_queryset(seats)
        from together.selectors import unread_counts

        unread = unread_counts(user=request.user, game_ids=[seat.game_id for seat in page])
        context = {"request": request, "chat_unread": unread}
        return self.get_paginated_response(MyGameSerializer(page, many=True, context=context).data)

    @extend_schema(request=CreateGameSerializer, responses={201: GameSummarySerializer, **ERRORS})
    def post(self, request):
        data = _valid(CreateGameSerializer, request)
        game = lobby_services.create_game(
            user=request.user,
            engine_slug=data["game"],
            players=data["players"],
            options=data["options"],
            time_limit_hours=data["time_limit_hours"],
            visibility=data["visibility"],
            bots=data["bots"],
            rated=data["rated"],
        )
        return Response(GameSummarySerializer(game, context={"request": request}).data, status=status.HTTP_201_CREATED)


class LobbyView(ApiView):
    """Open public games with a free seat."""

    serializer_class = GameSummarySerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("game", str, enum=engine_slugs()), OpenApiParameter("page", int)],
        responses={200: GameSummarySerializer(many=True)},
    )
    def get(self, request):
        slug = request.query_params.get("game")
        page = lobby_selectors.lobby_games(
            engine_slug=slug if slug in engine_slugs() else None, page=request.query_params.get("page")
        )
        return Response(
            {
                "count": page.paginator.count,
                "page": page.number,
                "results": GameSummarySerializer(page.object_list, many=True, context={"request": request}).data,
            }
        )


class GameView(ApiView):
    """A game as I may see it: my view (or the spectators'), my legal moves and the version."""

    serializer_class = GameDetailSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GameDetailSerializer, **ERRORS})
    def get(self, request, game_id: int):
        access = play_selectors.game_access(game_id=game_id, user=request.user, session=request.session)
        if access is None or not access.may_view:
            raise Http404
        game = access.game
        view, legal = {}, []
        if game.status in (GameStatus.ACTIVE, GameStatus.FINISHED):
            seat_view, log = history_selectors.seat_view_with_log(game=game, seat_number=access.seat_number)
            if seat_view is not None:
                view = {**seat_view.view, "log": log}
                if access.seat is not None and not access.seat.is_bot:
                    legal = seat_view.legal_moves
        context = {"request": request, "seats": {game.pk: access.seats}}
        return Response(
            {
                "game": GameSummarySerializer(game, context=context).data,
                "seat": access.seat_number,
                "version": game.version,
                "view": view,
                "legal_moves": legal,
            }
        )


class MoveView(ApiView):
    """Submit a move with the version it was chosen at (409 if the game has moved on for my seat)."""

    serializer_class = MoveSerializer

    @extend_schema(request=MoveSerializer, responses={200: MoveResultSerializer, **ERRORS})
    def post(self, request, game_id: int):
        data = _valid(MoveSerializer, request)
        result = play_services.check_play_move(
            user=request.user,
            game_id=game_id,
            move=data["move"],
            expected_version=data["expected_version"],
            idempotency_key=data.get("idempotency_key"),
        )
        return Response(
            {"applied": not result.replayed, "sequence": result.move.sequence, "version": result.game.version}
        )


class JoinView(ApiView):
    """Take a seat at an open game (private games: with an invitation or the link's token)."""

    serializer_class = JoinSerializer

    @extend_schema(request=JoinSerializer, responses={200: GameSummarySerializer, **ERRORS})
    def post(self, request, game_id: int):
        data = _valid(JoinSerializer, request)
        seat = lobby_services.join_game(user=request.user, game_id=game_id, invite=data.get("invite") or None)
        seat.game.refresh_from_db()
        return Response(GameSummarySerializer(seat.game, context={"request": request}).data)


class LeaveView(ApiView):
    """Give up my seat before the start."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def post(self, request, game_id: int):
        lobby_services.leave_game(user=request.user, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


def _valid(serializer_class, request) -> dict:
    serializer = serializer_class(data=request.data if isinstance(request.data, dict) else {})
    if not serializer.is_valid():
        raise drf_exceptions.ValidationError(serializer.errors)
    return serializer.validated_data
