"""Serializers of the JSON API: shapes only; the work is done by the services and selectors of
games.lobby, games.play and games.history."""

from __future__ import annotations

from rest_framework import serializers

from games.engines import engine_slugs
from games.models import Game, Seat, TimeLimit, Visibility


class SeatSerializer(serializers.ModelSerializer):
    seat = serializers.IntegerField(source="number", allow_null=True)
    name = serializers.CharField()
    username = serializers.SerializerMethodField()

    class Meta:
        model = Seat
        fields = [
            "seat",
            "name",
            "username",
            "is_bot",
            "colour",
            "dropped_out",
            "resigned_at",
            "awaited",
            "awaited_since",
            "deadline_at",
            "final_rank",
            "final_score",
        ]

    def get_username(self, seat) -> str | None:
        return seat.user.username if seat.user_id else None


class GameSummarySerializer(serializers.ModelSerializer):
    game = serializers.CharField(source="engine_slug")
    name = serializers.CharField(source="engine_name")
    seats = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()
    seed = serializers.CharField(source="revealed_seed", help_text="The seed, once the game has ended.")

    class Meta:
        model = Game
        fields = [
            "id",
            "game",
            "name",
            "status",
            "players",
            "options",
            "visibility",
            "time_limit_hours",
            "rated",
            "version",
            "seed_sha256",
            "seed",
            "created_at",
            "started_at",
            "finished_at",
            "outcome",
            "seats",
            "url",
        ]

    def get_seats(self, game) -> list[dict]:
        seats = self.context.get("seats", {}).get(game.pk)
        if seats is None:
            seats = list(game.seats.all())
        return SeatSerializer(sorted(seats, key=lambda s: (s.number is None, s.number, s.join_order)), many=True).data

    def get_url(self, game) -> str:
        request = self.context.get("request")
        path = game.get_absolute_url()
        return request.build_absolute_uri(path) if request else path


class MyGameSerializer(serializers.Serializer):
    """One of my games, with my seat."""

    my_seat = serializers.IntegerField(source="number", allow_null=True)
    my_move = serializers.SerializerMethodField(help_text="Whether the game awaits my move.")
    chat_unread = serializers.SerializerMethodField(help_text="Chat messages written since I last read the chat.")
    game = serializers.SerializerMethodField()

    def get_my_move(self, seat) -> bool:
        return bool(seat.awaited and not seat.is_bot)

    def get_chat_unread(self, seat) -> int:
        return self.context.get("chat_unread", {}).get(seat.game_id, 0)

    def get_game(self, seat) -> dict:
        return GameSummarySerializer(seat.game, context=self.context).data


class GameDetailSerializer(serializers.Serializer):
    game = GameSummarySerializer()
    seat = serializers.IntegerField(allow_null=True, help_text="My seat, or null when I watch.")
    version = serializers.IntegerField(help_text="Send it back as expected_version with a move.")
    view = serializers.DictField(help_text="engine.view(state, my seat): everything I may know, log included.")
    legal_moves = serializers.ListField(child=serializers.DictField(), help_text="My legal moves now.")


class CreateGameSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=engine_slugs())
    players = serializers.IntegerField(min_value=2, max_value=9)
    options = serializers.DictField(required=False, default=dict)
    time_limit_hours = serializers.ChoiceField(choices=TimeLimit.values, default=TimeLimit.NONE)
    visibility = serializers.ChoiceField(choices=Visibility.values, default=Visibility.PUBLIC)
    bots = serializers.IntegerField(min_value=0, max_value=8, default=0)
    rated = serializers.BooleanField(default=True, help_text="Counts for the players' ratings; never with bots.")


class JoinSerializer(serializers.Serializer):
    invite = serializers.CharField(required=False, allow_blank=True, help_text="Token of an invitation link.")


class MoveSerializer(serializers.Serializer):
    move = serializers.DictField(help_text="One of legal_moves, as given.")
    expected_version = serializers.IntegerField(min_value=0, help_text="The version the move was chosen at.")
    idempotency_key = serializers.UUIDField(required=False, allow_null=True, help_text="Repeat-safe key.")


class MoveResultSerializer(serializers.Serializer):
    applied = serializers.BooleanField(help_text="False when the idempotency key had been applied already.")
    sequence = serializers.IntegerField()
    version = serializers.IntegerField()


class ErrorSerializer(serializers.Serializer):
    error = serializers.CharField()
    detail = serializers.JSONField()
