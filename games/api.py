"""The JSON API (DRF): everything a person can do on the game pages, a program can do here.

Errors are ``{"error": code, "detail": message}`` in the requester's language (``api.errors``, for
every view, route and failure under /api/); lists are ``{"results", "next", "previous"}``
(``api.pagination``); input is strict JSON (``api.fields``). The schema (``/api/schema/``) lists
every status each operation answers (``api.schema``).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch
from django.http import Http404
from django.utils import translation
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response

from api import pagination
from api.parsers import SafeJSONParser
from api.snapshot import snapshot
from games import policies
from games.engines import engine_slugs
from games.exceptions import GameError, GameNotActive, GameNotFound, GameNotOpen, NotSeated
from games.history import selectors as history_selectors
from games.history import services as history_services
from games.history.since import since
from games.lobby import commitments
from games.lobby import selectors as lobby_selectors
from games.lobby import services as lobby_services
from games.models import Game, GameEvent, GameStatus, Invitation, Move, Seat
from games.play import selectors as play_selectors
from games.play import services as play_services
from games.serializers import (
    AddBotSerializer,
    ContributionSerializer,
    CreateGameSerializer,
    DealCommitmentSerializer,
    ErrorSerializer,
    GameDetailSerializer,
    GameLogSerializer,
    GameSummarySerializer,
    InvitationSerializer,
    InviteSerializer,
    JoinSerializer,
    MoveResultSerializer,
    MoveSerializer,
    MyGameSerializer,
    ReplaySerializer,
    RevealSerializer,
    ReviewSerializer,
)

LANGUAGE_CODES = {code for code, _name in settings.LANGUAGES}
MY_GAMES_PER_PAGE = 50
INVITATIONS_PER_PAGE = 50


def errors(*statuses: int) -> dict:
    """Responses of the platform's refusals (401/403/404/400... are added by ``api.schema``)."""
    return dict.fromkeys(statuses, ErrorSerializer)


class ApiView(GenericAPIView):
    """Base of every API view: JSON in and out, login required unless said otherwise, and messages
    in the account's language once the request is authenticated (a token request too: the session
    middleware never sees a token's user)."""

    permission_classes = [permissions.IsAuthenticated]
    parser_classes = [SafeJSONParser]

    def perform_authentication(self, request) -> None:
        user = request.user  # authenticates (a wrong token is refused here, in the browser's language)
        if user.is_authenticated and user.language in LANGUAGE_CODES:
            translation.activate(user.language)
            request._request.LANGUAGE_CODE = user.language


def _valid(serializer_class, request, *, partial: bool = False) -> dict:
    """The validated body, or a 400 ``invalid`` with each field's messages (``api.errors``)."""
    if not isinstance(request.data, dict):
        raise ValidationError({"non_field_errors": [_("The request body must be a JSON object.")]})
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def player(username: str):
    """The active player of that username; 404 ``not_found`` otherwise (the profile, history and league APIs)."""
    user = get_user_model().objects.filter(username=username, is_active=True).first()
    if user is None:
        raise GameNotFound(_("There is no such player."))
    return user


def _seats_prefetch():
    return Prefetch("game__seats", queryset=Seat.objects.select_related("user"))


def _summary(request, game) -> dict:
    game.refresh_from_db()
    return GameSummarySerializer(game, context={"request": request}).data


def _visible(request, game_id: int) -> play_selectors.GameAccess:
    access = play_selectors.game_access(game_id=game_id, user=request.user, session=request.session)
    if access is None or not access.may_view:
        raise GameNotFound()
    return access


# My games, the lobby, creating ------------------------------------------------------------------


