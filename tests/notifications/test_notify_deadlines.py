"""Deadlines: escalating reminders, timeouts played by the bot, vacations that pause the clock, stalled bots."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from notify_helpers import awaited, play, start_game

from games.models import MadeBy, Move, Seat
from games.play.selectors import player_dicts
from notifications import tasks
from notifications.deadlines import check_deadlines, due_stage
from notifications.models import DeadlineReminder, OutboxEmail
from notifications.vacations import MAX_ABSENCE, set_away

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]

T0 = dt.datetime(2030, 3, 1, 9, 0, tzinfo=dt.UTC)
H = dt.timedelta(hours=1)
Stage = DeadlineReminder.Stage


def at(moment):
    return time_machine.travel(moment, tick=False)


@pytest.fixture
def game(players):
    with at(T0):
        return start_game("mamma-mia", players[:2], time_limit_hours=12)


def reminders(user=None):
    rows = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.REMINDER)
    return rows.filter(user=user) if user is not None else rows


def check(moment):
    with at(moment):
        return check_deadlines()


@pytest.mark.parametrize(
    ("limit_hours", "remaining_hours", "expected"),
    [
        (12, 6.01, None),
        (12, 6, Stage.HALF),
        (12, 4.01, Stage.HALF),
        (12, 4, Stage.FOUR_HOURS),
        (12, 1, Stage.ONE_HOUR),
        (12, 0.1, Stage.ONE_HOUR),
        (12, 0, None),  # time is up: a timeout, not a reminder
        (168, 84, Stage.HALF),
        (168, 5, Stage.HALF),
        (168, 3.5, Stage.FOUR_HOURS),
        (8, 4, Stage.HALF),  # half time is 4 h left: no separate 4-hour reminder
        (8, 3, Stage.HALF),
        (8, 1, Stage.ONE_HOUR),
        (6, 2.5, Stage.HALF),
        (2, 1, Stage.HALF),  # the 1-hour stage would be half time itself
        (2, 0.5, Stage.HALF),
    ],
)
def test_the_stage_due_depends_on_the_limit(limit_hours, remaining_hours, expected):
    deadline = T0 + dt.timedelta(hours=remaining_hours)
    assert due_stage(deadline=deadline, limit=dt.timedelta(hours=limit_hours), now=T0) == expected


def test_the_deadline_is_awaited_since_plus_the_limit(game):
    seat, _ = awaited(game)
    assert seat.awaited_since == T0
    assert seat.deadline_at == T0 + 12 * H


def test_reminders_escalate_at_half_time_then_4_hours_then_1_hour_each_once(game):
    seat, _ = awaited(game)
    assert check(T0 + 5 * H)["reminders"] == 0
    assert check(T0 + 6 * H)["reminders"] == 1
    assert check(T0 + 7 * H)["reminders"] == 0
    assert check(T0 + 8 * H)["reminders"] == 1
    assert check(T0 + 10 * H)["reminders"] == 0
    assert check(T0 + 11 * H)["reminders"] == 1
    assert check(T0 + 11.5 * H)["reminders"] == 0
    rows = list(reminders().order_by("created_at"))
    assert [row.payload["stage"] for row in rows] == [Stage.HALF, Stage.FOUR_HOURS, Stage.ONE_HOUR]
    assert {row.user_id for row in rows} == {seat.user_id}


def test_a_late_check_sends_only_the_most_urgent_reminder(game):
    assert check(T0 + 11.5 * H)["reminders"] == 1
    assert check(T0 + 11.6 * H)["reminders"] == 0
    assert [row.payload["stage"] for row in reminders()] == [Stage.ONE_HOUR]


def test_reminders_are_sent_as_emails_that_name_the_game_and_the_deadline(game, scripted_mailer, run_on_commit):
    seat, _ = awaited(game)
    with at(T0 + 11 * H), run_on_commit():
        check_deadlines()
    message = next(m for m in scripted_mailer.sent if m.extra_headers["Message-ID"] == reminders().get().message_id)
    assert message.to == [seat.user.email]
    assert message.subject == f"Mamma Mia! #{game.pk}: 1 hour left for your move"
    assert "Move by" in message.body
    assert message.extra_headers["References"] == f"<game-{game.pk}@play.example>"


def test_no_reminders_for_a_player_who_turned_them_off(game):
    seat, _ = awaited(game)
    seat.user.deadline_reminders = False
    seat.user.save()
    for hours in (6, 8, 11):
        check(T0 + hours * H)
    assert not reminders().exists()


def test_a_new_turn_gets_its_own_reminders(game):
    check(T0 + 6 * H)
    with at(T0 + 7 * H):
        play(game)
        play(game)  # back to the same player, a new turn
    first = reminders().get()
    check(T0 + 13 * H)
    assert reminders().filter(user=first.user).count() == 2


def test_when_time_runs_out_the_bot_moves_for_the_seat_and_the_game_goes_on(game, run_on_commit):
    late, _ = awaited(game)
    with at(T0 + 12 * H - dt.timedelta(seconds=1)):
        assert check_deadlines()["timeouts"] == 0
    with at(T0 + 12 * H), run_on_commit():
        assert check_deadlines()["timeouts"] == 1
    game.refresh_from_db()
    late.refresh_from_db()
    assert Move.objects.filter(game=game, seat_number=late.number, made_by=MadeBy.TIMEOUT).exists()
    assert late.timeouts == 1 and not late.awaited
    nxt, _ = awaited(game)
    assert nxt is not None and nxt.user != late.user
    assert nxt.deadline_at == T0 + 24 * H
    timeout_mail = OutboxEmail.objects.get(kind=OutboxEmail.Kind.TIMEOUT)
    assert timeout_mail.user == late.user and timeout_mail.status == OutboxEmail.Status.SENT
    assert OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TURN, user=nxt.user).exists()
    with at(T0 + 12 * H):
        assert check_deadlines()["timeouts"] == 0  # nothing is played twice


def test_after_three_timeouts_the_bot_takes_the_seat_for_good(game):
    late, _ = awaited(game)
    moment = T0
    for _ in range(3):
        moment += 12 * H
        with at(moment):
            assert check_deadlines()["timeouts"] == 1
            play(game)  # the other player keeps playing
    late.refresh_from_db()
    assert late.timeouts == 3 and late.dropped_out and late.is_bot
    mails = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TIMEOUT, user=late.user).order_by("created_at")
    assert [m.payload["dropped_out"] for m in mails] == [False, False, True]


def test_a_game_without_a_time_limit_never_times_out(players):
    with at(T0):
        game = start_game("mamma-mia", players[:2])
    seat, _ = awaited(game)
    assert seat.deadline_at is None
    assert check(T0 + 1000 * H) == {"reminders": 0, "timeouts": 0, "bots": 0}


# Vacations --------------------------------------------------------------------------


def test_going_away_moves_the_deadline_by_the_absence_and_coming_back_early_takes_the_rest_back(game):
    seat, _ = awaited(game)
    user = seat.user
    with at(T0 + 2 * H):
        set_away(user=user, until=T0 + 2 * H + 3 * 24 * H)
    seat.refresh_from_db()
    assert seat.deadline_at == T0 + 12 * H + 3 * 24 * H  # 10 hours left when back
    # While away: no reminder, no timeout, and the others see it.
    assert check(T0 + 12 * H) == {"reminders": 0, "timeouts": 0, "bots": 0}
    with at(T0 + 30 * H):
        players = player_dicts(list(Seat.objects.filter(game=game).select_related("user")))
        assert [p["away"] for p in players if p["user_id"] == user.pk] == [True]
    # Back one day early: the turn has its 10 hours again, counted from now.
    with at(T0 + 2 * H + 2 * 24 * H):
        set_away(user=user, until=None)
    seat.refresh_from_db()
    assert seat.deadline_at == T0 + 2 * H + 2 * 24 * H + 10 * H
    user.refresh_from_db()
    assert user.away_until is None and not user.is_away()


def test_extending_an_absence_adds_the_extension(game):
    seat, _ = awaited(game)
    with at(T0):
        set_away(user=seat.user, until=T0 + 24 * H)
    with at(T0 + 10 * H):
        set_away(user=seat.user, until=T0 + 48 * H)
    seat.refresh_from_db()
    assert seat.deadline_at == T0 + 12 * H + 48 * H


def test_an_absence_that_runs_out_needs_nothing_and_the_clock_runs_again(game):
    seat, _ = awaited(game)
    with at(T0 + 1 * H):
        set_away(user=seat.user, until=T0 + 25 * H)
    seat.refresh_from_db()
    assert seat.deadline_at == T0 + 36 * H  # 11 hours left at T0+1h, resumed at T0+25h
    assert check(T0 + 30 * H + 1 * H)["reminders"] == 1  # half time: 5 h left at T0+31h
    assert check(T0 + 36 * H)["timeouts"] == 1


def test_a_turn_that_begins_during_an_absence_starts_its_clock_when_the_player_is_back(game):
    mover, _ = awaited(game)
    other = Seat.objects.select_related("user").get(game=game, number=1 - mover.number)
    with at(T0):
        set_away(user=other.user, until=T0 + 5 * 24 * H)
    with at(T0 + 1 * H):
        play(game)
    other.refresh_from_db()
    assert other.awaited
    assert other.deadline_at == T0 + 5 * 24 * H + 12 * H


def test_an_absence_lasts_at_most_14_days(game):
    seat, _ = awaited(game)
    with at(T0):
        user = set_away(user=seat.user, until=T0 + 30 * 24 * H)
    assert user.away_until == T0 + MAX_ABSENCE


# Stalled bots -------------------------------------------------------------------------


def test_a_bot_whose_task_was_lost_is_played_by_the_deadline_check(players):
    with at(T0):
        game = start_game("marumiere", players[:1], bots=1)  # on-commit never runs: bot tasks are lost
        while not Seat.objects.filter(game=game, is_bot=True, awaited=True).exists():
            play(game)
    game.refresh_from_db()
    version = game.version
    assert check(T0 + dt.timedelta(minutes=1))["bots"] == 0
    assert check(T0 + dt.timedelta(minutes=3))["bots"] >= 1
    game.refresh_from_db()
    assert game.version > version
    assert Move.objects.filter(game=game, made_by=MadeBy.BOT).exists()


def test_the_beat_tasks_run(game):
    with at(T0 + 6 * H):
        assert tasks.check_deadlines()["reminders"] == 1
        assert tasks.send_due_digests() == 0


def test_an_absence_declared_as_time_runs_out_is_not_overridden_by_the_time_out(game, monkeypatch):
    """Issue 29 item 7: the sweep finds the seat overdue and its player not away; the player declares an absence
    at that very instant (it moves the deadline without changing the game's version); the time-out, which then
    locks the game, re-checks the deadline and plays nothing."""
    from accounts.models import User

    seat, _ = awaited(game)
    user = seat.user
    really_away = User.is_away
    declared = []

    def away_then_declared(self, *, now=None):
        answer = really_away(self, now=now)
        if self.pk == user.pk and not declared:
            declared.append(set_away(user=user, until=T0 + 12 * H + 48 * H))  # commits before the time-out locks
        return answer

    monkeypatch.setattr(User, "is_away", away_then_declared)
    assert check(T0 + 12 * H)["timeouts"] == 0
    assert declared
    seat.refresh_from_db()
    assert seat.timeouts == 0 and seat.user.away_until == T0 + 60 * H
    assert not Move.objects.filter(game=game, made_by=MadeBy.TIMEOUT).exists()
