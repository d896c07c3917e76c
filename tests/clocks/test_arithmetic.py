"""The clock arithmetic (clocks.arithmetic): pure, so plain datetimes and no database."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest

from clocks.arithmetic import (
    DAY,
    HOUR,
    ZERO,
    ClockKind,
    InvalidTimeControl,
    Pauses,
    Stage,
    TimeControl,
    deadline,
    pauses_between,
    quiet_mask,
    quiet_weekdays,
    reminder_stage,
    running_time,
    time_left,
)

UTC = dt.UTC
TOKYO = zoneinfo.ZoneInfo("Asia/Tokyo")
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
PARIS = zoneinfo.ZoneInfo("Europe/Paris")
MON, TUE, WED, THU, FRI, SAT, SUN = range(7)
WEEKEND = frozenset({SAT, SUN})


def local(zone, *args) -> dt.datetime:
    return dt.datetime(*args, tzinfo=zone)


# Without pauses -------------------------------------------------------------------------------


def test_without_pauses_a_clock_runs_with_the_wall_clock():
    start = local(UTC, 2026, 3, 6, 12)
    assert deadline(start, 30 * HOUR) == start + 30 * HOUR
    assert running_time(start, start + 5 * HOUR) == 5 * HOUR
    assert running_time(start, start - HOUR) == ZERO
    assert time_left(left=2 * HOUR, read_at=start, now=start + 3 * HOUR) == ZERO  # never below zero


def test_a_clock_at_zero_has_its_deadline_at_once():
    start = local(UTC, 2026, 3, 6, 12)
    assert deadline(start, ZERO, Pauses(WEEKEND)) == start
    assert deadline(start, -HOUR) == start


# Quiet days, in the player's own time zone ------------------------------------------------------


def test_quiet_weekend_days_do_not_count_in_the_players_time_zone():
    friday_noon = local(TOKYO, 2026, 3, 6, 12)  # a Friday in Tokyo
    pauses = Pauses(WEEKEND, TOKYO)
    # 12 hours on Friday, none on Saturday and Sunday, 12 hours on Monday.
    assert deadline(friday_noon, DAY, pauses) == local(TOKYO, 2026, 3, 9, 12)
    assert running_time(friday_noon, local(TOKYO, 2026, 3, 9, 0), pauses) == 12 * HOUR


def test_the_same_moment_is_a_quiet_day_in_one_zone_and_not_in_another():
    moment = local(UTC, 2026, 3, 6, 20)  # Friday 15:00 in New York, Saturday 05:00 in Tokyo
    assert Pauses(WEEKEND, TOKYO).is_paused(moment)
    assert not Pauses(WEEKEND, NEW_YORK).is_paused(moment)
    # New York: 9 hours left of Friday, then Monday from midnight (EST, UTC-5).
    assert deadline(moment, 10 * HOUR, Pauses(WEEKEND, NEW_YORK)) == local(NEW_YORK, 2026, 3, 9, 1)
    # Tokyo: the clock stands still until Monday 00:00 JST.
    assert deadline(moment, 10 * HOUR, Pauses(WEEKEND, TOKYO)) == local(TOKYO, 2026, 3, 9, 10)


@pytest.mark.parametrize(
    ("zone", "sunday", "hours"),
    [
        (PARIS, (2026, 3, 29), 23),  # summer time begins: a 23-hour Sunday
        (PARIS, (2026, 10, 25), 25),  # and ends: a 25-hour Sunday
        (NEW_YORK, (2026, 3, 8), 23),
        (NEW_YORK, (2026, 11, 1), 25),
        (TOKYO, (2026, 3, 29), 24),  # no DST
    ],
)
def test_a_quiet_day_lasts_from_midnight_to_midnight_even_across_a_dst_change(zone, sunday, hours):
    pauses = Pauses(frozenset({SUN}), zone)
    saturday = local(zone, *sunday, 0) - dt.timedelta(days=1)
    monday = dt.datetime.combine(dt.date(*sunday) + dt.timedelta(days=1), dt.time(0), tzinfo=zone)
    [(begin, end)] = pauses_between(saturday, monday, pauses)
    assert end - begin == hours * HOUR
    assert running_time(saturday, monday, pauses) == 24 * HOUR  # Saturday only
    # A clock with 30 hours on Saturday morning: Saturday's 24, none on Sunday, 6 on Monday (local time).
    assert deadline(saturday, 30 * HOUR, pauses) == dt.datetime.combine(monday.date(), dt.time(6), tzinfo=zone)


def test_a_clock_does_not_run_down_on_a_quiet_day():
    pauses = Pauses(frozenset({SAT}), PARIS)
    saturday_morning = local(PARIS, 2026, 3, 7, 8)
    assert time_left(left=5 * HOUR, read_at=saturday_morning, now=saturday_morning + 10 * HOUR, pauses=pauses) == (
        5 * HOUR
    )
    assert pauses.is_paused(saturday_morning)
    assert not pauses.is_paused(local(PARIS, 2026, 3, 8, 0))


# Absences with quiet days ---------------------------------------------------------------------------------


def test_an_absence_over_quiet_days_counts_them_once():
    friday_noon = local(PARIS, 2026, 3, 6, 12)
    back = local(PARIS, 2026, 3, 9, 12)  # Monday noon
    pauses = Pauses(WEEKEND, PARIS, away_until=back)
    # Away from Friday noon to Monday noon (the weekend inside it counts once), then the whole day.
    assert deadline(friday_noon, DAY, pauses) == local(PARIS, 2026, 3, 10, 12)
    assert running_time(friday_noon, back, pauses) == ZERO


def test_an_absence_that_ends_on_a_quiet_day_lets_the_clock_run_after_that_day():
    friday_noon = local(PARIS, 2026, 3, 6, 12)
    pauses = Pauses(WEEKEND, PARIS, away_until=local(PARIS, 2026, 3, 7, 12))  # back Saturday noon
    assert deadline(friday_noon, 2 * HOUR, pauses) == local(PARIS, 2026, 3, 9, 2)


def test_an_absence_already_over_is_no_pause():
    start = local(UTC, 2026, 3, 6, 12)
    assert deadline(start, HOUR, Pauses(away_until=start - HOUR)) == start + HOUR


def test_pauses_between_lists_the_pauses_up_to_the_deadline_only():
    friday_noon = local(PARIS, 2026, 3, 6, 12)
    pauses = Pauses(WEEKEND, PARIS)
    end = deadline(friday_noon, 3 * DAY, pauses)
    windows = pauses_between(friday_noon, end, pauses)
    assert windows == [(local(PARIS, 2026, 3, 7).astimezone(UTC), local(PARIS, 2026, 3, 9).astimezone(UTC))]
    assert end - friday_noon - sum((e - b for b, e in windows), ZERO) == 3 * DAY


def test_at_most_three_quiet_days():
    with pytest.raises(ValueError, match="at most"):
        Pauses(frozenset({MON, TUE, WED, THU}))
    with pytest.raises(ValueError, match="at most"):
        quiet_mask([MON, TUE, WED, THU])
    with pytest.raises(ValueError, match="weekdays"):
        quiet_mask([7])
    assert quiet_weekdays(quiet_mask([SAT, SUN])) == WEEKEND
    assert quiet_mask([]) == 0


# Time controls --------------------------------------------------------------------------------------------

STANDARD = TimeControl.bank(initial=3 * DAY, increment=DAY, cap=7 * DAY)


def test_a_bank_starts_with_the_initial_bank_and_then_holds_what_is_left():
    assert STANDARD.turn_reading(None) == 3 * DAY
    assert STANDARD.turn_reading(10 * HOUR) == 10 * HOUR


def test_the_increment_comes_when_the_turn_is_over_and_never_above_the_cap():
    assert STANDARD.bank_after(left=2 * DAY, turn_over=True) == 3 * DAY
    assert STANDARD.bank_after(left=2 * DAY, turn_over=False) == 2 * DAY  # a turn that goes on: no increment yet
    assert STANDARD.bank_after(left=6.5 * DAY, turn_over=True) == 7 * DAY
    assert STANDARD.bank_after(left=-HOUR, turn_over=True) == DAY  # overspent by a late check: from zero


def test_after_a_timeout_a_bank_starts_again_from_the_initial_bank():
    assert STANDARD.bank_after_timeout() == 3 * DAY
    assert TimeControl.per_move(DAY).bank_after_timeout() is None


def test_per_move_and_untimed_controls_keep_no_bank():
    per_move = TimeControl.per_move(2 * DAY)
    assert per_move.turn_reading(5 * HOUR) == 2 * DAY
    assert per_move.bank_after(left=HOUR, turn_over=True) is None
    assert TimeControl.untimed().turn_reading(None) is None
    assert not TimeControl.untimed().is_timed


@pytest.mark.parametrize(
    ("initial", "increment", "cap"),
    [
        (30 * 60, 0, 3600),  # under an hour
        (31 * 24 * 3600, 0, 40 * 24 * 3600),  # over 30 days
        (3600, 8 * 24 * 3600, 10 * 24 * 3600),  # increment over 7 days
        (2 * 24 * 3600, 3600, 24 * 3600),  # cap below the initial bank
        (3600, 2 * 3600, 3600),  # cap below the increment
        (3600, 0, 61 * 24 * 3600),  # cap over 60 days
        (3600, -60, 3600),
    ],
)
def test_a_bank_outside_the_bounds_is_refused(initial, increment, cap):
    seconds = dt.timedelta(seconds=1)
    with pytest.raises(InvalidTimeControl):
        TimeControl.bank(initial=initial * seconds, increment=increment * seconds, cap=cap * seconds)


@pytest.mark.parametrize(
    "control",
    [
        STANDARD,
        TimeControl.per_move(12 * HOUR),
        TimeControl.untimed(),
        TimeControl.bank(initial=HOUR, increment=ZERO, cap=HOUR),
    ],
)
def test_a_time_control_goes_to_json_and_back(control):
    assert TimeControl.from_dict(control.as_dict()) == control


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"kind": "blitz"},
        {"kind": "bank", "bank_initial_seconds": 3600},
        {"kind": "bank", "bank_initial_seconds": "3600", "bank_increment_seconds": 0, "bank_cap_seconds": 3600},
        {"kind": "move", "per_move_seconds": True},
        {"kind": "move", "per_move_seconds": 10**30},
        {"kind": "move", "per_move_seconds": 60},
        None,
    ],
)
def test_a_malformed_time_control_is_refused(data):
    with pytest.raises(InvalidTimeControl):
        TimeControl.from_dict(data)


def test_kinds_are_stored_as_their_names():
    assert STANDARD.as_dict() == {
        "kind": "bank",
        "bank_initial_seconds": 3 * 86400,
        "bank_increment_seconds": 86400,
        "bank_cap_seconds": 7 * 86400,
    }
    assert ClockKind("move") is ClockKind.PER_MOVE


# Reminders -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("turn_hours", "left_hours", "expected"),
    [
        (72, 36.01, None),
        (72, 36, Stage.HALF),  # a 3-day bank: half of it
        (72, 4, Stage.FOUR_HOURS),
        (72, 1, Stage.ONE_HOUR),
        (72, 0, None),  # time is up: a timeout, not a reminder
        (6, 3, Stage.HALF),
        (6, 1, Stage.ONE_HOUR),
        (2, 0.5, Stage.HALF),  # the 1-hour stage would be half time itself
    ],
)
def test_reminders_come_at_half_of_the_turns_clock_then_4_hours_then_1_hour(turn_hours, left_hours, expected):
    assert reminder_stage(left=left_hours * HOUR, turn_reading=turn_hours * HOUR) == expected