class MyGamesView(ApiView):
    """My games in progress and open ones, those awaiting my move first; or create a game.

    Finished games are my match history: `GET /api/users/{username}/history/`.
    """

    serializer_class = MyGameSerializer

    @extend_schema(
        operation_id="games_list",
        parameters=[pagination.PAGE_PARAMETER],
        responses={200: pagination.page_serializer(MyGameSerializer)},
    )
    def get(self, request):
        seats = (
            Seat.objects.filter(
                user=request.user, finished_at__isnull=True, game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE]
            )
            .select_related("game", "user")
            .prefetch_related(_seats_prefetch())
            # Games awaiting me first, the least time left first (the clock that runs out first).
            .order_by("-awaited", F("deadline_at").asc(nulls_last=True), "awaited_since", "-game_id")
        )
        rows, next_token, previous_token = pagination.numbered_page(request, seats, per_page=MY_GAMES_PER_PAGE)
        extra = policies.my_games_extra(user=request.user, game_ids=[seat.game_id for seat in rows])
        context = {"request": request, "chat_unread": {}, **extra}
        results = MyGameSerializer(rows, many=True, context=context).data
        return Response(pagination.page_body(request, results, next_token=next_token, previous_token=previous_token))

    @extend_schema(request=CreateGameSerializer, responses={201: GameSummarySerializer})
    def post(self, request):
        data = _valid(CreateGameSerializer, request)
        game = lobby_services.create_game(
            user=request.user,
            engine_slug=data["game"],
            players=data["players"],
            options=data["options"],
            time_limit_hours=data["time_limit_hours"],
            time_control=data.get("time_control"),
            visibility=data["visibility"],
            bots=data["bots"],
            bot_levels=data.get("bot_levels"),
            rated=data["rated"],
            contribution=data.get("contribution", ""),
            commitment=data.get("commitment", ""),
        )
        return Response(_summary(request, game), status=status.HTTP_201_CREATED)


class CommitmentView(ApiView):
    """Before creating a game: the site fixes its secret and shows its SHA-256 now, before you draw your
    contribution (two-step create; pass it as `commitment` to POST /api/games/)."""

    serializer_class = DealCommitmentSerializer

    @extend_schema(request=None, responses={201: DealCommitmentSerializer})
    def post(self, request):
        made = commitments.commit(user=request.user)
        body = {"commitment": made.secret_sha256, "expires_at": made.created_at + commitments.COMMITMENT_LIFETIME}
        return Response(DealCommitmentSerializer(body).data, status=status.HTTP_201_CREATED)


class LobbyView(ApiView):
    """Open public games with a free seat, newest first."""

    serializer_class = GameSummarySerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("game", str, enum=engine_slugs(), description="Only games of this kind."),
            pagination.PAGE_PARAMETER,
        ],
        responses={200: pagination.page_serializer(GameSummarySerializer)},
    )
    def get(self, request):
        slug = request.query_params.get("game")
        if slug is not None and slug not in engine_slugs():
            raise ValidationError({"game": [_("This is not one of the allowed values.")]})
        games = lobby_selectors.lobby_games(engine_slug=slug, page=1).paginator.object_list
        rows, next_token, previous_token = pagination.numbered_page(
            request, games, per_page=lobby_selectors.LOBBY_PER_PAGE
        )
        results = GameSummarySerializer(rows, many=True, context={"request": request}).data
        return Response(pagination.page_body(request, results, next_token=next_token, previous_token=previous_token))


# One game ---------------------------------------------------------------------------------


class GameView(ApiView):
    """A game as I may see it: my view (or the spectators'), my legal moves and the version — all of one
    version (one database snapshot), so a move chosen from it with that version is not stale."""

    serializer_class = GameDetailSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "since", int, description="A version I saw: the answer's `since` says what changed for me after it."
            )
        ],
        responses={200: GameDetailSerializer},
    )
    def get(self, request, game_id: int):
        since_version = _since_param(request)
        with snapshot():
            access = _visible(request, game_id)
            game = access.game
            view, legal, log_size, seat_view = {}, [], 0, None
            if game.status in (GameStatus.ACTIVE, GameStatus.FINISHED):
                seat_view = play_selectors.seat_view_for(game=game, seat_number=access.seat_number)
                if seat_view is not None:
                    view, log_size = {**seat_view.view, "log": seat_view.log_tail}, seat_view.log_size
                    if access.seat is not None and not access.seat.is_bot:
                        legal = seat_view.legal_moves
            context = {"request": request, "seats": {game.pk: access.seats}}
            body = {
                "game": GameSummarySerializer(game, context=context).data,
                "seat": access.seat_number,
                "version": game.version,
                "view": view,
                "log_size": log_size,
                "legal_moves": legal,
                "my_move": bool(legal) and game.status == GameStatus.ACTIVE,
            }
            if since_version is not None:
                changed = None
                if seat_view is not None:
                    players = play_selectors.player_dicts(access.seats)
                    changed = since(
                        game=game,
                        seat_number=access.seat_number,
                        version=since_version,
                        players=players,
                        seat_view=seat_view,
                    )
                body["since"] = changed.as_json() if changed is not None else None
        return Response(body)


