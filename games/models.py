"""Storage of the play-by-web platform.

Need to know is built into the tables:

- ``GameState`` holds the full engine state (and the secret seed); for engines
  that only append to their log, the log is in ``GameLogChunk`` rows instead
  (``games.tables.full_state`` joins them). Only ``games.tables`` loads
  them; no page, partial, API response, log line or e-mail is ever built from
  them.
- ``SeatView`` holds, per seat (and once for spectators, ``seat_number`` NULL),
  ``engine.view(state, seat)`` and ``engine.legal_moves(state, seat)``,
  recomputed in the transaction that applies a move. A page for one viewer
  loads that viewer's row only, so rendering code has no path to another
  seat's cards.
- ``Game`` itself holds nothing secret: the seed's SHA-256 from the start,
  the seed itself only once the game has ended (``revealed_seed``).
"""

from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.engines import get_engine

DEFAULT_COLOURS = ["green", "red", "yellow", "purple", "brown", "teal", "orange", "pink", "navy"]

COLOUR_LABELS = {
    "green": pgettext_lazy("seat colour", "green"),
    "red": pgettext_lazy("seat colour", "red"),
    "yellow": pgettext_lazy("seat colour", "yellow"),
    "purple": pgettext_lazy("seat colour", "purple"),
    "brown": pgettext_lazy("seat colour", "brown"),
    "teal": pgettext_lazy("seat colour", "teal"),
    "orange": pgettext_lazy("seat colour", "orange"),
    "pink": pgettext_lazy("seat colour", "pink"),
    "navy": pgettext_lazy("seat colour", "navy"),
}


def seat_colours(slug: str, players: int) -> list[str]:
    """The seat colours of a game (its app config's), in seat order; the platform's for an unknown one."""
    from games.registry import get_game

    try:
        colours = get_game(slug).seat_colours
    except KeyError:
        colours = ()
    return list(colours or DEFAULT_COLOURS)[:players]


class GameStatus(models.TextChoices):
    OPEN = "open", _("Open")
    ACTIVE = "active", _("In progress")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")
    # Called off by the players while in progress (issue 17, together.services): no ranking, no stats.
    ABANDONED = "abandoned", _("Abandoned")


class Visibility(models.TextChoices):
    PUBLIC = "public", _("Open: listed in the lobby")
    PRIVATE = "private", _("Private: by invitation or link only")


class DealScheme(models.TextChoices):
    """How the game's seed came about (``games.fairness``, docs/fairness.md)."""

    # Games created before issue 30: the site drew the seed alone (its SHA-256 shown from the start).
    SITE = "site", _("drawn by the site alone")
    # The site's committed secret and every seat's contribution, through HMAC-SHA-256; sealed choices.
    JOINT = "joint", _("drawn together by the site and every player")


class TimeLimit(models.IntegerChoices):
    """Per-move time limit, in hours (0: none)."""

    NONE = 0, _("No time limit")
    H12 = 12, _("12 hours")
    D1 = 24, _("1 day")
    D2 = 48, _("2 days")
    D3 = 72, _("3 days")
    D5 = 120, _("5 days")
    D7 = 168, _("7 days")


class ClockChoice(models.TextChoices):
    """The kinds of time control (``clocks.arithmetic.ClockKind``)."""

    PER_MOVE = "move", _("Time per move")
    BANK = "bank", _("Time bank")
    NONE = "none", _("No time limit")


class MadeBy(models.TextChoices):
    PLAYER = "player", _("player")
    BOT = "bot", _("bot")
    TIMEOUT = "timeout", _("timeout")
    FORCED = "forced", _("only possible move")  # issue 32: played for the player (their setting)


class BotLevel(models.TextChoices):
    """How well a bot seat plays (issue 28, ``games.engines.search.choose_move``): easy slips like a beginner,
    normal is the game's heuristic, strong searches over the hands its seat may not see."""

    EASY = "easy", pgettext_lazy("bot level", "easy")
    NORMAL = "normal", pgettext_lazy("bot level", "normal")
    STRONG = "strong", pgettext_lazy("bot level", "strong")


# The level a bot plays a person's timed-out turn at, and a seat handed to the bot after three time-outs or a
# resignation (docs/playing.md): the game's heuristic, what the player would most likely have played.
TAKEOVER_BOT_LEVEL = BotLevel.NORMAL


