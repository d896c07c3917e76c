"""Clocks in real games (time-machine): banks spent and refilled, caps, simultaneous turns, quiet days in the
players' zones, vacations with quiet days, reminders and time-outs under each control."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
import time_machine

from clocks.arithmetic import DAY, HOUR, ClockKind, Pauses, TimeControl, deadline, quiet_mask
from games.clock_settings import set_quiet_days
from games.models import MadeBy, Move, Seat
from games.play import services
from notifications.deadlines import check_deadlines
from notifications.models import DeadlineReminder, OutboxEmail
from notifications.vacations import set_away
from tests.games.game_helpers import awaited_human, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

FRIDAY = dt.datetime(2030, 3, 1, 9, 0, tzinfo=dt.UTC)  # a Friday, 09:00 UTC
PARIS = zoneinfo.ZoneInfo("Europe/Paris")
SAT, SUN = 5, 6
Stage = DeadlineReminder.Stage
STANDARD = TimeControl.bank(initial=3 * DAY, increment=1 * DAY, cap=7 * DAY)


def at(moment):
    return time_machine.travel(moment, tick=False)


def seat_of(game, user) -> Seat:
    return Seat.objects.select_related("user").get(game=game, user=user)


def play_as(game, user, index=0):
    """``user`` plays their ``index``-th legal move."""
    from games.models import SeatView

    game.refresh_from_db()
    seat = seat_of(game, user)
    legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
    services.check_play_move(user=user, game_id=game.pk, move=legal[index], expected_version=game.version)
    game.refresh_from_db()


def check(moment):
    with at(moment):
        return check_deadlines()


def reminder_stages(user):
    rows = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.REMINDER, user=user).order_by("created_at")
    return [row.payload["stage"] for row in rows]


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"clock{n}") for n in range(3)]


def bank_game(players, control=STANDARD, slug="mamma-mia"):
    with at(FRIDAY):
        return start_game(slug, players[:2], time_control=control)


# Banks -------------------------------------------------------------------------------------------------------


def test_a_bank_is_spent_while_waiting_and_gains_the_increment_after_the_move(players):
    game = bank_game(players)
    first, _ = awaited_human(game)
    assert first.clock_left == 3 * DAY and first.deadline_at == FRIDAY + 3 * DAY
    with at(FRIDAY + 10 * HOUR):
        play_as(game, first.user)
    first.refresh_from_db()
    assert not first.awaited
    assert first.clock_left == 3 * DAY - 10 * HOUR + 1 * DAY
    second, _ = awaited_human(game)
    assert second.deadline_at == FRIDAY + 10 * HOUR + 3 * DAY  # a full initial bank of their own
    with at(FRIDAY + 20 * HOUR):
        play_as(game, second.user)
    first.refresh_from_db()
    if first.awaited:  # the next turn starts from what the bank holds
        assert first.deadline_at == FRIDAY + 20 * HOUR + 3 * DAY + 14 * HOUR


def test_a_bank_never_grows_above_its_cap(players):
    game = bank_game(players, TimeControl.bank(initial=2 * DAY, increment=1 * DAY, cap=2 * DAY + 6 * HOUR))
    first, _ = awaited_human(game)
    with at(FRIDAY + 1 * HOUR):
        play_as(game, first.user)
    first.refresh_from_db()
    assert first.clock_left == 2 * DAY + 6 * HOUR


def test_simultaneous_turns_charge_each_awaited_player_their_own_clock(players):
    game = bank_game(players, slug="konamon")  # Konamon! starts with everyone's secret choice
    a, b = (seat_of(game, user) for user in players[:2])
    assert a.awaited and b.awaited
    with at(FRIDAY + 2 * HOUR):
        play_as(game, a.user)
    with at(FRIDAY + 5 * HOUR):
        play_as(game, b.user)
    a.refresh_from_db()
    b.refresh_from_db()
    # a chose after 2 hours; waiting for b did not cost a anything.
    assert a.clock_left == 3 * DAY - 2 * HOUR + 1 * DAY or (a.awaited and a.turn_clock == 4 * DAY - 2 * HOUR)
    # b chose after 5 hours of b's own clock, which ran from the start whatever a did.
    awaited_after = b if b.awaited else a
    if b.awaited:  # b goes on with its turn at once: charged, no increment yet
        assert b.clock_left == 3 * DAY - 5 * HOUR
        assert b.deadline_at == FRIDAY + 3 * DAY
    else:
        assert b.clock_left == 3 * DAY - 5 * HOUR + 1 * DAY
    assert awaited_after.deadline_at is not None


def test_a_turn_that_goes_on_after_ones_own_move_earns_no_increment_until_it_ends(players):
    game = bank_game(players, slug="konamon")
    a, b = (seat_of(game, user) for user in players[:2])
    with at(FRIDAY + 1 * HOUR):
        play_as(game, a.user)
        play_as(game, b.user)
    next_up = Seat.objects.get(game=game, awaited=True)
    if next_up.pk == b.pk:  # b's turn went on from its own choice: charged, no increment
        assert next_up.clock_left == next_up.turn_clock == 3 * DAY - 1 * HOUR
    else:  # a's choice had ended a's turn (b was still choosing): it earned the increment then
        assert next_up.clock_left == next_up.turn_clock == 4 * DAY - 1 * HOUR


def test_when_a_bank_runs_out_the_bot_moves_and_the_bank_starts_again_from_the_initial_bank(players):
    game = bank_game(players, TimeControl.bank(initial=6 * HOUR, increment=1 * HOUR, cap=12 * HOUR))
    late, _ = awaited_human(game)
    assert check(FRIDAY + 6 * HOUR - dt.timedelta(seconds=1))["timeouts"] == 0
    assert check(FRIDAY + 6 * HOUR)["timeouts"] == 1
    late.refresh_from_db()
    assert late.timeouts == 1 and not late.awaited
    assert late.clock_left == 6 * HOUR
    assert Move.objects.filter(game=game, seat_number=late.number, made_by=MadeBy.TIMEOUT).exists()


def test_reminders_under_a_bank_come_at_half_of_the_bank_then_4_hours_then_1_hour(players):
    game = bank_game(players, TimeControl.bank(initial=1 * DAY, increment=0 * HOUR, cap=1 * DAY))
    seat, _ = awaited_human(game)
    assert check(FRIDAY + 11 * HOUR)["reminders"] == 0
    assert check(FRIDAY + 12 * HOUR)["reminders"] == 1
    assert check(FRIDAY + 20 * HOUR)["reminders"] == 1
    assert check(FRIDAY + 23 * HOUR)["reminders"] == 1
    assert reminder_stages(seat.user) == [Stage.HALF, Stage.FOUR_HOURS, Stage.ONE_HOUR]


def test_a_game_without_a_clock_has_no_deadline_reminder_or_timeout(players):
    with at(FRIDAY):
        game = start_game("mamma-mia", players[:2], time_control=TimeControl.untimed())
    seat, _ = awaited_human(game)
    assert game.clock == ClockKind.NONE and seat.deadline_at is None and seat.clock_left is None
    assert check(FRIDAY + 100 * DAY) == {"reminders": 0, "timeouts": 0, "bots": 0}


def test_existing_style_games_keep_their_per_move_limit(players):
    with at(FRIDAY):
        game = start_game("mamma-mia", players[:2], time_limit_hours=24)
    assert game.clock == ClockKind.PER_MOVE
    assert game.time_control == TimeControl.per_move(24 * HOUR)
    seat, _ = awaited_human(game)
    assert seat.deadline_at == FRIDAY + 24 * HOUR and seat.turn_clock == 24 * HOUR


# Quiet days ----------------------------------------------------------------------------------------------------


def paris_weekend(user):
    user.time_zone = "Europe/Paris"
    user.quiet_days = quiet_mask([SAT, SUN])
    user.save()


def test_a_per_move_clock_stops_on_the_players_quiet_days_and_reminds_and_times_out_after_them(players):
    for user in players[:2]:
        paris_weekend(user)
    start = dt.datetime(2030, 3, 1, 20, 0, tzinfo=PARIS)  # Friday 20:00 in Paris
    with at(start):
        game = start_game("mamma-mia", players[:2], time_limit_hours=12)
    seat, _ = awaited_human(game)
    # 4 hours on Friday, the weekend stands still, 8 hours on Monday.
    monday_8 = dt.datetime(2030, 3, 4, 8, 0, tzinfo=PARIS)
    assert seat.deadline_at == monday_8
    assert check(dt.datetime(2030, 3, 3, 12, 0, tzinfo=PARIS)) == {"reminders": 0, "timeouts": 0, "bots": 0}
    assert check(dt.datetime(2030, 3, 4, 2, 0, tzinfo=PARIS))["reminders"] == 1  # 6 hours left: half time
    assert check(monday_8 - dt.timedelta(seconds=1))["timeouts"] == 0
    assert check(monday_8)["timeouts"] == 1


def test_no_reminder_goes_out_while_the_clock_stands_still(players):
    paris_weekend(players[0])
    paris_weekend(players[1])
    start = dt.datetime(2030, 3, 1, 22, 0, tzinfo=PARIS)  # Friday 22:00: 2 hours left of the working week
    with at(start):
        game = start_game("mamma-mia", players[:2], time_control=TimeControl.per_move(6 * HOUR))
    seat, _ = awaited_human(game)
    # Half of the time (3 hours) is gone on Monday at 01:00; nothing on the quiet Saturday, however late the check.
    assert check(dt.datetime(2030, 3, 2, 12, 0, tzinfo=PARIS))["reminders"] == 0
    assert check(dt.datetime(2030, 3, 4, 1, 0, tzinfo=PARIS))["reminders"] == 1
    assert reminder_stages(seat.user) == [Stage.HALF]


def test_quiet_days_in_the_players_own_time_zone(players):
    tokyo, paris = players[0], players[1]
    tokyo.time_zone, tokyo.quiet_days = "Asia/Tokyo", quiet_mask([SAT])
    tokyo.save()
    paris_weekend(paris)
    moment = dt.datetime(2030, 3, 1, 20, 0, tzinfo=dt.UTC)  # Friday 21:00 in Paris, Saturday 05:00 in Tokyo
    with at(moment):
        game = start_game("konamon", [tokyo, paris], time_limit_hours=12)
    tokyo_seat, paris_seat = seat_of(game, tokyo), seat_of(game, paris)
    # Tokyo: the clock waits for Sunday 00:00 JST; Paris: 3 hours on Friday, then Monday 00:00 CET on.
    assert tokyo_seat.deadline_at == dt.datetime(2030, 3, 3, 12, 0, tzinfo=zoneinfo.ZoneInfo("Asia/Tokyo"))
    assert paris_seat.deadline_at == dt.datetime(2030, 3, 4, 9, 0, tzinfo=PARIS)


def test_quiet_days_across_a_dst_change(players):
    for user in players[:2]:
        user.time_zone, user.quiet_days = "Europe/Paris", quiet_mask([SUN])
        user.save()
    saturday = dt.datetime(2030, 3, 30, 12, 0, tzinfo=PARIS)  # summer time begins on Sunday 31 March 2030
    with at(saturday):
        game = start_game("mamma-mia", players[:2], time_limit_hours=24)
    seat, _ = awaited_human(game)
    # 12 hours on Saturday, the 23-hour Sunday stands still, 12 hours on Monday (now CEST).
    assert seat.deadline_at == dt.datetime(2030, 4, 1, 12, 0, tzinfo=PARIS)
    assert seat.deadline_at - saturday.astimezone(dt.UTC) == 24 * HOUR + 23 * HOUR


def test_quiet_days_chosen_during_a_turn_count_from_then_on(players):
    with at(FRIDAY - 21 * HOUR):  # Thursday 12:00 UTC
        game = start_game("mamma-mia", players[:2], time_limit_hours=24)
    seat, _ = awaited_human(game)
    assert seat.deadline_at == FRIDAY + 3 * HOUR
    with at(FRIDAY - 9 * HOUR):  # Friday 00:00 UTC, 12 hours left: Friday becomes quiet
        set_quiet_days(user=seat.user, weekdays=[4])
    seat.refresh_from_db()
    assert seat.clock_left == 12 * HOUR
    assert seat.deadline_at == FRIDAY + 27 * HOUR  # Saturday 12:00 UTC
    with at(FRIDAY + 3 * HOUR):  # what would have been the deadline
        set_quiet_days(user=seat.user, weekdays=[])
    seat.refresh_from_db()
    assert seat.clock_left == 12 * HOUR and seat.deadline_at == FRIDAY + 15 * HOUR  # Friday 12:00 + 12 hours


def test_a_vacation_over_quiet_days_counts_them_once(players):
    user = players[0]
    user.quiet_days = quiet_mask([SAT, SUN])  # UTC
    user.save()
    noon = FRIDAY + 3 * HOUR  # Friday 12:00 UTC
    with at(noon):
        game = start_game("mamma-mia", [user, players[1]], time_limit_hours=24)
    seat = seat_of(game, user)
    if not seat.awaited:
        with at(noon):
            play_as(game, players[1])
        seat.refresh_from_db()
    assert seat.deadline_at == noon + 3 * DAY  # 12 h Friday, weekend, 12 h Monday
    monday_noon = noon + 3 * DAY
    with at(noon):
        set_away(user=user, until=monday_noon)
    seat.refresh_from_db()
    # Away from Friday noon to Monday noon (the weekend inside the absence once), then a whole day.
    assert seat.deadline_at == monday_noon + 1 * DAY
    assert check(monday_noon - HOUR)["timeouts"] == 0
    with at(noon + DAY):  # back on Saturday: the clock still waits for Monday
        set_away(user=user, until=None)
    seat.refresh_from_db()
    assert seat.deadline_at == noon + 3 * DAY + 12 * HOUR


def test_a_time_zone_change_applies_to_quiet_days_from_then_on(players, client):
    user = players[0]
    user.quiet_days = quiet_mask([SUN])
    user.save()
    with at(FRIDAY):
        game = start_game("mamma-mia", [user, players[1]], time_control=TimeControl.per_move(36 * HOUR))
    seat = seat_of(game, user)
    if not seat.awaited:
        with at(FRIDAY):
            play_as(game, players[1])
        seat.refresh_from_db()
    later = FRIDAY + 5 * HOUR
    with at(later):
        client.force_login(user)
        response = client.post(
            "/settings/",
            {
                "display_name": "",
                "language": "en",
                "time_zone": "Pacific/Auckland",
                "notify_mode": user.notify_mode,
                "deadline_reminders": "on",
            },
        )
    assert response.status_code == 302 and response["Location"] == "/settings/"
    seat.refresh_from_db()
    assert seat.clock_left == 31 * HOUR and seat.clock_read_at == later
    # Sunday in Auckland (UTC+13) is Saturday 11:00 to Sunday 11:00 UTC: 21 hours, the pause, 10 hours.
    assert seat.deadline_at == dt.datetime(2030, 3, 3, 21, 0, tzinfo=dt.UTC)
    pauses = Pauses(frozenset({SUN}), zoneinfo.ZoneInfo("Pacific/Auckland"))
    assert seat.deadline_at == deadline(later, 31 * HOUR, pauses)


# Games from before time controls ------------------------------------------------------------------------------


def test_the_migration_keeps_running_turns_deadlines_and_makes_games_without_a_limit_untimed(players):
    import importlib

    from django.apps import apps

    migration = importlib.import_module("games.migrations.0005_i21_time_controls")
    with at(FRIDAY):
        timed = start_game("mamma-mia", players[:2], time_limit_hours=24)
        untimed = start_game("mamma-mia", players[1:3])
    seat, _ = awaited_human(timed)
    # As such a turn was stored before clocks: a deadline (moved by the player's absence), no reading.
    Seat.objects.filter(pk=seat.pk).update(
        clock_left=None, clock_read_at=None, turn_clock=None, deadline_at=FRIDAY + 24 * HOUR + 2 * DAY
    )
    seat.user.away_until = FRIDAY + 5 * HOUR + 2 * DAY
    seat.user.save()
    type(untimed).objects.filter(pk=untimed.pk).update(clock=ClockKind.PER_MOVE)
    with at(FRIDAY + 5 * HOUR):
        migration.existing_games_keep_their_limit(apps, None)
        seat.refresh_from_db()
        untimed.refresh_from_db()
        assert untimed.clock == ClockKind.NONE
        assert seat.clock_left == 19 * HOUR and seat.clock_read_at == FRIDAY + 5 * HOUR and seat.turn_clock == DAY
        # Re-reading the clock (the player comes back) keeps the deadline the turn had.
        set_away(user=seat.user, until=seat.user.away_until)
    seat.refresh_from_db()
    assert seat.deadline_at == FRIDAY + 24 * HOUR + 2 * DAY
