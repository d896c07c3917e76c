"""Reads: leaderboards, a player's ratings and their history, ratings next to names.

Every read here costs a fixed number of queries whatever the number of players or games: the
leaderboard is a keyset range of ``competition_leaderboard_idx`` (no OFFSET, no COUNT), the chart
the newest ``CHART_POINTS`` rows of ``competition_rating_history_idx``.
"""

from __future__ import annotations

import datetime as dt
import math
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Case, OuterRef, Q, Subquery, When
from django.utils import timezone

from competition.models import Rating, RatingChange
from competition.ratings import ACTIVE_DAYS, CHART_POINTS, PROVISIONAL_GAMES

LEADERBOARD_PAGE = 50


@dataclass
class Shown:
    """A rating as the site shows it."""

    value: float
    games: int

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    @property
    def display(self) -> str:
        """One decimal as the reader writes it: 3.4, « 3,4 » in French (the API keeps the plain number)."""
        from django.utils.formats import number_format

        return number_format(round(self.value, 1), 1)


def shown(row: Rating) -> Shown:
    return Shown(value=row.conservative, games=row.games)


def access_columns(*, user) -> dict:
    """Each seated player's rating of the game, read with the game's seats (``games.policies`` access columns),
    for a rated game only (PostgreSQL evaluates the subqueries only when the CASE holds)."""
    rating = Rating.objects.filter(user_id=OuterRef("user_id"), engine_slug=OuterRef("game__engine_slug"), games__gt=0)
    rated = Q(game__rated=True)
    return {
        "rating_value": Case(When(rated, then=Subquery(rating.values("conservative")[:1]))),
        "rating_games": Case(When(rated, then=Subquery(rating.values("games")[:1]))),
    }


def ratings_for(*, user_ids: Iterable[int | None], engine_slug: str) -> dict[int, Shown]:
    """The shown ratings of these players in one game: one query (none without players)."""
    ids = sorted({u for u in user_ids if u is not None})
    if not ids:
        return {}
    rows = Rating.objects.filter(engine_slug=engine_slug, user_id__in=ids, games__gt=0).only(
        "user_id", "conservative", "games"
    )
    return {row.user_id: shown(row) for row in rows}


def ratings_for_pairs(pairs: Iterable[tuple[int | None, str]]) -> dict[tuple[int, str], Shown]:
    """Shown ratings of (user id, game) pairs of several games (the lobby): one query."""
    pairs = {(u, slug) for u, slug in pairs if u is not None}
    if not pairs:
        return {}
    users = {u for u, _slug in pairs}
    slugs = {slug for _u, slug in pairs}
    rows = Rating.objects.filter(user_id__in=users, engine_slug__in=slugs, games__gt=0).only(
        "user_id", "engine_slug", "conservative", "games"
    )
    return {(r.user_id, r.engine_slug): shown(r) for r in rows if (r.user_id, r.engine_slug) in pairs}


def add_ratings_to_players(players: list[dict], *, engine_slug: str) -> list[dict]:
    """The game page's player dicts (``games.play.selectors.player_dicts``) with ``rating`` (a ``Shown`` or
    ``None``): one query. The dicts are part of the cached board's key, so a new rating shows at once."""
    ratings = ratings_for(user_ids=[p.get("user_id") for p in players], engine_slug=engine_slug)
    for player in players:
        player["rating"] = ratings.get(player.get("user_id"))
    return players


def add_ratings_to_stats(*, user, rows: list[dict]) -> None:
    """A profile's per-game statistics rows (``games.history.selectors.game_stats``) with each game's
    ``rating`` of ``user``: one query (``games.policies`` stats extra)."""
    ratings = ratings_for_pairs((user.pk, row["engine_slug"]) for row in rows)
    for row in rows:
        row["rating"] = ratings.get((user.pk, row["engine_slug"]))


# Leaderboards ----------------------------------------------------------------------------


@dataclass
class LeaderboardRow:
    rank: int
    user_id: int
    username: str
    name: str
    rating: Shown
    mu: float
    sigma: float
    last_game_at: dt.datetime


@dataclass
class LeaderboardPage:
    engine_slug: str
    rows: list[LeaderboardRow]
    previous: str | None = None  # token of the page before; None on the first
    next: str | None = None  # token of the page after; None on the last

    @property
    def has_other_pages(self) -> bool:
        return self.previous is not None or self.next is not None


def _token(direction: str, row: LeaderboardRow) -> str:
    # repr of a float round-trips exactly; the rank only numbers the rows shown (a forged one misnumbers
    # the forger's own page, nothing more).
    return f"{direction}.{row.rating.value!r}.{row.user_id}.{row.rank}"


