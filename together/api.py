"""The JSON API of playing together (DRF, in the OpenAPI schema): chat, note, resign, call off, hand over,
rematch, block and report. Errors are the API's one shape (``api.errors``), lists its one page shape
(``api.pagination``), input strict JSON (``api.fields``)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.utils.urls import replace_query_param

from api.fields import StrictBooleanField, StrictCharField, StrictChoiceField, StrictIntegerField
from api.pagination import page_serializer
from games.api import ApiView, _query_int, _valid, _visible, errors, player
from games.exceptions import GameNotFound
from together import moderation, rematch, selectors, services
from together.models import CHAT_MAX_LENGTH, NOTE_MAX_LENGTH, REPORT_DETAILS_MAX_LENGTH, CallOff, Report
from together.rules import notes_allowed

CHAT_PAGE = 100


class ChatMessageSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    seat = serializers.IntegerField(source="seat_number", allow_null=True)
    name = serializers.CharField(source="author_name")
    username = serializers.SerializerMethodField()
    text = serializers.SerializerMethodField(help_text="Plain text as typed (escape it to show it); empty if removed.")
    removed = serializers.BooleanField(
        source="is_removed", help_text="Removed by a moderator, or with its author's account (then `username` is null)."
    )
    created_at = serializers.DateTimeField()

    def get_text(self, message) -> str:
        return "" if message.is_removed else message.text

    def get_username(self, message) -> str | None:
        return message.author.username if message.author_id else None


class ChatPostSerializer(serializers.Serializer):
    text = StrictCharField(max_length=CHAT_MAX_LENGTH, trim_whitespace=False)


class NoteSerializer(serializers.Serializer):
    note = StrictCharField(max_length=NOTE_MAX_LENGTH, allow_blank=True, trim_whitespace=False)


class NoteOutSerializer(serializers.Serializer):
    note = serializers.CharField()
    updated_at = serializers.DateTimeField(allow_null=True)
    allowed = serializers.BooleanField(
        help_text="False where the rules forbid memory aids (Mamma Mia!, strict memory)."
    )


class CallOffSerializer(serializers.ModelSerializer):
    proposed_by = serializers.SerializerMethodField()

    class Meta:
        model = CallOff
        fields = [
            "status",
            "proposed_by",
            "proposer_seat",
            "accepted_seats",
            "declined_seat",
            "created_at",
            "expires_at",
            "settled_at",
        ]

    def get_proposed_by(self, proposal) -> str | None:
        return proposal.proposed_by.username if proposal.proposed_by_id else None


class AnswerSerializer(serializers.Serializer):
    accept = StrictBooleanField()


class HandOverSerializer(serializers.Serializer):
    seat = StrictIntegerField(min_value=0, max_value=100)


class RematchSerializer(serializers.Serializer):
    original = serializers.IntegerField(source="rematch.original_id")
    game = serializers.IntegerField(source="rematch.game_id", help_text="The rematch game's id.")
    status = serializers.CharField(source="rematch.game.status")
    proposed_by = serializers.SerializerMethodField()
    declined_by = serializers.SerializerMethodField()
    invited = serializers.ListField(child=serializers.DictField())
    my_invitation_pending = serializers.BooleanField()

    def get_proposed_by(self, info) -> str | None:
        return info.rematch.proposed_by.username if info.rematch.proposed_by_id else None

    def get_declined_by(self, info) -> str | None:
        return info.rematch.declined_by.username if info.rematch.declined_by_id else None


class ReportSerializer(serializers.Serializer):
    reason = StrictChoiceField(choices=Report.Reason.choices)
    details = StrictCharField(max_length=REPORT_DETAILS_MAX_LENGTH, allow_blank=True, required=False)
    message = StrictIntegerField(
        required=False, min_value=1, max_value=2**63 - 1, help_text="A chat message's id; or give username."
    )
    username = StrictCharField(required=False, max_length=150)


class BlockedUserSerializer(serializers.Serializer):
    username = serializers.CharField()


_access = _visible


class ChatView(ApiView):
    """A game's table chat as I may read it (seats; everyone for a public game), oldest first; or write to it."""

    serializer_class = ChatMessageSerializer

    def get_permissions(self):
        return [permissions.AllowAny()] if self.request.method == "GET" else super().get_permissions()

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "after", int, description="Only messages with a greater id: `next` carries the last one read."
            )
        ],
        responses={200: page_serializer(ChatMessageSerializer)},
    )
    def get(self, request, game_id: int):
        access = _access(request, game_id)
        if not services.chat_readable(game=access.game, seat=access.seat, may_view=access.may_view):
            raise GameNotFound(_("This chat is for the game's players only."))
        after = max(0, _query_int(request, "after", 0))
        viewer = request.user if request.user.is_authenticated else None
        rows = selectors.messages_after(game_id=game_id, viewer=viewer, after=after, limit=CHAT_PAGE + 1)
        more = len(rows) > CHAT_PAGE
        rows = rows[:CHAT_PAGE]
        url = request.build_absolute_uri()
        return Response(
            {
                "results": ChatMessageSerializer(rows, many=True).data,
                # Oldest first: the next page is the newer messages; polling follows `next` (or the last id).
                "next": replace_query_param(url, "after", rows[-1].pk) if more else None,
                "previous": None,
            }
        )

    @extend_schema(request=ChatPostSerializer, responses={201: ChatMessageSerializer, **errors(403, 409, 429)})
    def post(self, request, game_id: int):
        data = _valid(ChatPostSerializer, request)
        message = services.post_chat_message(user=request.user, game_id=game_id, text=data["text"])
        return Response(ChatMessageSerializer(message).data, status=status.HTTP_201_CREATED)


