"""Ratings per game with Weng–Lin (OpenSkill's Plackett–Luce model): multiplayer, ties allowed.

Each player has, per game, a skill estimate μ and its uncertainty σ (a new player: μ = 25, σ = 25/3).
After a rated game OpenSkill moves everyone's μ by how their place compares with what the table's
ratings predicted, and shrinks σ. The number shown is the conservative ``μ − 3σ`` (0 for a new
player): the skill we are ~99 % sure the player has at least; it rises as games make us surer.
Below ``PROVISIONAL_GAMES`` rated games it is marked provisional.

``record_game`` runs in the transaction that finishes a game (``receivers``), under the rows' locks;
``rebuild`` recomputes every rating from the finished games, in the order they finished, so the
stored ratings can be checked (``manage.py rebuild_ratings``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from types import SimpleNamespace

from django.db import transaction
from openskill.models import PlackettLuce

from competition.models import Rating, RatingChange
from competition.outcome import game_result

MU = 25.0
SIGMA = MU / 3
PROVISIONAL_GAMES = 10
ACTIVE_DAYS = 90
# Rating changes kept on the profile chart (the newest ones).
CHART_POINTS = 100


@cache
def model() -> PlackettLuce:
    """OpenSkill's defaults (β = 25/6, τ = 25/300): deterministic, so a rebuild gives the same numbers."""
    return PlackettLuce(mu=MU, sigma=SIGMA)


def conservative(mu: float, sigma: float) -> float:
    """The number shown: μ − 3σ."""
    return mu - 3 * sigma


def rate(ratings: dict[int, tuple[float, float]], places: dict[int, int]) -> dict[int, tuple[float, float]]:
    """New (μ, σ) of every player of one game: ``ratings`` their (μ, σ) before, ``places`` 1 = best."""
    players = sorted(places)
    teams = [[model().rating(mu=ratings[p][0], sigma=ratings[p][1])] for p in players]
    rated = model().rate(teams, ranks=[float(places[p]) for p in players])
    return {p: (team[0].mu, team[0].sigma) for p, team in zip(players, rated, strict=True)}


def record_game(*, game, seats: Iterable | None = None) -> list[RatingChange]:
    """Update the ratings of the players of ``game``, just finished, if it is rated; its changes.

    Runs inside the transaction that finished the game (the ``game_finished`` signal). The players'
    rating rows are created if missing and locked in user order (two games ending at once for one
    player apply one after the other; the same order everywhere, so no deadlock). 5 queries; none
    for an unrated game.
    """
    if not game.rated:
        return []
    from games.models import Seat

    if seats is None:
        seats = Seat.objects.filter(game_id=game.pk)
    places = game_result(game=game, seats=seats)
    if places is None:
        return []
    user_ids = sorted(places)
    slug = game.engine_slug
    Rating.objects.bulk_create(
        [Rating(user_id=u, engine_slug=slug, mu=MU, sigma=SIGMA, conservative=conservative(MU, SIGMA))
         for u in user_ids],
        ignore_conflicts=True,
    )
    rows = {
        row.user_id: row
        for row in Rating.objects.select_for_update().filter(engine_slug=slug, user_id__in=user_ids).order_by("user_id")
    }
    after = rate({u: (rows[u].mu, rows[u].sigma) for u in user_ids}, places)
    at = game.finished_at
    changes = []
    for user_id in user_ids:
        row = rows[user_id]
        mu, sigma = after[user_id]
        changes.append(
            RatingChange(
                game_id=game.pk, user_id=user_id, engine_slug=slug, rank=places[user_id],
                mu_before=row.mu, sigma_before=row.sigma, mu=mu, sigma=sigma,
                conservative=conservative(mu, sigma), at=at,
            )
        )
        row.mu, row.sigma, row.conservative = mu, sigma, conservative(mu, sigma)
        row.games += 1
        row.last_game_at = max(row.last_game_at, at) if row.last_game_at else at
    Rating.objects.bulk_update(list(rows.values()), ["mu", "sigma", "conservative", "games", "last_game_at"])
    RatingChange.objects.bulk_create(changes)
    return changes


