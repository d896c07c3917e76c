"""Quiet by evidence (issue 34): "your move" waits a hold and is dropped if its reader is at the table.

At the table: a page of the game has shown the reader this position (``Seat.last_seen_version``), or a live
stream of the game is open in their browser (``live.presence``, in Redis: any process sees it).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from notify_helpers import awaited, play, start_game, visit

from accounts.models import NotifyMode
from games.models import Seat
from live import presence
from notifications import delivery
from notifications.deadlines import check_deadlines
from notifications.models import OutboxEmail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site")]

HOLD = 180


@pytest.fixture
def hold(settings):
    settings.TURN_NOTIFY_HOLD_SECONDS = HOLD
    return settings


class Stream:
    """A live stream of ``game`` open in ``user``'s browser, as ``live.stream`` records it."""

    def __init__(self, game, user) -> None:
        self.seat = {"game_id": game.pk, "user_id": user.pk, "stream_id": f"test.{uuid.uuid4().hex}"}

    def __enter__(self):
        asyncio.run(presence.stream_seen(**self.seat))
        return self

    def __exit__(self, *exc):
        asyncio.run(presence.stream_closed(**self.seat))


def turn_rows(user):
    return OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TURN, user=user).order_by("pk")


def after_the_hold():
    return time_machine.travel(timezone.now() + dt.timedelta(seconds=HOLD + 5))


def a_game(players, run_on_commit, mode=NotifyMode.ONCE_UNTIL_VISIT):
    for user in players[:2]:
        user.notify_mode = mode
        user.save(update_fields=["notify_mode"])
    with run_on_commit():
        game = start_game("mamma-mia", players[:2])
    return game


def move(game, run_on_commit):
    """The awaited player moves; the seat now awaited (its player hears "your move")."""
    with run_on_commit():
        play(game)
    game.refresh_from_db()
    return awaited(game)[0]


def deliver_due(user):
    """Deliver every pending turn row of ``user`` as a worker would once due; their outcomes."""
    return [delivery.deliver(pk) for pk in turn_rows(user).filter(status="pending").values_list("pk", flat=True)]


def test_every_your_move_email_waits_the_hold_in_the_outbox(players, run_on_commit, hold):
    game = a_game(players, run_on_commit)
    reader = move(game, run_on_commit)
    row = turn_rows(reader.user).get()
    assert row.payload["held"] and row.status == OutboxEmail.Status.PENDING
    assert row.next_attempt_at >= timezone.now() + dt.timedelta(seconds=HOLD - 30)
    assert delivery.deliver(row.pk) == delivery.Outcome.SKIPPED  # not due before the hold is over


def test_a_player_whose_page_showed_the_position_gets_no_your_move_email(players, run_on_commit, hold):
    game = a_game(players, run_on_commit)
    reader = move(game, run_on_commit)
    visit(reader)  # the open page fetched the new position (its live partial)
    mail.outbox.clear()
    with after_the_hold():
        assert deliver_due(reader.user) == [delivery.Outcome.DROPPED]
    assert turn_rows(reader.user).get().last_error == "seen on the open page"
    assert not mail.outbox


def test_a_player_with_the_games_stream_open_gets_no_your_move_email(players, run_on_commit, hold):
    game = a_game(players, run_on_commit)
    reader = move(game, run_on_commit)
    mail.outbox.clear()
    with after_the_hold(), Stream(game, reader.user):  # open (renewed) when the hold is over
        assert deliver_due(reader.user) == [delivery.Outcome.DROPPED]
    assert turn_rows(reader.user).get().last_error == "at the table (live stream open)"
    assert not mail.outbox


def test_a_stream_of_another_game_or_player_is_not_evidence(players, run_on_commit, hold):
    game = a_game(players, run_on_commit)
    other = a_game(players[2:], run_on_commit)
    reader = move(game, run_on_commit)
    mail.outbox.clear()
    opponent = next(u for u in players[:2] if u.pk != reader.user_id)
    with after_the_hold(), Stream(other, reader.user), Stream(game, opponent):
        assert deliver_due(reader.user) == [delivery.Outcome.SENT]
    assert len(mail.outbox) == 1


def test_a_whole_game_at_the_table_sends_no_your_move_email(players, run_on_commit, hold):
    """Both players keep the game open and play on; each "your move" is held, then dropped."""
    game = a_game(players, run_on_commit)
    mail.outbox.clear()
    for _ in range(12):
        if move(game, run_on_commit) is None:
            break
        with after_the_hold(), Stream(game, players[0]), Stream(game, players[1]):
            for user in players[:2]:
                assert set(deliver_due(user)) <= {delivery.Outcome.DROPPED}
    assert turn_rows(players[0]).exists() and turn_rows(players[1]).exists()  # written, held, then dropped
    assert not turn_rows(players[0]).exclude(status="dropped").exists()
    assert not mail.outbox


def time_runs_out(game, seat, run_on_commit):
    """A bot moves for ``seat`` (not the player's own move: "once" is not re-armed by it)."""
    from games.play import services as play_services

    game.refresh_from_db()
    with run_on_commit():
        play_services.play_timeout_move(game_id=game.pk, seat_number=seat.number, expected_version=game.version)
    game.refresh_from_db()


