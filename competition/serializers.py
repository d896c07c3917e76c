"""Shapes of the ratings and leagues API (the work is done by competition.selectors / .leagues)."""

from __future__ import annotations

from rest_framework import serializers

from api.fields import StrictCharField, StrictChoiceField, StrictIntegerField
from competition.ratings import PROVISIONAL_GAMES
from games.engines import engine_slugs
from games.models import TimeLimit

# A league's games always have a time limit (a drop-out must not stall a round).
LEAGUE_TIME_LIMITS = [(value, label) for value, label in TimeLimit.choices if value]


class RatingFieldsMixin(serializers.Serializer):
    rating = serializers.FloatField(help_text="The number shown: μ − 3σ.")
    provisional = serializers.BooleanField(help_text=f"Fewer than {PROVISIONAL_GAMES} rated games.")
    games = serializers.IntegerField(help_text="Rated games played.")


class LeaderboardRowSerializer(RatingFieldsMixin):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    last_game_at = serializers.DateTimeField()


class RatingPointSerializer(serializers.Serializer):
    game_id = serializers.IntegerField()
    place = serializers.IntegerField()
    rating = serializers.FloatField()
    at = serializers.DateTimeField()


class PlayerRatingSerializer(RatingFieldsMixin):
    game = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    last_game_at = serializers.DateTimeField(allow_null=True)
    history = RatingPointSerializer(many=True, help_text="The newest rating changes, oldest first (at most 100).")


class LeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    game = serializers.CharField(source="engine_slug")
    players_per_game = serializers.IntegerField()
    time_limit_hours = serializers.IntegerField()
    signup_until = serializers.DateTimeField()
    status = serializers.CharField()
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    winner = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    def get_winner(self, league) -> str | None:
        return league.winner.username if league.winner_id else None

    def get_url(self, league) -> str:
        request = self.context.get("request")
        path = league.get_absolute_url()
        return request.build_absolute_uri(path) if request else path


class StandingSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    username = serializers.CharField(source="user.username")
    name = serializers.CharField(source="user.public_name")
    points = serializers.FloatField()
    wins = serializers.IntegerField()
    played = serializers.IntegerField()
    scheduled = serializers.IntegerField()


class LeagueGameSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    game_id = serializers.IntegerField()
    status = serializers.CharField(source="game.status")
    players = serializers.SerializerMethodField()

    def get_players(self, link) -> list[str]:
        return [seat.user.username for seat in link.game.seats.all() if seat.user_id]


class LeagueDetailSerializer(serializers.Serializer):
    league = LeagueSerializer()
    standings = StandingSerializer(many=True)
    games = LeagueGameSerializer(many=True)


class CreateLeagueSerializer(serializers.Serializer):
    name = StrictCharField(max_length=80)
    game = StrictChoiceField(choices=engine_slugs())
    players_per_game = StrictIntegerField(
        min_value=2, max_value=9, help_text="Seats at each table, within the game's own bounds."
    )
    signup_until = serializers.DateTimeField(help_text="When sign-ups close and the games are created.")
    time_limit_hours = StrictChoiceField(choices=LEAGUE_TIME_LIMITS, default=TimeLimit.D2)
