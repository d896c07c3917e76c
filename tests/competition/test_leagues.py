"""Leagues: sign-ups, every game created exactly once, live standings, a winner, e-mails through the outbox."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
from competition_helpers import finish_with
from django.db import connection
from django.utils import timezone, translation

from competition import leagues, tasks
from competition.models import League, LeagueGame, LeagueStatus
from competition.pairings import meetings
from games.exceptions import BadInput
from games.models import Game, GameStatus
from notifications.emails import render
from notifications.models import OutboxEmail

SOON = dt.timedelta(hours=1)


def new_league(creator, *, size=2, slug="marumiere", name="Autumn cup") -> League:
    return leagues.create_league(
        user=creator, name=name, engine_slug=slug, players_per_game=size, signup_until=timezone.now() + SOON
    )


def signed_up_league(people, *, count, size=2, slug="marumiere") -> League:
    league = new_league(people[0], size=size, slug=slug)
    for user in people[1:count]:
        leagues.sign_up(user=user, league_id=league.pk)
    return league


def due(league: League) -> dt.datetime:
    return league.signup_until + dt.timedelta(seconds=1)


@pytest.mark.django_db
def test_start_creates_every_round_robin_game_once_even_when_run_twice(people):
    league = signed_up_league(people, count=5)
    assert leagues.start_league(league_id=league.pk, now=timezone.now()) is None, "not before its date"
    assert leagues.start_league(league_id=league.pk, now=due(league)) is not None
    assert leagues.start_league(league_id=league.pk, now=due(league)) is None, "a second run does nothing"
    league.refresh_from_db()
    assert league.status == LeagueStatus.ACTIVE
    links = list(LeagueGame.objects.filter(league=league).select_related("game"))
    assert len(links) == 10  # 5 players: every pair once
    games = [link.game for link in links]
    # Seated, rated, not dealt: each waits for its players' bits (issue 30, test_league_deals.py).
    assert all(g.status == GameStatus.OPEN and g.contributions_due_at and g.rated and g.players == 2 for g in games)
    assert all(g.time_limit_hours == league.time_limit_hours for g in games)
    rounds = {}
    for link in links:
        rounds.setdefault(link.round, []).append(sorted(link.game.seats.values_list("user_id", flat=True)))
    met = meetings(list(rounds.values()))
    assert len(met) == 10 and set(met.values()) == {1}
    started = OutboxEmail.objects.filter(kind="league_started")
    assert started.count() == 5


@pytest.mark.django_db(transaction=True)
def test_two_workers_starting_a_league_at_once_create_its_games_once(people):
    league = signed_up_league(people, count=4)
    League.objects.filter(pk=league.pk).update(signup_until=timezone.now() - dt.timedelta(seconds=1))
    barrier = threading.Barrier(2)
    results, errors = [], []

    def worker():
        try:
            barrier.wait()
            # The task as a worker runs it (eagerly); its value read without .get(), which Celery refuses
            # while another thread is inside a task.
            outcome = tasks.start_league.apply(args=[league.pk])
            if outcome.failed():
                raise outcome.result
            results.append(outcome.result)
        except Exception as exc:  # noqa: BLE001 - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert sorted(results) == [False, True]
    assert LeagueGame.objects.filter(league=league).count() == 6
    assert Game.objects.count() == 6
    assert OutboxEmail.objects.filter(kind="league_started").count() == 4


@pytest.mark.django_db
def test_the_beat_task_starts_due_leagues(people):
    league = signed_up_league(people, count=3)
    League.objects.filter(pk=league.pk).update(signup_until=timezone.now() - dt.timedelta(seconds=1))
    assert tasks.start_due_leagues.apply().get() == 1
    assert League.objects.get(pk=league.pk).status == LeagueStatus.ACTIVE
    assert tasks.start_due_leagues.apply().get() == 0


@pytest.mark.django_db
def test_multiplayer_league_seats_tables_of_its_size(people):
    league = signed_up_league(people, count=6, size=3, slug="mamma-mia")
    leagues.start_league(league_id=league.pk, now=due(league))
    links = LeagueGame.objects.filter(league=league).select_related("game")
    assert links.count() >= 4 and all(link.game.players == 3 for link in links)
    table = leagues.standings(league=league)
    assert len({row.scheduled for row in table.rows}) == 1, "everyone plays as many games"


@pytest.mark.django_db
def test_standings_follow_results_and_the_last_game_names_the_winner(people):
    a, b, c = people[:3]
    league = signed_up_league(people, count=3)
    leagues.start_league(league_id=league.pk, now=due(league))
    links = list(LeagueGame.objects.filter(league=league).select_related("game"))
    strength = {a.pk: 3, b.pk: 2, c.pk: 1}
    for index, link in enumerate(links):
        users = [s.user for s in link.game.seats.select_related("user")]
        best = max(users, key=lambda u: strength[u.pk])
        places = {u: 1 if u == best else 2 for u in users}
        finish_with(link.game, places)
        league.refresh_from_db()
        if index < len(links) - 1:
            assert league.status == LeagueStatus.ACTIVE
            rows = leagues.standings(league=league).rows
            assert sum(r.played for r in rows) == 2 * (index + 1)
    league.refresh_from_db()
    assert league.status == LeagueStatus.FINISHED and league.winner == a
    rows = leagues.standings(league=league).rows
    assert [(r.user, r.points, r.wins) for r in rows] == [(a, 2.0, 2), (b, 1.0, 1), (c, 0.0, 0)]
    finished = OutboxEmail.objects.filter(kind="league_finished").select_related("user")
    assert finished.count() == 3
    for row in finished:
        for language in ("en", "ja", "zh-hant", "fr"):
            row.user.language = language
            subject, text, html = render(row)
            assert league.name in subject and a.public_name in text
    with translation.override("en"):
        subject, _text, _html = render(finished.get(user=a))
    assert "you won" in subject


@pytest.mark.django_db
def test_a_tie_is_half_a_point_each(people):
    a, b = people[:2]
    league = signed_up_league(people, count=2)
    leagues.start_league(league_id=league.pk, now=due(league))
    link = LeagueGame.objects.get(league=league)
    finish_with(link.game, {a: 1, b: 1})
    rows = leagues.standings(league=league).rows
    assert [r.points for r in rows] == [0.5, 0.5]
    assert League.objects.get(pk=league.pk).status == LeagueStatus.FINISHED


@pytest.mark.django_db
def test_too_few_players_call_the_league_off_with_an_email(people):
    league = new_league(people[0], size=3, slug="mamma-mia")
    leagues.sign_up(user=people[1], league_id=league.pk)
    leagues.start_league(league_id=league.pk, now=due(league))
    league.refresh_from_db()
    assert league.status == LeagueStatus.CANCELLED and not LeagueGame.objects.exists()
    row = OutboxEmail.objects.filter(kind="league_finished").first()
    assert row.payload.get("cancelled") and "called off" in render(row)[0]


@pytest.mark.django_db
def test_league_emails_are_message_kinds_of_their_own_with_their_renderers(people):
    """Issue 26: league news is a registered kind like every other message (no fallback table of renderers)."""
    from competition import emails as league_emails
    from notifications import emails as notification_emails
    from notifications.outbox import get_kind

    assert not hasattr(notification_emails, "RENDERERS")
    league = signed_up_league(people, count=3)
    leagues.start_league(league_id=league.pk, now=due(league))
    row = OutboxEmail.objects.filter(kind="league_started").first()
    kind = get_kind(row.kind)
    assert (kind.name, kind.audience, kind.render_email) == ("league_started", "service", league_emails._started)
    assert get_kind("league_finished").render_email is league_emails._finished
    assert "has started" in render(row)[0]


@pytest.mark.django_db
def test_sign_ups_close_at_the_date_and_repeats_are_harmless(people):
    league = new_league(people[0])
    leagues.sign_up(user=people[1], league_id=league.pk)
    leagues.sign_up(user=people[1], league_id=league.pk)
    assert league.entries.count() == 2
    leagues.withdraw(user=people[1], league_id=league.pk)
    leagues.withdraw(user=people[1], league_id=league.pk)
    assert league.entries.count() == 1
    with pytest.raises(leagues.LeagueClosed):
        leagues.sign_up(user=people[2], league_id=league.pk, now=due(league))


@pytest.mark.django_db
@pytest.mark.parametrize(
    "changes",
    [
        {"name": ""},
        {"name": "x" * 81},
        {"engine_slug": "chess"},
        {"players_per_game": 9},
        {"players_per_game": "2"},
        {"time_limit_hours": 5},
        {"signup_until": "tomorrow"},
        {"signup_until": "past"},
        {"signup_until": "far"},
    ],
)
def test_invalid_leagues_are_refused(people, changes):
    now = timezone.now()
    special = {"past": now - SOON, "far": now + dt.timedelta(days=400), "tomorrow": "tomorrow"}
    args = {"name": "Cup", "engine_slug": "konamon", "players_per_game": 2, "signup_until": now + SOON,
            "time_limit_hours": 24}
    args.update(changes)
    if changes.get("signup_until") in special:
        args["signup_until"] = special[changes["signup_until"]]
    with pytest.raises(BadInput):
        leagues.create_league(user=people[0], **args)
    assert not League.objects.exists()