class Game(models.Model):
    engine_slug = models.CharField(_("game"), max_length=32, db_index=True)
    options = models.JSONField(_("options"), default=dict, blank=True)
    players = models.PositiveSmallIntegerField(_("seats"))
    seed_sha256 = models.CharField(_("SHA-256 of the seed"), max_length=64)
    # The seed itself lives in GameState until the end; copied here when the game ends.
    revealed_seed = models.CharField(_("seed"), max_length=40, blank=True)
    # JOINT: the engine's seed is games.fairness.joint_seed(the secret whose SHA-256 is seed_sha256, every
    # seat's contribution in join order); SITE (games created before): the secret itself.
    deal_scheme = models.CharField(
        _("how the deal was drawn"), max_length=8, choices=DealScheme.choices, default=DealScheme.JOINT
    )
    status = models.CharField(_("status"), max_length=10, choices=GameStatus.choices, default=GameStatus.OPEN)
    visibility = models.CharField(_("visibility"), max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    time_limit_hours = models.PositiveSmallIntegerField(
        _("time limit per move"), choices=TimeLimit.choices, default=TimeLimit.NONE
    )
    # The time control (``time_control`` gives it as a ``clocks.arithmetic.TimeControl``): per move uses
    # time_limit_hours (0: none, as for games created before there were other controls), bank the three below.
    clock = models.CharField(_("time control"), max_length=8, choices=ClockChoice.choices, default=ClockChoice.PER_MOVE)
    bank_initial = models.DurationField(_("initial time bank"), null=True, blank=True)
    bank_increment = models.DurationField(_("time added after each move"), null=True, blank=True)
    bank_cap = models.DurationField(_("largest time bank"), null=True, blank=True)
    # Chosen at creation (issue 22): counts for the players' ratings. Never with bots.
    rated = models.BooleanField(_("rated"), default=False)
    version = models.PositiveIntegerField(_("version"), default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="created_games"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    # engine.outcome(state) once finished: [{"seat", "rank", "score"}, ...].
    outcome = models.JSONField(_("outcome"), null=True, blank=True)
    # The round the game is in (every view's public "round"), written with each move: "My games" says
    # "round 2 of 3" without reading a view or replaying anything. None before the start.
    round = models.PositiveSmallIntegerField(_("round"), null=True, blank=True)
    # A guided first game (issue 27, games.tutorial): played by a guest on the game's scripted deal, never
    # listed, rated or announced, and deleted by the sweep after TUTORIAL_HOURS.
    is_tutorial = models.BooleanField(_("tutorial"), default=False)
    # A game the site seated (a league's, issue 30): its deal waits for every seat's contribution, and at this
    # time the site draws the missing ones (games.lobby.seated). None: the game starts when its last seat is taken.
    contributions_due_at = models.DateTimeField(_("contributions due"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        indexes = [
            models.Index(fields=["status", "visibility", "engine_slug", "-created_at"], name="games_lobby_idx"),
            # The deadline sweep's range: only seated games waiting for their deal.
            models.Index(
                fields=["contributions_due_at"],
                condition=models.Q(status="open", contributions_due_at__isnull=False),
                name="games_deal_due_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.engine_name} #{self.pk}"

    def get_absolute_url(self) -> str:
        return reverse("game", args=[self.pk])

    @cached_property
    def engine(self):
        return get_engine(self.engine_slug)

    @property
    def engine_name(self) -> str:
        """The game's name as the reader's language writes it ("マンマミーア!" in Japanese)."""
        from games.registry import game_title

        return game_title(self.engine_slug)

    @property
    def time_limit(self) -> dt.timedelta | None:
        return dt.timedelta(hours=self.time_limit_hours) if self.time_limit_hours else None

    @property
    def time_control(self):
        """This game's ``clocks.arithmetic.TimeControl``."""
        from clocks.controls import time_control_of

        return time_control_of(self)

    @property
    def is_open(self) -> bool:
        return self.status == GameStatus.OPEN

    @property
    def is_active(self) -> bool:
        return self.status == GameStatus.ACTIVE

    @property
    def is_finished(self) -> bool:
        return self.status == GameStatus.FINISHED

    @property
    def is_abandoned(self) -> bool:
        return self.status == GameStatus.ABANDONED

    @property
    def is_public(self) -> bool:
        return self.visibility == Visibility.PUBLIC


class GameState(models.Model):
    """The full engine state: server-only, loaded by games.tables alone."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, primary_key=True, related_name="state_row")
    seed = models.CharField(max_length=40)  # decimal digits of a 128-bit number: the site's secret
    # The engine's seed, written at the start (games.fairness.deal_seed); "" for games dealt before (the seed).
    deal_seed = models.CharField(max_length=40, blank=True, default="")
    state = models.JSONField(null=True, blank=True)  # None until the game starts
    # Engines with ``per_event_log`` only ever append to ``state["log"]``: for them ``state`` is
    # stored with ``"log": []`` and the events go to ``GameLogChunk`` rows, so a move reads and
    # rewrites a row whose size does not grow with the game. How many events those rows hold.
    log_length = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("game state")
        verbose_name_plural = _("game states")

    def __str__(self) -> str:
        return f"state of game {self.game_id}"


class GameLogChunk(models.Model):
    """Engine log events ``first_index`` on of a ``per_event_log`` game: one row per move (and the
    set-up), only ever inserted. Server-only like ``GameState``: ``games.tables.full_state``
    puts them back into the state; pages read their viewer's ``SeatView`` only."""

    # The unique constraint's index (game, first_index) serves the lookups by game.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log_chunks", db_index=False)
    first_index = models.PositiveIntegerField()
    events = models.JSONField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["game", "first_index"], name="games_log_chunk_unique")]

    def __str__(self) -> str:
        return f"log of game {self.game_id} from event {self.first_index}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    # None until the game starts; then 0..players-1, drawn from the seed.
    number = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    join_order = models.PositiveSmallIntegerField(_("join order"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="seats"
    )
    is_bot = models.BooleanField(_("bot"), default=False)
    # How the bot plays this seat (issue 28); a person's seat taken over by the bot plays at
    # TAKEOVER_BOT_LEVEL, which is this field's default.
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel.choices, default=BotLevel.NORMAL)
    # 128 bits as 32 hex digits, sent with the join (games.fairness): public at once, never changed once set;
    # a bot's is derived from the site's committed secret; "" when none was sent.
    contribution = models.CharField(_("contribution to the deal"), max_length=32, blank=True, default="")
    # The site drew this person's contribution from its committed secret (games.fairness.site_contribution): none
    # came by the game's contributions_due_at, the player asked it to, or the account was closed before the deal.
    contribution_by_site = models.BooleanField(_("contribution drawn by the site"), default=False)
    colour = models.CharField(_("colour"), max_length=16, blank=True)
    joined_at = models.DateTimeField(_("joined"), auto_now_add=True)
    timeouts = models.PositiveSmallIntegerField(_("timeouts"), default=0)
    dropped_out = models.BooleanField(_("dropped out"), default=False)
    # The player resigned (together.services.resign): the bot plays the seat (is_bot), and when the
    # game ends the seat is ranked last whatever the bot scored (final_rank; Game.outcome keeps the
    # engine's own ranking).
    resigned_at = models.DateTimeField(_("resigned"), null=True, blank=True)
    # Maintained by services.do_play_move from engine.waiting_for.
    awaited = models.BooleanField(_("awaited"), default=False)
    awaited_since = models.DateTimeField(_("awaited since"), null=True, blank=True)
    # When the seat's clock reaches zero (kept by clocks.turns from the three fields below, the time control
    # and the player's quiet days and absence): what the time-out check and "My games" order by.
    deadline_at = models.DateTimeField(_("deadline"), null=True, blank=True)
    # The seat's clock (clocks.arithmetic): what it showed at clock_read_at while it runs (clock_read_at
    # NULL: stopped; then, under a bank control, the bank; NULL: the initial bank), and what it showed
    # when the current turn began (reminders at half of it).
    clock_left = models.DurationField(_("time left"), null=True, blank=True)
    clock_read_at = models.DateTimeField(_("clock read at"), null=True, blank=True)
    turn_clock = models.DurationField(_("time at the start of the turn"), null=True, blank=True)
    # Set when the player opens the game page ("once until I visit").
    last_seen_version = models.PositiveIntegerField(_("last seen version"), default=0)
    # The seat's log length at last_seen_version, written with it (games.play.services.mark_visited): where
    # "since your last visit" starts (issue 32), so the summary reads no move to find it.
    last_seen_log_size = models.PositiveIntegerField(_("log length last seen"), default=0)
    last_visited_at = models.DateTimeField(_("last visited"), null=True, blank=True)
    # Written once the game has ended, for match history in SQL.
    final_rank = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    final_score = models.FloatField(_("score"), null=True, blank=True)
    # The game's finished_at, copied here when it ends: a player's history is then a range
    # of the index below (newest first), not a sort of every finished seat joined to its game.
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
        ordering = ["number", "join_order"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="games_seat_unique_number"),
            models.UniqueConstraint(fields=["game", "join_order"], name="games_seat_unique_join_order"),
            models.UniqueConstraint(
                fields=["game", "user"], condition=Q(user__isnull=False), name="games_seat_unique_user"
            ),
            models.CheckConstraint(condition=Q(is_bot=True) | Q(user__isnull=False), name="games_seat_user_or_bot"),
        ]
        indexes = [
            models.Index(fields=["user", "awaited"], name="games_seat_awaited_idx", condition=Q(awaited=True)),
            models.Index(fields=["deadline_at"], name="games_seat_deadline_idx", condition=Q(awaited=True)),
            models.Index(
                fields=["user", "-finished_at", "-game"],
                name="games_seat_history_idx",
                condition=Q(finished_at__isnull=False),
            ),
            # "My games" lists the games in progress without touching the finished seats.
            models.Index(fields=["user"], name="games_seat_unfinished_idx", condition=Q(finished_at__isnull=True)),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.number}"

    @property
    def name(self) -> str:
        if self.user_id is not None:
            return self.user.public_name
        # Numbered by the order the seats were taken, not by the seat the start draws: a bot keeps the
        # name it had in the waiting room (issue 19); its level beside it (issue 28).
        return str(_("Bot {n} ({level})").format(n=self.join_order + 1, level=self.get_bot_level_display()))

    @property
    def listed_name(self) -> str:
        """The name as lists of players write it (match histories, "my games", e-mails), with one bracket of state:
        "Di (dropped out)", "Bob (bot)" (a person's seat a bot plays now). A bot's own seat is named with its level
        in brackets, so its state joins that bracket: "Bot 3 (normal, dropped out)", never two brackets in a row."""
        if self.user_id is None:
            if self.dropped_out:
                return str(_("Bot {n} ({level}, dropped out)")).format(
                    n=self.join_order + 1, level=self.get_bot_level_display()
                )
            return self.name  # "Bot 3 (normal)" says it is a bot
        if self.dropped_out:
            return _("%(name)s (dropped out)") % {"name": self.name}
        if self.is_bot:
            return _("%(name)s (bot)") % {"name": self.name}
        return self.name


class PlayerStats(models.Model):
    """One player's totals over their finished games of one engine, kept by the service that
    finishes a game (in its transaction): the profile's statistics read one small row per
    game instead of aggregating every finished seat of the player."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_stats")
    engine_slug = models.CharField(_("game"), max_length=32)
    played = models.PositiveIntegerField(_("Played"), default=0)
    won = models.PositiveIntegerField(_("Won"), default=0)
    # Seats with a place (the average place ignores a seat without one, as SQL's AVG does).
    ranked = models.PositiveIntegerField(_("with a place"), default=0)
    places_sum = models.PositiveIntegerField(_("sum of places"), default=0)
    dropped = models.PositiveIntegerField(_("dropped out"), default=0)
    # Seats with a score and their sum (scores may be shared halves): the profile's average score (issue 19).
    scored = models.PositiveIntegerField(_("with a score"), default=0)
    scores_sum = models.FloatField(_("sum of scores"), default=0)

    class Meta:
        verbose_name = _("player statistics")
        verbose_name_plural = _("player statistics")
        constraints = [models.UniqueConstraint(fields=["user", "engine_slug"], name="games_playerstats_unique")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.engine_slug}"

    @property
    def average_place(self) -> float | None:
        return self.places_sum / self.ranked if self.ranked else None

    @property
    def average_score(self) -> float | None:
        return self.scores_sum / self.scored if self.scored else None


class GameReview(models.Model):
    """The review of one seat's decisions in a finished game (issue 28, ``games.history.review``): each
    decision judged by the strong search from that seat's view at that moment. Shown to that seat's player
    only. ``entries``: per reviewed decision ``{"sequence", "mark", "loss", "played_value", "best_value",
    "labels": {language: {"played", "best"}}}`` (``best`` and its label only when the search preferred
    another move; labels are built from the seat's view then, in each of the site's languages)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reviews")
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    entries = models.JSONField(default=list)
    iterations = models.PositiveIntegerField(_("iterations per decision"), default=0)
    skipped = models.PositiveIntegerField(_("decisions not reviewed"), default=0)  # past the per-game budget
    cpu_ms = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("game review")
        verbose_name_plural = _("game reviews")
        constraints = [
            models.UniqueConstraint(fields=["game", "seat_number"], name="games_review_unique_seat"),
        ]

    def __str__(self) -> str:
        return f"review {self.game_id}:{self.seat_number}"


class SeatView(models.Model):
    """One seat's (or the spectators') view and legal moves at the current version.

    The view is stored without its ``log``: ``log_tail`` keeps the last events
    for pages (constant size whatever the game's length) and ``log_size`` the
    whole log's length. The whole log is not stored (every move would rewrite
    every viewer's whole log): ``games.history.selectors.seat_view_with_log`` derives it
    from the state for the one viewer who asks.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seat_views")
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)  # None: spectators
    view = models.JSONField(default=dict)
    legal_moves = models.JSONField(default=list)
    log_tail = models.JSONField(default=list)
    log_size = models.PositiveIntegerField(default=0)
    # Game version when this row's view last changed (cheap "anything new for me?").
    view_version = models.PositiveIntegerField(default=0)
    # Game version when this seat last moved or its legal moves last changed: a
    # move prepared at an older version is stale (see services.check_play_move).
    moves_version = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("seat view")
        verbose_name_plural = _("seat views")
        constraints = [
            models.UniqueConstraint(
                fields=["game", "seat_number"], nulls_distinct=False, name="games_seatview_unique_seat"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{'spectator' if self.seat_number is None else self.seat_number}"


class Move(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    sequence = models.PositiveIntegerField(_("number"))  # 1-based; equals the version it produced
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    move = models.JSONField(_("move"))
    made_by = models.CharField(_("made by"), max_length=10, choices=MadeBy.choices, default=MadeBy.PLAYER)
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    idempotency_key = models.UUIDField(null=True, blank=True)
    # Each viewer's ("0", "1", ... and "spectator") engine log length after this move, like
    # GameEvent.log_positions: the log shows each event with the time of the move that made it (issue 19).
    # Counts only, never cards; empty for moves made before it was kept.
    log_positions = models.JSONField(default=dict, blank=True, editable=False)

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["game", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["game", "sequence"], name="games_move_unique_sequence"),
            models.UniqueConstraint(fields=["game", "idempotency_key"], name="games_move_unique_key"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.sequence}"


class GameEvent(models.Model):
    """A platform event (not an engine event), public to everyone at the table.

    ``log_positions`` maps each viewer ("0", "1", ... and "spectator") to the
    length of that viewer's engine log when the event happened, so each log
    shows it at the right place; it holds counts only, never cards.
    """

    class Kind(models.TextChoices):
        JOINED = "joined", _("joined")
        LEFT = "left", _("left")
        STARTED = "started", _("started")
        TIMEOUT = "timeout", _("timeout")
        DROPPED_OUT = "dropped_out", _("dropped out")
        CANCELLED = "cancelled", _("cancelled")
        RESIGNED = "resigned", _("resigned")
        HANDED_OVER = "handed_over", _("handed to the bot")
        ABANDONED = "abandoned", _("called off")
        FORCED_MOVE = "forced_move", _("only possible move played")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    seat_number = models.PositiveSmallIntegerField(null=True, blank=True)
    name = models.CharField(max_length=150, blank=True)  # the player's public name at the time
    # Whose name it is: deleting that account clears it (issue 29 item 1), even in a waiting room they left.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    version = models.PositiveIntegerField(default=0)
    log_positions = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("game event")
        verbose_name_plural = _("game events")
        ordering = ["game", "id"]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.kind}"


class Invitation(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        ACCEPTED = "accepted", _("accepted")
        DECLINED = "declined", _("declined")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="game_invitations")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="sent_game_invitations"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    token = models.UUIDField(default=uuid.uuid4, editable=False, unique=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="games_invitation_unique")]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.user_id}"


class TutorialGuest(models.Model):
    """The throwaway user a tutorial is played by (issue 27): no e-mail, no password, known only to the
    session cookie of the visitor who started it; the sweep deletes it with its games after TUTORIAL_HOURS."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tutorial_guest")
    created_at = models.DateTimeField(_("created"), auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("tutorial guest")
        verbose_name_plural = _("tutorial guests")

    def __str__(self) -> str:
        return f"tutorial guest {self.user_id}"


class DealCommitment(models.Model):
    """The site's secret for a game someone is about to create, committed (its SHA-256 shown) before their own
    random bits are drawn (issue 30: two-step create). Taken, once, by the game created with it; forgotten after
    ``games.lobby.commitments.COMMITMENT_LIFETIME``. The secret stays here, never shown, until it becomes a game's."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deal_commitments")
    secret_sha256 = models.CharField(max_length=64, unique=True)
    secret = models.CharField(max_length=40)  # decimal digits of a 128-bit number, as GameState.seed
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        verbose_name = _("deal commitment")
        verbose_name_plural = _("deal commitments")

    def __str__(self) -> str:
        return f"{self.user_id}:{self.secret_sha256[:12]}"
