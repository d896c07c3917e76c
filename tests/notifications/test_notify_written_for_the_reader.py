"""E-mails read as a person wrote them (issue 19, point 10): the reader is "you", a time-out is told to everyone
concerned with what the bot played, the ranking says what its numbers are and how a tie was broken, every player
learns the clock when a timed game starts, and a "your move" e-mail after a bot's instant answer waits and is
dropped once the open page has shown the new position."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from notify_helpers import awaited, play, start_game, visit

from accounts.models import NotifyMode
from games.models import GameStatus, Seat
from games.play import services as play_services
from games.ui import describe_event, get_ui
from notifications import delivery
from notifications.emails import Shared, render
from notifications.models import OutboxEmail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


def _text(row):
    return render(row)[1]


def _rows(kind, user=None):
    rows = OutboxEmail.objects.filter(kind=kind).order_by("pk")
    return rows.filter(user=user) if user is not None else rows


# "Since your last move" names the reader as "you" ---------------------------------------------------------------


# Mamma Mia!'s sentences about one's own seat come up in an e-mail only by chance (a recipe of one's own baked
# at the oven); tests/games/ui/test_you_sentences.py checks every game's on whole bot games.
@pytest.mark.parametrize("slug", ["konamon", "marumiere"])
def test_the_readers_own_events_are_told_to_them_as_you_never_by_their_own_name(players, run_on_commit, slug):
    for user in players[:2]:
        user.notify_mode = NotifyMode.EVERY_TIME
        user.save(update_fields=["notify_mode"])
    with run_on_commit():
        game = start_game(slug, players[:2])
    ui = get_ui(slug)
    told_as_you = 0
    for _ in range(300):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        with run_on_commit():
            play(game)
    for row in _rows(OutboxEmail.Kind.TURN):
        reader = row.payload["seat_number"]
        text = _text(row)
        for event in row.payload["events"]:
            subject = event.get(ui.you_subjects.get(event.get("type"), "seat"))
            if event.get("type") in ui.you_describers and subject == reader:
                third_person = str(describe_event(slug, event, Shared({}).players(game)))
                assert third_person not in text  # not "Player 1 carries out No. 16." to Player 1
                told_as_you += 1
    assert told_as_you, "no e-mail told its reader about their own seat"


def test_konamons_card_carried_out_reads_you_carry_out_to_its_player_and_the_name_to_others():
    players = [{"seat": 0, "name": "alice"}, {"seat": 1, "name": "bob"}]
    event = {"type": "card", "seat": 0, "card": 16, "prep": 2, "bake": 1, "hand_over": 1}
    assert describe_event("konamon", event, players, viewer=0) == (
        "You carry out No. 16 (prep 2, bake 1, hand over 1)."
    )
    assert describe_event("konamon", event, players, viewer=1).startswith("alice carries out No. 16")
    assert describe_event("konamon", event, players).startswith("alice carries out No. 16")


# Time-outs ---------------------------------------------------------------------------------------------------


def test_after_a_time_out_the_next_player_hears_the_bot_moved_and_the_timed_out_player_what_it_played(
    players, run_on_commit
):
    with run_on_commit():
        game = start_game("mamma-mia", players[:2], time_limit_hours=24)
    late, _ = awaited(game)
    other = next(s for s in Seat.objects.filter(game=game) if s.pk != late.pk)
    mail.outbox.clear()
    with run_on_commit():
        play_services.play_timeout_move(game_id=game.pk, seat_number=late.number, expected_version=game.version)
    turn = _rows(OutboxEmail.Kind.TURN, other.user).get()
    text = _text(turn)
    said = f"{late.user.public_name} ran out of time; a bot moved for them."
    assert said in text
    assert text.index(said) < text.index("Since your last move:")  # said before the moves it explains
    timeout = _rows(OutboxEmail.Kind.TIMEOUT, late.user).get()
    text = _text(timeout)
    assert "What the bot played for you:" in text
    assert "You put " in text and f"{late.user.public_name} put " not in text


# The final ranking ----------------------------------------------------------------------------------------------


def _finish(game, outcome, ranks):
    game.status, game.outcome, game.finished_at = GameStatus.FINISHED, outcome, timezone.now()
    game.save(update_fields=["status", "outcome", "finished_at"])
    for seat in Seat.objects.filter(game=game):
        seat.final_rank = ranks[seat.number]
        seat.save(update_fields=["final_rank"])


def _finished_row(game, user):
    seat = Seat.objects.get(game=game, user=user)
    return OutboxEmail.objects.create(
        user=user, game=game, kind=OutboxEmail.Kind.FINISHED, dedupe_key=f"t:{game.pk}:{user.pk}",
        payload={"seat_number": seat.number}, message_id="<t@x>",
    )


def test_the_final_ranking_says_what_the_numbers_count_and_how_a_tie_was_broken(players):
    game = start_game("mamma-mia", players[:3])
    outcome = [
        {"seat": 0, "rank": 1, "score": 4}, {"seat": 1, "rank": 2, "score": 4}, {"seat": 2, "rank": 3, "score": 1}
    ]
    _finish(game, outcome, {0: 1, 1: 2, 2: 3})
    by_seat = {s.number: s.user.public_name for s in Seat.objects.filter(game=game).select_related("user")}
    text = _text(_finished_row(game, players[0]))
    assert "– 4 recipes baked" in text and "– 1 recipe baked" in text
    assert (
        f"{by_seat[0]} and {by_seat[1]} tied on 4 recipes baked; "
        "the tie is broken by the most topping cards left in hand." in text
    )


def test_the_final_ranking_marks_the_reader_and_a_resigned_player_in_the_readers_own_brackets(players):
    game = start_game("marumiere", players[:3])
    _finish(game, [{"seat": n, "rank": n + 1, "score": 10 - n} for n in range(3)], {0: 1, 1: 2, 2: 3})
    reader = Seat.objects.get(game=game, number=1).user
    reader.language = "ja"
    reader.save(update_fields=["language"])
    subject, text, html = render(_finished_row(game, reader))
    assert f"{reader.public_name}（あなた）" in text and f"{reader.public_name}（あなた）" in html
    assert "3人中2位" in subject  # the place as the end screen says it, not "2 of 3"


def test_players_still_tied_after_the_tie_break_are_told_they_share_the_place(players):
    game = start_game("konamon", players[:2])
    _finish(game, [{"seat": 0, "rank": 1, "score": 23}, {"seat": 1, "rank": 1, "score": 23}], {0: 1, 1: 1})
    text = _text(_finished_row(game, players[0]))
    assert "23 points" in text
    assert "are still tied after the tie-break (the most customer cards taken): they share the place." in text


def test_a_game_without_a_tie_break_says_tied_players_share_the_place(players):
    game = start_game("marumiere", players[:2])
    _finish(game, [{"seat": 0, "rank": 1, "score": 12}, {"seat": 1, "rank": 1, "score": 12}], {0: 1, 1: 1})
    assert "tied on 12 points: they share the place." in _text(_finished_row(game, players[0]))


# The start of a timed game ------------------------------------------------------------------------------------


def test_every_player_learns_the_clock_and_the_first_deadline_when_a_timed_game_starts(players, run_on_commit):
    with run_on_commit():
        game = start_game("marumiere", players[:3], time_limit_hours=48)
    first, _ = awaited(game)
    rows = list(_rows(OutboxEmail.Kind.STARTED))
    assert len(rows) == 3
    for row in rows:
        text = _text(row)
        assert "Time control: 2 days per move." in text
        if row.user_id == first.user_id:
            assert "Move by " in text  # their own deadline
        else:
            assert f"{first.user.public_name} moves first, by " in text


def test_an_untimed_games_start_says_nothing_of_a_clock(players, run_on_commit):
    with run_on_commit():
        start_game("marumiere", players[:2])
    assert all("Time control" not in _text(row) for row in _rows(OutboxEmail.Kind.STARTED))


def test_a_konamon_start_tells_everyone_they_all_play_at_once_not_you_begin_and_another_moves_first(
    players, run_on_commit
):
    with run_on_commit():
        start_game("konamon", players[:3], time_limit_hours=48)
    rows = list(_rows(OutboxEmail.Kind.STARTED))
    assert len(rows) == 3
    for row in rows:
        text = _text(row)
        assert "Everyone plays at the same time: choose your cards." in text
        assert "You begin" not in text and "moves first" not in text and " starts." not in text


def test_in_a_game_of_turns_only_the_first_player_reads_you_begin_and_the_others_learn_who_starts(
    players, run_on_commit
):
    with run_on_commit():
        game = start_game("marumiere", players[:3])
    first, _ = awaited(game)
    for row in _rows(OutboxEmail.Kind.STARTED):
        text = _text(row)
        if row.user_id == first.user_id:
            assert "You begin: " in text and " starts." not in text
        else:
            assert "You begin" not in text
            assert f"{first.user.public_name} starts. We will tell you when it is your move." in text


# "Every time": a bot's instant answer ----------------------------------------------------------------------------


def _every_time_against_a_bot(players, run_on_commit):
    player = players[0]
    player.notify_mode = NotifyMode.EVERY_TIME
    player.save(update_fields=["notify_mode"])
    with run_on_commit():
        game = start_game("marumiere", [player], bots=1)
    for _ in range(20):  # until a move of the player's gets an answer from the bot that awaits them again
        game.refresh_from_db()
        if awaited(game)[0] is None:
            continue
        before = set(_rows(OutboxEmail.Kind.TURN, player).values_list("pk", flat=True))
        with run_on_commit():  # the bot answers after commit, eagerly
            play(game)
        new = _rows(OutboxEmail.Kind.TURN, player).exclude(pk__in=before)
        if new.exists():
            return game, new.get()
    raise AssertionError("the bot never answered with the player's turn")


def test_a_your_move_email_after_a_bots_instant_answer_waits_and_is_dropped_once_the_open_page_showed_it(
    players, run_on_commit, settings
):
    game, row = _every_time_against_a_bot(players, run_on_commit)
    assert row.payload.get("held") and row.status == OutboxEmail.Status.PENDING
    assert row.next_attempt_at >= timezone.now() + dt.timedelta(seconds=settings.TURN_EMAIL_HOLD_SECONDS - 5)
    assert delivery.deliver(row.pk) == delivery.Outcome.SKIPPED  # not due yet
    game.refresh_from_db()
    visit(Seat.objects.get(game=game, user=players[0]))  # the open page fetched the new position
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=3)):
        assert delivery.deliver(row.pk) == delivery.Outcome.DROPPED
    row.refresh_from_db()
    assert row.last_error == "seen on the open page"


def test_a_held_your_move_email_goes_out_when_the_page_did_not_show_the_new_position(
    players, run_on_commit
):
    game, row = _every_time_against_a_bot(players, run_on_commit)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=3)):
        assert delivery.deliver(row.pk) == delivery.Outcome.SENT
    assert len(mail.outbox) == 1


def test_a_human_opponents_move_is_told_at_once_under_every_time(players, run_on_commit):
    for user in players[:2]:
        user.notify_mode = NotifyMode.EVERY_TIME
        user.save(update_fields=["notify_mode"])
    with run_on_commit():
        game = start_game("mamma-mia", players[:2])
        play(game)
        play(game)
    assert _rows(OutboxEmail.Kind.TURN).exists()
    assert not any(row.payload.get("held") for row in _rows(OutboxEmail.Kind.TURN))