def test_away_under_once_until_i_visit_one_email_per_game_until_the_visit_then_one_more(
    players, run_on_commit, hold
):
    game = a_game(players, run_on_commit)
    reader = move(game, run_on_commit)
    mail.outbox.clear()
    with after_the_hold():
        assert deliver_due(reader.user) == [delivery.Outcome.SENT]
    # Still away: the reader's time runs out, the opponent moves, the reader is awaited again: nothing new.
    time_runs_out(game, reader, run_on_commit)
    assert move(game, run_on_commit).user_id == reader.user_id
    assert turn_rows(reader.user).count() == 1
    # A visit, then away again: one more after the hold.
    visit(Seat.objects.get(pk=reader.pk))
    time_runs_out(game, reader, run_on_commit)
    assert move(game, run_on_commit).user_id == reader.user_id
    with after_the_hold():
        assert deliver_due(reader.user) == [delivery.Outcome.SENT]
    assert turn_rows(reader.user).filter(status="sent").count() == 2
    assert len([m for m in mail.outbox if m.to == [reader.user.email] and "ran out" not in m.subject]) == 2


def test_every_time_away_one_email_per_turn(players, run_on_commit, hold):
    game = a_game(players, run_on_commit, mode=NotifyMode.EVERY_TIME)
    sent = {}
    for _ in range(4):
        reader = move(game, run_on_commit)
        with after_the_hold():
            for outcome in deliver_due(reader.user):
                sent[outcome] = sent.get(outcome, 0) + 1
    assert sent == {delivery.Outcome.SENT: 4}


def test_a_reminder_is_not_sent_while_the_player_has_the_game_open(players, run_on_commit, hold):
    from clocks.arithmetic import TimeControl

    with run_on_commit():
        game = start_game("mamma-mia", players[:2], time_control=TimeControl.per_move(dt.timedelta(hours=6)))
    seat, _view = awaited(game)
    with time_machine.travel(timezone.now() + dt.timedelta(hours=3, minutes=1)), Stream(game, seat.user):
        with run_on_commit():
            check_deadlines()
        rows = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.REMINDER, user=seat.user)
        assert rows.count() == 1  # the reminder keeps its timing…
        delivery.deliver(rows.get().pk)  # (if the commit's task has not delivered it already)
    row = rows.get()
    assert (row.status, row.last_error) == ("dropped", "at the table (live stream open)")  # …but not at the table


# The game started: for the first player it is "your move", held and dropped as one ------------------------------


def started_row(user):
    return OutboxEmail.objects.get(kind=OutboxEmail.Kind.STARTED, user=user)


def test_the_first_players_game_started_email_waits_the_hold_the_others_go_at_once(players, run_on_commit, hold):
    game = a_game(players, run_on_commit)
    first, _view = awaited(game)
    other = next(u for u in players[:2] if u.pk != first.user_id)
    held = started_row(first.user)
    assert held.payload["held"] and held.status == OutboxEmail.Status.PENDING
    assert held.next_attempt_at >= timezone.now() + dt.timedelta(seconds=HOLD - 30)
    assert delivery.deliver(held.pk) == delivery.Outcome.SKIPPED  # not due before the hold is over
    at_once = started_row(other)  # "the game began", for one not awaited: not held
    # Sent at once (its row was claimed with a lease and sent: next_attempt_at says nothing once it is sent).
    assert "held" not in at_once.payload and at_once.status == OutboxEmail.Status.SENT


def test_the_first_player_at_the_table_gets_no_game_started_email(players, run_on_commit, hold):
    game = a_game(players, run_on_commit)
    first, _view = awaited(game)
    visit(first)  # the page of the new game showed them the position
    mail.outbox.clear()
    with after_the_hold():
        assert delivery.deliver(started_row(first.user).pk) == delivery.Outcome.DROPPED
    assert started_row(first.user).last_error == "seen on the open page"
    assert not mail.outbox


def test_the_first_player_with_the_stream_open_or_who_moved_gets_no_game_started_email(players, run_on_commit, hold):
    game = a_game(players, run_on_commit)
    first, _view = awaited(game)
    mail.outbox.clear()
    with after_the_hold(), Stream(game, first.user):
        assert delivery.deliver(started_row(first.user).pk) == delivery.Outcome.DROPPED
    assert not mail.outbox
    other_game = a_game(players[2:], run_on_commit)
    mover, _view = awaited(other_game)
    move(other_game, run_on_commit)  # moved within the hold: the turn it announced is over
    with after_the_hold():
        assert delivery.deliver(started_row(mover.user).pk) == delivery.Outcome.DROPPED
    assert started_row(mover.user).last_error in ("that turn is over", "seat no longer awaited")
    assert not [m for m in mail.outbox if m.to == [mover.user.email]]


def test_the_first_player_away_gets_the_game_started_email_after_the_hold(players, run_on_commit, hold):
    game = a_game(players, run_on_commit)
    first, _view = awaited(game)
    mail.outbox.clear()
    with after_the_hold():
        outcome = delivery.deliver(started_row(first.user).pk)
    assert outcome == delivery.Outcome.SENT, started_row(first.user).last_error
    [message] = mail.outbox
    assert message.to == [first.user.email]