class NoteView(ApiView):
    """My private note at a game (nobody else ever gets it)."""

    serializer_class = NoteOutSerializer

    @extend_schema(responses={200: NoteOutSerializer})
    def get(self, request, game_id: int):
        access = _access(request, game_id)
        if access.seat is None:
            raise GameNotFound(_("Only a seated player has a note at this game."))
        corner = selectors.corner(access.seat)
        game = access.game
        return Response(
            {
                "note": corner.note if corner else "",
                "updated_at": corner.note_updated_at if corner else None,
                "allowed": notes_allowed(engine_slug=game.engine_slug, options=game.options),
            }
        )

    @extend_schema(request=NoteSerializer, responses={200: NoteOutSerializer, **errors(403, 409)})
    def put(self, request, game_id: int):
        data = _valid(NoteSerializer, request)
        corner = services.save_note(user=request.user, game_id=game_id, text=data["note"])
        return Response({"note": corner.note, "updated_at": corner.note_updated_at, "allowed": True})


class ResignView(ApiView):
    """Resign from a game in progress: the bot plays my seat to the end; I count last."""

    serializer_class = None

    @extend_schema(
        request=None,
        responses={
            200: inline_serializer(
                "Resigned", {"seat": serializers.IntegerField(), "resigned_at": serializers.DateTimeField()}
            ),
            **errors(403, 409),
        },
    )
    def post(self, request, game_id: int):
        seat = services.resign(user=request.user, game_id=game_id)
        return Response({"seat": seat.number, "resigned_at": seat.resigned_at})


class CallOffView(ApiView):
    """The latest proposal to call a game off (404 if none); or propose one."""

    serializer_class = CallOffSerializer

    @extend_schema(responses={200: CallOffSerializer})
    def get(self, request, game_id: int):
        _access(request, game_id)
        proposal = selectors.last_call_off(game_id)
        if proposal is None:
            raise GameNotFound(_("Nobody has proposed to call this game off."))
        return Response(CallOffSerializer(proposal).data)

    @extend_schema(request=None, responses={201: CallOffSerializer, **errors(403, 409)})
    def post(self, request, game_id: int):
        proposal = services.propose_call_off(user=request.user, game_id=game_id)
        return Response(CallOffSerializer(proposal).data, status=status.HTTP_201_CREATED)


class CallOffAnswerView(ApiView):
    """Accept (``true``) or decline the pending proposal to call the game off."""

    serializer_class = AnswerSerializer

    @extend_schema(request=AnswerSerializer, responses={200: CallOffSerializer, **errors(403, 409)})
    def post(self, request, game_id: int):
        data = _valid(AnswerSerializer, request)
        proposal = services.answer_call_off(user=request.user, game_id=game_id, accept=data["accept"])
        return Response(CallOffSerializer(proposal).data)


