"""Ratings (one per player and game), their history, and leagues.

A ``Rating`` is kept by ``competition.ratings.record_game`` in the transaction that finishes a rated
game; ``RatingChange`` rows are its history (one per rated seat), enough to draw the chart and to
check the ratings against a rebuild from the finished games (``manage.py rebuild_ratings``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games.models import TimeLimit


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    engine_slug = models.CharField(_("game"), max_length=32)
    mu = models.FloatField(_("mean skill (μ)"))
    sigma = models.FloatField(_("uncertainty (σ)"))
    # μ − 3σ, stored so the leaderboard is a range of an index.
    conservative = models.FloatField(_("rating"))
    games = models.PositiveIntegerField(_("rated games"), default=0)
    last_game_at = models.DateTimeField(_("last rated game"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [models.UniqueConstraint(fields=["user", "engine_slug"], name="competition_rating_unique")]
        indexes = [
            # The leaderboard: one game's players by rating, best first, keyset-paged on (rating, user);
            # the columns a page shows are included, so a page is an index-only range scan.
            models.Index(
                fields=["engine_slug", "-conservative", "-user"],
                include=["id", "last_game_at", "games", "mu", "sigma"],
                name="competition_leaderboard_idx",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.engine_slug} {self.conservative:.1f}"


class RatingChange(models.Model):
    """One player's rating before and after one rated game."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    engine_slug = models.CharField(_("game"), max_length=32)
    rank = models.PositiveSmallIntegerField(_("place"))
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu = models.FloatField()
    sigma = models.FloatField()
    conservative = models.FloatField(_("rating"))
    at = models.DateTimeField(_("finished"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="competition_ratingchange_unique")]
        indexes = [
            # The profile's chart: a player's last changes in one game, newest first.
            models.Index(fields=["user", "engine_slug", "-id"], name="competition_rating_history_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}:{self.user_id}"


class LeagueStatus(models.TextChoices):
    SIGNUP = "signup", _("Open for sign-ups")
    ACTIVE = "active", _("In progress")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class League(models.Model):
    name = models.CharField(_("name"), max_length=80)
    engine_slug = models.CharField(_("game"), max_length=32)
    players_per_game = models.PositiveSmallIntegerField(_("players per game"))
    # Issue 21 brings time controls: this one field is the league's, passed to every game it creates.
    time_limit_hours = models.PositiveSmallIntegerField(
        _("time limit per move"), choices=TimeLimit.choices, default=TimeLimit.D2
    )
    signup_until = models.DateTimeField(_("sign-ups until"))
    status = models.CharField(_("status"), max_length=10, choices=LeagueStatus.choices, default=LeagueStatus.SIGNUP)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="created_leagues"
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    started_at = models.DateTimeField(_("started"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="leagues_won"
    )

    class Meta:
        verbose_name = _("league")
        verbose_name_plural = _("leagues")
        indexes = [
            models.Index(fields=["status", "signup_until"], name="competition_league_due_idx"),
            models.Index(fields=["status", "-created_at"], name="competition_league_list_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("competition:league", args=[self.pk])

    @property
    def engine_name(self) -> str:
        from games.registry import game_title

        return game_title(self.engine_slug)


class LeagueEntry(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="league_entries")
    joined_at = models.DateTimeField(_("signed up"), auto_now_add=True)

    class Meta:
        verbose_name = _("league entry")
        verbose_name_plural = _("league entries")
        constraints = [models.UniqueConstraint(fields=["league", "user"], name="competition_entry_unique")]

    def __str__(self) -> str:
        return f"{self.league_id}:{self.user_id}"


class LeagueGame(models.Model):
    """A game the league created: (round, table) is unique, so each is created exactly once."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="league_games")
    round = models.PositiveSmallIntegerField(_("round"))
    table = models.PositiveSmallIntegerField(_("table"))
    game = models.OneToOneField("games.Game", on_delete=models.CASCADE, related_name="league_game")

    class Meta:
        verbose_name = _("league game")
        verbose_name_plural = _("league games")
        constraints = [
            models.UniqueConstraint(fields=["league", "round", "table"], name="competition_leaguegame_unique")
        ]
        ordering = ["league", "round", "table"]

    def __str__(self) -> str:
        return f"{self.league_id}:{self.round}.{self.table}"