# Rebuilding from the finished games ------------------------------------------------------------


@dataclass
class Rebuilt:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    last_game_at: dt.datetime | None = None


@dataclass
class RebuildReport:
    games: int = 0
    ratings: dict[tuple[int, str], Rebuilt] = field(default_factory=dict)
    differences: list[str] = field(default_factory=list)


TOLERANCE = 1e-9


def _finished_rated_games(batch: int = 20_000) -> Iterator[tuple[SimpleNamespace, list[SimpleNamespace]]]:
    """Every finished rated game with its seats, in the order the games finished (one streamed query)."""
    from games.models import GameStatus, Seat

    fields = ["game_id", "game__engine_slug", "game__finished_at", "game__status", "user_id", "final_rank"]
    extra = [name for name in ("resigned", "resigned_at") if any(f.name == name for f in Seat._meta.fields)]
    rows = (
        Seat.objects.filter(game__rated=True, game__status=GameStatus.FINISHED)
        .order_by("game__finished_at", "game_id", "number")
        .values_list(*fields, *extra)
        .iterator(chunk_size=batch)
    )
    current, seats = None, []
    for row in rows:
        game_id, slug, finished_at, status, user_id, final_rank, *marks = row
        if current is None or current.pk != game_id:
            if current is not None:
                yield current, seats
            current = SimpleNamespace(pk=game_id, engine_slug=slug, finished_at=finished_at, status=status)
            seats = []
        seat = SimpleNamespace(user_id=user_id, final_rank=final_rank, **dict(zip(extra, marks, strict=True)))
        seats.append(seat)
    if current is not None:
        yield current, seats


def rebuild() -> RebuildReport:
    """Every rating recomputed from the finished rated games, and how the stored ones differ."""
    report = RebuildReport()
    ratings = report.ratings
    for game, seats in _finished_rated_games():
        places = game_result(game=game, seats=seats)
        if places is None:
            continue
        report.games += 1
        keys = {u: (u, game.engine_slug) for u in places}
        for key in keys.values():
            ratings.setdefault(key, Rebuilt())
        after = rate({u: (ratings[k].mu, ratings[k].sigma) for u, k in keys.items()}, places)
        for user_id, key in keys.items():
            entry = ratings[key]
            entry.mu, entry.sigma = after[user_id]
            entry.games += 1
            entry.last_game_at = game.finished_at
    stored = {(r.user_id, r.engine_slug): r for r in Rating.objects.iterator(chunk_size=20_000)}
    for key in sorted(set(stored) | set(ratings)):
        want, have = ratings.get(key), stored.get(key)
        if want is None:
            if have.games:
                report.differences.append(f"user {key[0]}, {key[1]}: stored rating without any rated game")
            continue
        if have is None:
            report.differences.append(f"user {key[0]}, {key[1]}: no stored rating")
        elif (
            abs(have.mu - want.mu) > TOLERANCE or abs(have.sigma - want.sigma) > TOLERANCE or have.games != want.games
        ):
            report.differences.append(
                f"user {key[0]}, {key[1]}: stored μ={have.mu:.6f} σ={have.sigma:.6f} in {have.games} games, "
                f"rebuilt μ={want.mu:.6f} σ={want.sigma:.6f} in {want.games}"
            )
    return report


@transaction.atomic
def write_rebuilt(report: RebuildReport) -> int:
    """Replace the stored ratings by the rebuilt ones (the history rows are left as they are)."""
    Rating.objects.all().delete()
    rows = [
        Rating(
            user_id=user_id, engine_slug=slug, mu=r.mu, sigma=r.sigma, conservative=conservative(r.mu, r.sigma),
            games=r.games, last_game_at=r.last_game_at,
        )
        for (user_id, slug), r in report.ratings.items()
    ]
    Rating.objects.bulk_create(rows, batch_size=5000)
    return len(rows)
