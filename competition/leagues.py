"""Leagues: sign-ups until a date, then every game of the schedule at once, live standings, a winner.

A league is created by anyone for one game and a number of players per game. Until ``signup_until``
players sign up (and may withdraw); then ``start_league`` (the beat task, or anyone's page view of a
league past its date) creates every game of ``pairings.schedule`` in one transaction under the
league's row lock: it runs once whatever the number of workers, and ``LeagueGame``'s unique
(league, round, table) would refuse a second copy anyway. The games are public, rated, with the
league's time limit; each is dealt once its players have added their bits to the deal
(issue 30, ``games.lobby.seated``), its clocks starting then. When the last of them ends
(``game_over``, in that game's transaction) the league finishes and names its winner. Entrants are
e-mailed through the outbox when it starts and ends.

Standings: in each game, a point for every opponent finished behind and half a point for every one
tied with (2 players: 1 for a win, ½ for a tie); ties in points are broken by wins, then by who
signed up first.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from competition.models import League, LeagueEntry, LeagueGame, LeagueStatus
from competition.outcome import game_result
from competition.pairings import schedule
from games.engines import engine_slugs, get_engine
from games.exceptions import BadInput, GameError
from games.models import Game, GameStatus, Seat, TimeLimit, Visibility
from games.registry import game_title

MAX_PLAYERS = 40  # entrants per league: bounds its games (and standings) to a few hundred
MAX_SIGNUP_DAYS = 60


class LeagueClosed(GameError):
    code = "league_closed"
    status = 409

    def default_message(self) -> str:
        return _("Sign-ups for this league are closed.")


class NoSuchLeague(GameError):
    code = "not_found"
    status = 404

    def default_message(self) -> str:
        return _("There is no such league.")


# Creating and signing up ------------------------------------------------------------------


@transaction.atomic
def create_league(
    *,
    user,
    name: str,
    engine_slug: str,
    players_per_game: int,
    signup_until: dt.datetime,
    time_limit_hours: int = TimeLimit.D2,
    now: dt.datetime | None = None,
) -> League:
    """A new league open for sign-ups, its creator signed up; ``BadInput`` for anything invalid."""
    now = now or timezone.now()
    name = (name or "").strip()
    if not name or len(name) > 80:
        raise BadInput(_("Give the league a name of at most 80 characters."))
    if engine_slug not in engine_slugs():
        raise BadInput()
    engine = get_engine(engine_slug)
    if not isinstance(players_per_game, int) or not engine.min_players <= players_per_game <= engine.max_players:
        raise BadInput(
            _("%(game)s takes %(min)s to %(max)s players.")
            % {"game": game_title(engine.slug), "min": engine.min_players, "max": engine.max_players}
        )
    if time_limit_hours not in TimeLimit.values:
        raise BadInput()
    if not isinstance(signup_until, dt.datetime) or timezone.is_naive(signup_until):
        raise BadInput()
    if not now < signup_until <= now + dt.timedelta(days=MAX_SIGNUP_DAYS):
        raise BadInput(
            _("Sign-ups must close in the future, within %(days)s days.") % {"days": MAX_SIGNUP_DAYS}
        )
    league = League.objects.create(
        name=name, engine_slug=engine_slug, players_per_game=players_per_game, signup_until=signup_until,
        time_limit_hours=time_limit_hours, created_by=user,
    )
    LeagueEntry.objects.create(league=league, user=user)
    return league


def _locked_open_league(league_id, now: dt.datetime) -> League:
    try:
        league = League.objects.select_for_update().get(pk=league_id)
    except (League.DoesNotExist, ValueError, TypeError):
        raise NoSuchLeague() from None
    if league.status != LeagueStatus.SIGNUP or league.signup_until <= now:
        raise LeagueClosed()
    return league


@transaction.atomic
def sign_up(*, user, league_id: int, now: dt.datetime | None = None) -> LeagueEntry:
    """Sign ``user`` up (again: nothing changes)."""
    league = _locked_open_league(league_id, now or timezone.now())
    entry = LeagueEntry.objects.filter(league=league, user=user).first()
    if entry is not None:
        return entry
    if LeagueEntry.objects.filter(league=league).count() >= MAX_PLAYERS:
        raise LeagueClosed(_("This league is full (%(count)s players).") % {"count": MAX_PLAYERS})
    return LeagueEntry.objects.create(league=league, user=user)


@transaction.atomic
def withdraw(*, user, league_id: int, now: dt.datetime | None = None) -> None:
    """Take ``user``'s sign-up back before the league starts (not signed up: nothing changes)."""
    league = _locked_open_league(league_id, now or timezone.now())
    LeagueEntry.objects.filter(league=league, user=user).delete()


# Starting ------------------------------------------------------------------------------------


def create_seated_game(*, users: list, engine_slug: str, time_limit_hours: int, now: dt.datetime) -> Game:
    """A rated game with ``users`` seated, through the platform's own services: the first creates it, the
    others join, all in the caller's transaction, so nobody else ever sees a free seat. Public: anyone may
    watch a league's games. Not dealt yet (issue 30, ``games.lobby.seated``): it starts when each player has
    added their bits to the deal, or at the deadline (``DEAL_WAIT_HOURS``) with the site drawing the missing."""
    from games.lobby import seated, services

    game = services.create_game(
        user=users[0], engine_slug=engine_slug, players=len(users), time_limit_hours=time_limit_hours,
        visibility=Visibility.PUBLIC, rated=True, contributions_due_at=seated.contributions_due(now),
    )
    for user in users[1:]:
        services.join_game(user=user, game_id=game.pk)
    return game


