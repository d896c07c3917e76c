"""Serializers of the JSON API: shapes only; the work is done by the services and selectors of
games.lobby, games.play and games.history.

Input fields are strict JSON (``api.fields``): ``"1"``, ``1.0`` and ``true`` are not the integer 1.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.fields import (
    JsonObjectField,
    StrictBooleanField,
    StrictCharField,
    StrictChoiceField,
    StrictIntegerField,
    StrictUUIDField,
)
from api.schema import ErrorSerializer  # noqa: F401 - re-exported for the views' declarations
from clocks.arithmetic import ClockKind, InvalidTimeControl, TimeControl
from games import lengths
from games.engines import all_engines, engine_slugs, get_engine
from games.models import BotLevel, Game, GameStatus, Seat, TimeLimit, Visibility
from games.strict_json import same_json

MIN_PLAYERS = min(engine.min_players for engine in all_engines())
MAX_PLAYERS = max(engine.max_players for engine in all_engines())


def _whole(value) -> int | None:
    """A stored score as the integer it is (``Seat.final_score`` is a float column)."""
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


class TimeControlSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=[str(kind) for kind in ClockKind])
    per_move_seconds = serializers.IntegerField(required=False, help_text="kind `move`: the limit for each move.")
    bank_initial_seconds = serializers.IntegerField(required=False, help_text="kind `bank`: each seat's start.")
    bank_increment_seconds = serializers.IntegerField(required=False, help_text="kind `bank`: added after a move.")
    bank_cap_seconds = serializers.IntegerField(required=False, help_text="kind `bank`: the most a bank holds.")


class SeatSerializer(serializers.ModelSerializer):
    seat = serializers.IntegerField(source="number", allow_null=True, help_text="null until the game starts.")
    name = serializers.CharField()
    username = serializers.SerializerMethodField()
    clock_left = serializers.SerializerMethodField(
        help_text="Seconds on the seat's clock: a bank between turns, what a running clock showed when it was last "
        "read (the time left is until deadline_at, less the player's quiet days and absence); null without one."
    )
    final_score = serializers.SerializerMethodField()
    bot_level = serializers.SerializerMethodField(
        help_text="How the bot plays this seat: easy, normal or strong (the name says it too); null for a person."
    )

    class Meta:
        model = Seat
        fields = [
            "seat",
            "name",
            "username",
            "is_bot",
            "bot_level",
            "colour",
            "dropped_out",
            "resigned_at",
            "awaited",
            "awaited_since",
            "deadline_at",
            "clock_left",
            "final_rank",
            "final_score",
        ]

    def get_clock_left(self, seat) -> int | None:
        return int(seat.clock_left.total_seconds()) if seat.clock_left is not None else None

    @extend_schema_field(serializers.ChoiceField(choices=BotLevel.values, allow_null=True))
    def get_bot_level(self, seat) -> str | None:
        return seat.bot_level if seat.is_bot else None

    def get_username(self, seat) -> str | None:
        return seat.user.username if seat.user_id else None

    def get_final_score(self, seat) -> int | None:
        return _whole(seat.final_score)


class OutcomeSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1 is best; tied seats share a rank; a resigned seat is last.")
    score = serializers.IntegerField()


class GameLengthSerializer(serializers.Serializer):
    """How long a game of this kind and size lasts, as measured by bot self-play (``games.lengths``)."""

    rounds = serializers.IntegerField(
        allow_null=True, help_text="The number of rounds when every game has the same (Mamma Mia! 3), else null."
    )
    rounds_min = serializers.IntegerField()
    rounds_max = serializers.IntegerField()
    rounds_expected = serializers.IntegerField(help_text="The usual number of rounds, as the pages say it (“~19”).")
    moves_each = serializers.IntegerField(help_text="About how many moves each seat makes.")


class GameSummarySerializer(serializers.ModelSerializer):
    game = serializers.ChoiceField(source="engine_slug", choices=engine_slugs())
    name = serializers.CharField(source="engine.name")  # the engine's own name, whatever the language
    status = serializers.ChoiceField(choices=GameStatus.values)
    visibility = serializers.ChoiceField(choices=Visibility.values)
    time_limit_hours = serializers.ChoiceField(choices=TimeLimit.choices)
    options = serializers.DictField(help_text="The game's options as chosen at creation.")
    seats = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField(help_text="The game's page.")
    seed = serializers.SerializerMethodField(
        help_text="The site's secret, once the game has ended (else null); with the players' contributions it gives "
        "the deal's seed (GET /api/games/{id}/fairness/, docs/fairness.md)."
    )
    outcome = serializers.SerializerMethodField(help_text="The ranking, once the game has ended (else null).")
    time_control = serializers.SerializerMethodField(
        help_text="The game's clock: a limit per move, a bank of time, or none (`time_limit_hours` is the older "
        "per-move form of the same)."
    )
    round = serializers.IntegerField(
        read_only=True, allow_null=True, help_text="The round the game is in (1 is the first); null before the start."
    )
    length = serializers.SerializerMethodField(
        help_text="How long a game of this kind and size lasts; null when it was never measured."
    )
    progress = serializers.SerializerMethodField(
        help_text="How far it has come, in my language, as “My games” says it: “round 2 of 3”, “round 7 of ~19”; "
        "empty before the start."
    )

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
            "time_control",
            "rated",
            "round",
            "length",
            "progress",
            "version",
            "seed_sha256",
            "seed",
            "created_at",
            "started_at",
            "finished_at",
            "contributions_due_at",
            "outcome",
            "seats",
            "url",
        ]
        extra_kwargs = {
            "contributions_due_at": {
                "help_text": "A game the site seated (a league's): it is not dealt until every seated player has sent "
                "a contribution (POST /api/games/{id}/contribution/), or until this time, when the site draws the "
                "missing ones and it starts (docs/fairness.md). Null for other games."
            }
        }

    @extend_schema_field(TimeControlSerializer)
    def get_time_control(self, game) -> dict:
        return game.time_control.as_dict()

    @extend_schema_field(GameLengthSerializer(allow_null=True))
    def get_length(self, game) -> dict | None:
        length = lengths.length_of(game.engine_slug, game.players)
        if length is None:
            return None
        return {
            "rounds": length.fixed_rounds,
            "rounds_min": length.rounds_min,
            "rounds_max": length.rounds_max,
            "rounds_expected": lengths.about(length.rounds_mean),
            "moves_each": lengths.about(length.moves_mean),
        }

    def get_progress(self, game) -> str:
        return str(lengths.progress_text(game))

    @extend_schema_field(SeatSerializer(many=True))
    def get_seats(self, game) -> list[dict]:
        seats = self.context.get("seats", {}).get(game.pk)
        if seats is None:
            seats = list(game.seats.all())
        return SeatSerializer(sorted(seats, key=lambda s: (s.number is None, s.number, s.join_order)), many=True).data

    def get_url(self, game) -> str:
        request = self.context.get("request")
        path = game.get_absolute_url()
        return request.build_absolute_uri(path) if request else path

    def get_seed(self, game) -> str | None:
        return game.revealed_seed or None

    @extend_schema_field(OutcomeSerializer(many=True, allow_null=True))
    def get_outcome(self, game) -> list[dict] | None:
        if game.outcome is None:
            return None
        # The places the page, the e-mails and the history give (a resigned seat last, issue 35), not the
        # engine's count of the bot's score.
        seats = self.context.get("seats", {}).get(game.pk)
        if seats is None:
            seats = list(game.seats.all())
        places = {seat.number: seat.final_rank for seat in seats if seat.final_rank}
        return [
            {"seat": row["seat"], "rank": places.get(row["seat"], row["rank"]), "score": _whole(row["score"])}
            for row in game.outcome
        ]


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

    @extend_schema_field(GameSummarySerializer)
    def get_game(self, seat) -> dict:
        return GameSummarySerializer(seat.game, context=self.context).data


class GameDetailSerializer(serializers.Serializer):
    game = GameSummarySerializer(help_text="With every seat, and which seats the game awaits.")
    seat = serializers.IntegerField(allow_null=True, help_text="My seat, or null when I watch.")
    version = serializers.IntegerField(help_text="Send it back as expected_version with a move.")
    view = serializers.DictField(
        help_text="engine.view(state, my seat) of this version: everything I may know. Its `log` holds the "
        "latest events only (at least the current round); the whole log is at `/api/games/{id}/log/`."
    )
    log_size = serializers.IntegerField(help_text="How many events my whole log has.")
    legal_moves = serializers.ListField(
        child=serializers.DictField(), help_text="My legal moves at this version (empty when it is not my move)."
    )
    my_move = serializers.BooleanField(help_text="Whether the game awaits a move of mine.")
    since = serializers.DictField(
        required=False,
        allow_null=True,
        help_text="With `?since=<version>`: what changed for me after that version, from my own log only "
        "(`summary`: short lines, Mamma Mia!'s oven in one; `count`: events of my log since; `played`: who "
        "played since; `others_played`; `scores` as I see them; `complete`: false when the summary starts "
        "later than the version, the rest being in the whole log). Null when nothing changed since.",
    )


class CreateGameSerializer(serializers.Serializer):
    game = StrictChoiceField(choices=engine_slugs())
    players = StrictIntegerField(
        min_value=MIN_PLAYERS,
        max_value=MAX_PLAYERS,
        help_text="Seats, bots included; each game has its own bounds: "
        + ", ".join(f"{engine.slug} {engine.min_players}-{engine.max_players}" for engine in all_engines())
        + ".",
    )
    options = JsonObjectField(
        required=False,
        default=dict,
        help_text='The game\'s options, each one of its allowed values, e.g. {"memory": "open"} (Mamma Mia!) or '
        '{"variant": "self"} (Marumiere); an unknown name or value is 400.',
    )
    time_limit_hours = StrictChoiceField(choices=TimeLimit.choices, default=TimeLimit.NONE)
    time_control = JsonObjectField(
        required=False,
        help_text='Instead of time_limit_hours: {"kind": "bank", "bank_initial_seconds": 259200, '
        '"bank_increment_seconds": 86400, "bank_cap_seconds": 604800}, {"kind": "move", "per_move_seconds": n} '
        'or {"kind": "none"}. A bank: 1 hour to 30 days, + up to 7 days a move, capped at 60 days at most.',
    )
    visibility = StrictChoiceField(choices=Visibility.values, default=Visibility.PUBLIC)
    bots = StrictIntegerField(
        min_value=0, max_value=MAX_PLAYERS - 1, default=0, help_text="Bot seats, fewer than `players`."
    )
    bot_levels = serializers.ListField(
        child=StrictChoiceField(choices=BotLevel.values),
        required=False,
        max_length=MAX_PLAYERS - 1,
        help_text="How well each bot plays, one per bot seat: easy, normal (the default) or strong, "
        'e.g. ["strong", "easy"] with `"bots": 2`.',
    )
    rated = StrictBooleanField(default=True, help_text="Counts for the players' ratings; never with bots.")
    contribution = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="Your 128 random bits for the deal, as 32 hex digits: draw them yourself (e.g. "
        "secrets.token_hex(16)) and keep them to check the deal after the end (docs/fairness.md).",
    )
    commitment = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="The site's commitment from POST /api/games/commitment/, asked for before you draw your "
        "contribution: the game takes that secret (once; 409 commitment_unknown if used or expired). Without it "
        "the site draws its secret as the game is created.",
    )

    def validate(self, data):
        engine = get_engine(data["game"])
        if not engine.min_players <= data["players"] <= engine.max_players:
            raise serializers.ValidationError(
                {
                    "players": _("%(game)s is for %(min)d to %(max)d players.")
                    % {"game": engine.name, "min": engine.min_players, "max": engine.max_players}
                }
            )
        if data["bots"] >= data["players"]:
            raise serializers.ValidationError({"bots": _("Keep at least one seat for a person.")})
        if "bot_levels" in data and len(data["bot_levels"]) != data["bots"]:
            raise serializers.ValidationError({"bot_levels": _("Give one level per bot seat.")})
        for name, value in data["options"].items():
            # As JSON: 20.0 or true is not the allowed value 20 or 1.
            if name not in engine.options or not any(same_json(value, allowed) for allowed in engine.options[name]):
                raise serializers.ValidationError(
                    {
                        "options": _("“%(name)s” is not an option of this game, or that is not one of its values.")
                        % {"name": name}
                    }
                )
        return data

    def validate_time_control(self, value) -> TimeControl:
        try:
            return TimeControl.from_dict(value if isinstance(value, dict) else {})
        except InvalidTimeControl:
            raise serializers.ValidationError(_("This time control is not one the site offers.")) from None


class JoinSerializer(serializers.Serializer):
    invite = StrictCharField(
        required=False, allow_blank=True, max_length=500, help_text="The token of an invitation link (private games)."
    )
    contribution = StrictCharField(
        required=False,
        allow_blank=True,
        max_length=64,
        help_text="Your 128 random bits for the deal, as 32 hex digits: draw them yourself (e.g. "
        "secrets.token_hex(16)) and keep them to check the deal after the end (docs/fairness.md).",
    )


class DealCommitmentSerializer(serializers.Serializer):
    commitment = serializers.CharField(help_text="SHA-256 (hex) of the site's secret for the game you create next.")
    expires_at = serializers.DateTimeField(help_text="Create the game before this.")


class ContributionSerializer(serializers.Serializer):
    contribution = StrictCharField(
        max_length=64, help_text="Your 128 random bits for the deal, as 32 hex digits; set once, before the start."
    )


class MoveSerializer(serializers.Serializer):
    move = JsonObjectField(help_text="One of legal_moves, exactly as given (numbers as JSON integers).")
    expected_version = StrictIntegerField(min_value=0, help_text="The version the move was chosen at.")
    idempotency_key = StrictUUIDField(
        required=False, allow_null=True, help_text="A UUID (as text): sending the same move again changes nothing."
    )


class MoveResultSerializer(serializers.Serializer):
    applied = serializers.BooleanField(help_text="False when the idempotency key had been applied already.")
    sequence = serializers.IntegerField()
    version = serializers.IntegerField()


class AddBotSerializer(serializers.Serializer):
    level = StrictChoiceField(
        choices=BotLevel.values, default=BotLevel.NORMAL, help_text="How well the bot plays: easy, normal or strong."
    )


class InviteSerializer(serializers.Serializer):
    username = StrictCharField(max_length=150, help_text="Who to invite (case does not matter).")


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField(source="game_id")
    username = serializers.CharField(source="user.username")
    invited_by = serializers.CharField(source="invited_by.username", allow_null=True)
    status = serializers.CharField()
    created_at = serializers.DateTimeField()


class LogEntrySerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["engine", "platform"])
    event = serializers.DictField(help_text="engine: the event of my view; platform: {type, seat, name}.")
    text = serializers.CharField(help_text="The event as a sentence in my language.")


class GameLogSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    entries = LogEntrySerializer(many=True, help_text="Oldest first.")


class ReplayMoveSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = serializers.DictField()
    made_by = serializers.CharField()


class ReplaySerializer(serializers.Serializer):
    step = serializers.IntegerField(help_text="Moves played so far in this replay (0: the deal).")
    total = serializers.IntegerField(help_text="Moves in the whole game.")
    seat = serializers.IntegerField(help_text="Whose view this is.")
    last_move = ReplayMoveSerializer(allow_null=True)
    view = serializers.DictField(help_text="engine.view of that seat after `step` moves.")


class ReviewEntrySerializer(serializers.Serializer):
    sequence = serializers.IntegerField(help_text="The move's number (the replay's step that shows it).")
    mark = serializers.ChoiceField(choices=["good", "inaccuracy", "mistake"])
    loss = serializers.FloatField(help_text="Estimated result lost against the strong bot's favourite, 0-1.")
    played_value = serializers.FloatField(help_text="The search's estimate after the played move, 0-1.")
    best_value = serializers.FloatField(help_text="The search's estimate after its favourite, 0-1.")
    played = serializers.CharField(help_text="The played move in words, in my language.")
    best = serializers.CharField(allow_null=True, help_text="The strong bot's favourite in words; null if good.")


class ReviewSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["ready", "pending", "none"], help_text="pending: being prepared.")
    seat = serializers.IntegerField()
    iterations = serializers.IntegerField(allow_null=True, help_text="Search iterations per decision.")
    skipped = serializers.IntegerField(help_text="Later decisions past the game's review budget.")
    entries = ReviewEntrySerializer(many=True)


class RevealSerializer(serializers.Serializer):
    outcome = OutcomeSerializer(many=True)
    seed = serializers.CharField(
        help_text="The site's secret: its SHA-256 was shown from the start; the deal's seed is computed from it and "
        "the contributions (GET /api/games/{id}/fairness/)."
    )
    state = serializers.DictField(help_text="The final state, every hand revealed (its log is at /log/).")