def parse_token(token: str | None) -> tuple[str, float, int, int] | None:
    """(``"after"`` or ``"before"``, rating, user id, rank) of a page token; ``None`` for the first page
    (an empty or malformed token: never an error)."""
    parts = str(token or "").split(".")
    if len(parts) < 4:
        return None
    direction, user_id, rank = parts[0], parts[-2], parts[-1]
    value = ".".join(parts[1:-2])
    if direction not in ("after", "before") or not user_id.isdigit() or not rank.isdigit():
        return None
    try:
        rating = float(value)
    except ValueError:
        return None
    if not math.isfinite(rating) or int(user_id) > 2**62 or int(rank) > 2**31:
        return None
    return direction, rating, int(user_id), int(rank)


def leaderboard_queryset(*, engine_slug: str, now: dt.datetime | None = None):
    """Active players of one game (a rated game in the last ``ACTIVE_DAYS`` days), best first."""
    since = (now or timezone.now()) - dt.timedelta(days=ACTIVE_DAYS)
    return Rating.objects.filter(engine_slug=engine_slug, last_game_at__gte=since)


def leaderboard_page_queryset(
    *, engine_slug: str, key: tuple[str, float, int, int] | None, per_page: int, now: dt.datetime | None = None
):
    """The rows of one page and the next one's first (``per_page`` + 1), from ``key`` on (a parsed token)."""
    qs = leaderboard_queryset(engine_slug=engine_slug, now=now).select_related("user")
    qs = qs.only(
        "user_id", "conservative", "games", "mu", "sigma", "last_game_at",
        "user__username", "user__display_name",
    )
    if key is None:
        qs = qs.order_by("-conservative", "-user_id")
    elif key[0] == "before":
        # Row comparison: PostgreSQL turns it into the index range's start, whatever the depth.
        qs = qs.extra(where=["(conservative, user_id) > (%s, %s)"], params=[key[1], key[2]])
        qs = qs.order_by("conservative", "user_id")
    else:
        qs = qs.extra(where=["(conservative, user_id) < (%s, %s)"], params=[key[1], key[2]])
        qs = qs.order_by("-conservative", "-user_id")
    return qs[: per_page + 1]


def leaderboard(
    *, engine_slug: str, page: str | None = None, per_page: int = LEADERBOARD_PAGE, now: dt.datetime | None = None
) -> LeaderboardPage:
    """One page of a game's leaderboard: one query (the users' names joined), at any depth.

    ``page`` is a token from a previous page (``after.<rating>.<user>.<rank>`` / ``before...``); the
    rows are a range of ``competition_leaderboard_idx`` read from the key on, LIMIT ``per_page`` + 1.
    """
    key = parse_token(page)
    qs = leaderboard_page_queryset(engine_slug=engine_slug, key=key, per_page=per_page, now=now)
    backwards = key is not None and key[0] == "before"
    first_rank = 1 if key is None else key[3] + 1
    fetched = list(qs)
    more = len(fetched) > per_page
    fetched = fetched[:per_page]
    if backwards:
        fetched.reverse()
        first_rank = max(1, key[3] - len(fetched))
    rows = [
        LeaderboardRow(
            rank=first_rank + i, user_id=r.user_id, username=r.user.username, name=r.user.public_name,
            rating=shown(r), mu=r.mu, sigma=r.sigma, last_game_at=r.last_game_at,
        )
        for i, r in enumerate(fetched)
    ]
    result = LeaderboardPage(engine_slug=engine_slug, rows=rows)
    if rows:
        has_before = (key is not None and not backwards) or (backwards and more)
        has_after = (not backwards and more) or backwards
        if has_before and rows[0].rank > 1:
            result.previous = _token("before", rows[0])
        if has_after:
            result.next = _token("after", rows[-1])
    return result


# A player's ratings ----------------------------------------------------------------------


@dataclass
class PlayerRating:
    engine_slug: str
    rating: Shown
    mu: float
    sigma: float
    last_game_at: dt.datetime | None
    history: list[RatingChange]  # oldest first, at most CHART_POINTS

    @property
    def engine_name(self) -> str:
        from games.registry import game_title

        return game_title(self.engine_slug)


def player_ratings(*, user, with_history: bool = True) -> list[PlayerRating]:
    """``user``'s rating in each game they have a rated game of, with the newest ``CHART_POINTS``
    changes: one query, plus one per rated game (at most the number of games on the site)."""
    result = []
    for row in Rating.objects.filter(user=user, games__gt=0).order_by("engine_slug"):
        history: list[RatingChange] = []
        if with_history:
            history = list(
                RatingChange.objects.filter(user=user, engine_slug=row.engine_slug)
                .order_by("-id")
                .only("game_id", "rank", "conservative", "mu", "sigma", "at")[:CHART_POINTS]
            )
            history.reverse()
        result.append(
            PlayerRating(
                engine_slug=row.engine_slug, rating=shown(row), mu=row.mu, sigma=row.sigma,
                last_game_at=row.last_game_at, history=history,
            )
        )
    return result