@transaction.atomic
def start_league(*, league_id: int, now: dt.datetime | None = None) -> League | None:
    """Start a league whose sign-ups have closed: every game of its schedule, then e-mails. Runs once:
    a second call (another worker, a retried task) waits for the row lock, sees the league started and
    does nothing; returns ``None`` then (and for a league not due yet)."""
    now = now or timezone.now()
    league = League.objects.select_for_update().filter(pk=league_id).first()
    if league is None or league.status != LeagueStatus.SIGNUP or league.signup_until > now:
        return None
    entries = list(LeagueEntry.objects.filter(league=league).select_related("user").order_by("joined_at", "id"))
    users = {entry.user_id: entry.user for entry in entries if entry.user.is_active}
    if len(users) < max(2, league.players_per_game):
        league.status, league.finished_at = LeagueStatus.CANCELLED, now
        league.save(update_fields=["status", "finished_at"])
        _queue_emails(league, list(users.values()), kind="league_finished", extra={"cancelled": True})
        return league
    rounds = schedule(list(users), size=league.players_per_game, seed=league.pk)
    for round_number, tables in enumerate(rounds, start=1):
        for table_number, table in enumerate(tables, start=1):
            game = create_seated_game(
                users=[users[u] for u in table], engine_slug=league.engine_slug,
                time_limit_hours=league.time_limit_hours, now=now,
            )
            LeagueGame.objects.create(league=league, round=round_number, table=table_number, game=game)
    league.status, league.started_at = LeagueStatus.ACTIVE, now
    league.save(update_fields=["status", "started_at"])
    _queue_emails(league, list(users.values()), kind="league_started")
    return league


def due_league_ids(*, now: dt.datetime | None = None) -> list[int]:
    """Leagues whose sign-ups have closed and that have not started (competition_league_due_idx)."""
    return list(
        League.objects.filter(status=LeagueStatus.SIGNUP, signup_until__lte=now or timezone.now())
        .order_by("signup_until")
        .values_list("pk", flat=True)[:100]
    )


# Finishing ------------------------------------------------------------------------------------


def game_over(*, game: Game, now: dt.datetime | None = None) -> League | None:
    """A game has ended (finished, or abandoned: issue 17): if it was its league's last, the league
    finishes, names its winner and e-mails its players. In the game's transaction; one query for a
    game of no league."""
    link = LeagueGame.objects.filter(game_id=game.pk).only("league_id").first()
    if link is None:
        return None
    league = League.objects.select_for_update().get(pk=link.league_id)
    if league.status != LeagueStatus.ACTIVE:
        return None
    still_playing = LeagueGame.objects.filter(
        league=league, game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE]
    ).exclude(game_id=game.pk)
    if still_playing.exists():
        return None
    table = standings(league=league)
    league.status, league.finished_at = LeagueStatus.FINISHED, now or timezone.now()
    league.winner_id = table.rows[0].user.pk if table.rows else None
    league.save(update_fields=["status", "finished_at", "winner"])
    _queue_emails(league, [row.user for row in table.rows], kind="league_finished")
    return league


# Standings ---------------------------------------------------------------------------------------


@dataclass
class StandingRow:
    user: object
    position: int = 0
    scheduled: int = 0
    played: int = 0
    points: float = 0.0
    wins: int = 0
    signed_up: dt.datetime | None = None


@dataclass
class Standings:
    rows: list[StandingRow] = field(default_factory=list)
    games: list[LeagueGame] = field(default_factory=list)


def standings(*, league: League) -> Standings:
    """The league's table now, best first (3 queries, however far the league has got)."""
    entries = list(LeagueEntry.objects.filter(league=league).select_related("user").order_by("joined_at", "id"))
    rows = {e.user_id: StandingRow(user=e.user, signed_up=e.joined_at) for e in entries}
    games = list(
        LeagueGame.objects.filter(league=league)
        .select_related("game")
        .prefetch_related(Prefetch("game__seats", queryset=Seat.objects.select_related("user")))
        .order_by("round", "table")
    )
    for link in games:
        seats = list(link.game.seats.all())
        for seat in seats:
            if seat.user_id in rows:
                rows[seat.user_id].scheduled += 1
        places = game_result(game=link.game, seats=seats)
        if places is None:
            continue
        for user_id, place in places.items():
            row = rows.get(user_id)
            if row is None:
                continue
            row.played += 1
            row.wins += place == 1
            row.points += sum(1.0 if place < other else 0.5 for u, other in places.items() if u != user_id
                              and other >= place)
    ordered = sorted(rows.values(), key=lambda r: (-r.points, -r.wins, r.signed_up))
    for position, row in enumerate(ordered, start=1):
        row.position = position
    return Standings(rows=ordered, games=games)


# E-mails --------------------------------------------------------------------------------------------


def _queue_emails(league: League, users: list, *, kind: str, extra: dict | None = None) -> None:
    """One e-mail per entrant through the outbox, in this transaction (unique key: never twice)."""
    from notifications.outbox import Draft, queue, wants_game_mail

    drafts = [
        Draft(user=user, kind=kind, key=f"{kind}:{league.pk}:{user.pk}", payload={"league": league.pk, **(extra or {})})
        for user in users
        if wants_game_mail(user)
    ]
    queue(drafts)