def _since_param(request) -> int | None:
    """``?since=<version>``: a whole number ≥ 0, else 400."""
    raw = request.query_params.get("since")
    if raw is None:
        return None
    if not raw.isdigit() or len(raw) > 12:
        raise ValidationError({"since": [_("Give a version: a whole number, 0 or more.")]})
    return int(raw)


class MoveView(ApiView):
    """Submit a move with the version it was chosen at.

    409 `stale` when, since that version, my seat has moved or my legal moves changed (another
    player's move that leaves my choices as they were — a Konamon! neighbour choosing at the same
    time — does not make mine stale); 400 when `expected_version` is above the game's.
    """

    serializer_class = MoveSerializer

    @extend_schema(request=MoveSerializer, responses={200: MoveResultSerializer, **errors(409)})
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


class GameLogView(ApiView):
    """My whole log of a started game (from my own view), with the table's events, oldest first."""

    serializer_class = GameLogSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: GameLogSerializer, **errors(409)})
    def get(self, request, game_id: int):
        from games.ui import describe_event

        with snapshot():
            access = _visible(request, game_id)
            game = access.game
            if game.status not in (GameStatus.ACTIVE, GameStatus.FINISHED):
                raise GameNotActive()
            seat_view, log = history_selectors.seat_view_with_log(game=game, seat_number=access.seat_number)
            entries = play_selectors.log_entries(
                game=game, seat_view=seat_view, seat_number=access.seat_number, full_log=log
            )
            players = play_selectors.player_dicts(access.seats)
            version = game.version
        out = []
        for entry in entries:
            if entry.kind == "engine":
                text = describe_event(game.engine_slug, entry.event, players)
                out.append({"kind": "engine", "event": entry.event, "text": str(text)})
            else:
                event = entry.platform
                out.append(
                    {
                        "kind": "platform",
                        "event": {"type": event.kind, "seat": event.seat_number, "name": event.name},
                        "text": platform_event_text(event),
                    }
                )
        return Response({"version": version, "entries": out})


def platform_event_text(event: GameEvent) -> str:
    """The table's events as the game page words them (the same catalogue entries)."""
    name = event.name or _("A player")
    texts = {
        GameEvent.Kind.JOINED: lambda: _("%(name)s took a seat.") % {"name": name},
        GameEvent.Kind.STARTED: lambda: _(
            "The game started. Seats and the first player were drawn from the game's seed."
        ),
        GameEvent.Kind.TIMEOUT: lambda: _("%(name)s ran out of time: the bot moved for them.") % {"name": name},
        GameEvent.Kind.DROPPED_OUT: lambda: _(
            "%(name)s ran out of time three times and dropped out: the bot plays their seat now."
        )
        % {"name": name},
        GameEvent.Kind.CANCELLED: lambda: _("The game was cancelled."),
        GameEvent.Kind.FORCED_MOVE: lambda: _("%(name)s had only one possible move: it was played for them.")
        % {"name": name},
    }
    return str(texts[event.kind]()) if event.kind in texts else str(event.kind)