class HandOverView(ApiView):
    """In a game without a time limit, hand a seat that has not moved for 14 days to the bot."""

    serializer_class = HandOverSerializer

    @extend_schema(request=HandOverSerializer, responses={204: None, **errors(403, 409)})
    def post(self, request, game_id: int):
        data = _valid(HandOverSerializer, request)
        services.hand_over_stalled_seat(user=request.user, game_id=game_id, seat_number=data["seat"])
        return Response(status=status.HTTP_204_NO_CONTENT)


class RematchSeatSerializer(serializers.Serializer):
    contribution = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="Your 128 random bits for the rematch's deal, as 32 hex digits: draw them yourself (e.g. "
        "secrets.token_hex(16)) and keep them to check the deal after the end (docs/fairness.md).",
    )


class RematchView(ApiView):
    """The rematch of an ended game (404 if none); or propose it (returns the live one if there is one)."""

    serializer_class = RematchSerializer

    @extend_schema(responses={200: RematchSerializer})
    def get(self, request, game_id: int):
        access = _access(request, game_id)
        info = selectors.rematch_info(game=access.game, user=request.user)
        if info is None:
            raise GameNotFound(_("This game has no rematch."))
        return Response(RematchSerializer(info).data)

    @extend_schema(request=RematchSeatSerializer, responses={201: RematchSerializer, **errors(403, 409)})
    def post(self, request, game_id: int):
        data = _valid(RematchSeatSerializer, request)
        made = rematch.propose_rematch(user=request.user, game_id=game_id, contribution=data.get("contribution", ""))
        info = selectors.rematch_info(game=made.original, user=request.user)
        return Response(RematchSerializer(info).data, status=status.HTTP_201_CREATED)


class RematchAcceptView(ApiView):
    """Take my seat in the rematch (it starts when everyone has)."""

    serializer_class = None

    @extend_schema(
        request=RematchSeatSerializer,
        responses={
            200: inline_serializer(
                "RematchAccepted", {"game": serializers.IntegerField(), "status": serializers.CharField()}
            ),
            **errors(403, 409),
        },
    )
    def post(self, request, game_id: int):
        data = _valid(RematchSeatSerializer, request)
        game = rematch.accept_rematch(user=request.user, game_id=game_id, contribution=data.get("contribution", ""))
        game.refresh_from_db()
        return Response({"game": game.pk, "status": game.status})


class RematchDeclineView(ApiView):
    """Decline the rematch: it is cancelled and the others are told."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None, **errors(403, 409)})
    def post(self, request, game_id: int):
        rematch.decline_rematch(user=request.user, game_id=game_id)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BlockView(ApiView):
    """Block (POST) or unblock (DELETE) a player. Private: nobody else is told."""

    serializer_class = None

    @extend_schema(request=None, responses={204: None, **errors(400)})
    def post(self, request, username: str):
        player(username)
        moderation.block(user=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, username: str):
        player(username)
        moderation.unblock(user=request.user, username=username)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BlocksView(ApiView):
    """The players I blocked (all of them: one page)."""

    serializer_class = BlockedUserSerializer

    @extend_schema(responses={200: page_serializer(BlockedUserSerializer)})
    def get(self, request):
        results = BlockedUserSerializer(selectors.blocked_users(user=request.user), many=True).data
        return Response({"results": results, "next": None, "previous": None})


class ReportView(ApiView):
    """Report a chat message (``message``) or a player (``username``) to the moderators."""

    serializer_class = ReportSerializer

    @extend_schema(
        request=ReportSerializer,
        responses={201: inline_serializer("Reported", {"id": serializers.IntegerField()}), **errors(404, 429)},
    )
    def post(self, request):
        data = _valid(ReportSerializer, request)
        row = moderation.report(
            user=request.user,
            reason=data["reason"],
            details=data.get("details", ""),
            username=data.get("username"),
            message_id=data.get("message"),
        )
        return Response({"id": row.pk}, status=status.HTTP_201_CREATED)