class ReplayView(ApiView):
    """After the end: a seat's view after any number of moves, rebuilt from the seed and the moves."""

    serializer_class = ReplaySerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("step", int, description="Moves played (0: the deal); clamped to the game's length."),
            OpenApiParameter("seat", int, description="Whose view (default: mine, else seat 0); clamped to the seats."),
        ],
        responses={200: ReplaySerializer, **errors(409)},
    )
    def get(self, request, game_id: int):
        access = _visible(request, game_id)
        game = access.game
        if game.status != GameStatus.FINISHED:
            raise GameNotActive(_("The replay opens when the game has ended."))
        step = _query_int(request, "step", 0)
        seat = _query_int(request, "seat", access.seat_number if access.seat_number is not None else 0)
        seat = max(0, min(seat, game.players - 1))
        state, last, total = history_services.replay_step(game, step)
        return Response(
            {
                "step": max(0, min(step, total)),
                "total": total,
                "seat": seat,
                "last_move": _move_dict(last),
                "view": game.engine.view(state, seat),
            }
        )


class ReviewView(ApiView):
    """After the end: the review of my own decisions (issue 28), judged by the strong search from what my seat
    could see at each moment. Only a seat's own player gets it."""

    serializer_class = ReviewSerializer

    @extend_schema(responses={200: ReviewSerializer, **errors(409)})
    def get(self, request, game_id: int):
        from games.history import review as reviews

        access = _visible(request, game_id)
        game = access.game
        if access.seat_number is None:
            raise Http404
        if game.status != GameStatus.FINISHED:
            raise GameNotActive(_("The review opens when the game has ended."))
        found = reviews.review_of(game=game, seat_number=access.seat_number)
        fields = ("sequence", "mark", "loss", "played_value", "best_value", "played", "best")
        entries = [
            {name: entry[name] for name in fields}
            for entry in (reviews.entry_for_language(raw) for raw in (found.entries if found else []))
        ]
        status_text = "ready" if found else ("pending" if reviews.reviews_available(game) else "none")
        return Response(
            {
                "status": status_text,
                "seat": access.seat_number,
                "iterations": found.iterations if found else None,
                "skipped": found.skipped if found else 0,
                "entries": entries,
            }
        )


def _move_dict(move: Move | None) -> dict | None:
    if move is None:
        return None
    return {"sequence": move.sequence, "seat": move.seat_number, "move": move.move, "made_by": move.made_by}


def _query_int(request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    value = raw[1:] if raw.startswith("-") else raw
    if not value.isdigit() or len(value) > 9:
        raise ValidationError({name: [_("A whole number is required.")]})
    return int(raw)


class RevealView(ApiView):
    """After the end: the ranking, the seed and the final state with every hand revealed."""

    serializer_class = RevealSerializer
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses={200: RevealSerializer, **errors(409)})
    def get(self, request, game_id: int):
        access = _visible(request, game_id)
        game = access.game
        if game.status != GameStatus.FINISHED:
            raise GameNotActive(_("Every hand is revealed when the game has ended."))
        state = {key: value for key, value in history_services.final_state(game).items() if key != "log"}
        return Response(
            {
                "outcome": GameSummarySerializer(game, context={"seats": {game.pk: access.seats}}).data["outcome"],
                "seed": game.revealed_seed,
                "state": state,
            }
        )


# Before the start: seats, bots, invitations ---------------------------------------------------


class JoinView(ApiView):
    """Take a seat at an open game (private games: with an invitation to me or a link's token)."""

    serializer_class = JoinSerializer

    @extend_schema(request=JoinSerializer, responses={200: GameSummarySerializer, **errors(409)})
    def post(self, request, game_id: int):
        data = _valid(JoinSerializer, request)
        seat = lobby_services.join_game(
            user=request.user,
            game_id=game_id,
            invite=data.get("invite") or None,
            contribution=data.get("contribution", ""),
        )
        return Response(_summary(request, seat.game))


class ContributionView(ApiView):
    """Send my contribution to the deal, if I took my seat without one; once set it never changes (409)."""

    serializer_class = ContributionSerializer

    @extend_schema(request=ContributionSerializer, responses={200: GameSummarySerializer, **errors(409)})
    def post(self, request, game_id: int):
        data = _valid(ContributionSerializer, request)
        seat = lobby_services.contribute(user=request.user, game_id=game_id, contribution=data["contribution"])
        return Response(_summary(request, seat.game))


class LeaveView(ApiView):
    """Give up my seat before the start (the creator cancels instead)."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None, **errors(409)})
    def post(self, request, game_id: int):
        lobby_services.leave_game(user=request.user, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CancelView(ApiView):
    """Call off my game before it starts (its creator only)."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None, **errors(409)})
    def post(self, request, game_id: int):
        lobby_services.cancel_game(user=request.user, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotsView(ApiView):
    """Before the start, the creator adds a bot in a free seat (the game starts when the seats are
    full) or takes the last bot away."""

    serializer_class = None

    @extend_schema(request=AddBotSerializer, responses={200: GameSummarySerializer, **errors(400, 409)})
    def post(self, request, game_id: int):
        data = _valid(AddBotSerializer, request)
        seat = lobby_services.add_bot(user=request.user, game_id=game_id, level=data["level"])
        return Response(_summary(request, Game.objects.get(pk=seat.game_id)))

    @extend_schema(request=None, responses={200: GameSummarySerializer, **errors(400, 409)})
    def delete(self, request, game_id: int):
        lobby_services.remove_bot(user=request.user, game_id=game_id)
        return Response(_summary(request, Game.objects.get(pk=game_id)))


class InviteView(ApiView):
    """Invite a user by username to an open game I have a seat at (they get an e-mail)."""

    serializer_class = InviteSerializer

    @extend_schema(request=InviteSerializer, responses={201: InvitationSerializer, **errors(409)})
    def post(self, request, game_id: int):
        data = _valid(InviteSerializer, request)
        invitation = lobby_services.invite_user(user=request.user, game_id=game_id, username=data["username"])
        invitation = Invitation.objects.select_related("user", "invited_by").get(pk=invitation.pk)
        return Response(InvitationSerializer(invitation).data, status=status.HTTP_201_CREATED)


class InviteSuggestionSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="Send it as `username` to `/api/games/{id}/invitations/`.")
    display_name = serializers.CharField(allow_blank=True, help_text="Empty when they show their username.")


class InviteSuggestionsView(ApiView):
    """Whom I may invite to an open game I have a seat at, as the invitation box offers them while one types: those
    whose username starts with `q` or whose display name contains it; with fewer than two characters, the players
    of my latest games. Never me, anyone seated or invited already, nor anyone I blocked or who blocked me."""

    serializer_class = InviteSuggestionSerializer

    @extend_schema(
        parameters=[OpenApiParameter("q", str, description="What is typed so far (spaces collapsed).")],
        responses={200: pagination.page_serializer(InviteSuggestionSerializer), **errors(403, 409)},
    )
    def get(self, request, game_id: int):
        access = _visible(request, game_id)
        if access.seat is None:
            raise NotSeated()
        if access.game.status != GameStatus.OPEN:
            raise GameNotOpen()
        users = lobby_selectors.invite_suggestions(
            game=access.game, user=request.user, query=request.query_params.get("q", "")
        )
        results = InviteSuggestionSerializer(users, many=True).data
        return Response(pagination.page_body(request, results, next_token=None, previous_token=None))


class MyInvitationsView(ApiView):
    """Invitations to open games waiting for my answer, newest first (join or decline them)."""

    serializer_class = InvitationSerializer

    @extend_schema(
        parameters=[pagination.PAGE_PARAMETER], responses={200: pagination.page_serializer(InvitationSerializer)}
    )
    def get(self, request):
        pending = (
            Invitation.objects.filter(
                user=request.user, status=Invitation.Status.PENDING, game__status=GameStatus.OPEN
            )
            .select_related("user", "invited_by")
            .order_by("-created_at", "-id")
        )
        rows, next_token, previous_token = pagination.numbered_page(request, pending, per_page=INVITATIONS_PER_PAGE)
        results = InvitationSerializer(rows, many=True).data
        return Response(pagination.page_body(request, results, next_token=next_token, previous_token=previous_token))


class DeclineInvitationView(ApiView):
    """Decline an invitation to me."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None})
    def post(self, request, invitation_id: int):
        try:
            lobby_services.decline_invitation(user=request.user, invitation_id=invitation_id)
        except GameError:
            raise GameNotFound(_("There is no such invitation for you.")) from None
        return Response(status=status.HTTP_204_NO_CONTENT)

