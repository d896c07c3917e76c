"""Issue 32: forced moves play themselves. A seat with exactly one legal move, whose player keeps the setting
on (the default), plays it at once (``made_by="forced"``), logged as such, with no "your move" e-mail;
with the setting off the player is asked as before."""

from __future__ import annotations

import random

import pytest
from django.test import Client
from django.urls import reverse
from game_helpers import awaited_human, start_game

from accounts.models import NotifyMode
from games.models import GameEvent, GameStatus, Move, Seat, SeatView
from games.play import services as play_services
from notifications.models import OutboxEmail


def single_choice_left_to_a_player(game) -> bool:
    """Whether a player who lets the site play forced moves is awaited with exactly one legal move."""
    for seat in Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user"):
        if (
            seat.user.play_forced_moves
            and len(SeatView.objects.get(game=game, seat_number=seat.number).legal_moves) == 1
        ):
            return True
    return False


def play_to_the_end(game, seed, *, check=lambda game: None):
    rng = random.Random(seed)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        check(game)
        seat, view = awaited_human(game)
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(view.legal_moves), expected_version=game.version
        )
    raise AssertionError("the game did not end")


@pytest.mark.django_db
def test_an_only_possible_move_is_played_at_once_logged_and_not_mailed(players, django_capture_on_commit_callbacks):
    for user in players[:2]:
        user.notify_mode = NotifyMode.EVERY_TIME
        user.save(update_fields=["notify_mode"])
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game("marumiere", players[:2])

    def never_left_waiting(game):
        assert not single_choice_left_to_a_player(game), "an only possible move waits for its player"

    with django_capture_on_commit_callbacks(execute=True):
        game = play_to_the_end(game, 3, check=never_left_waiting)
    forced = list(Move.objects.filter(game=game, made_by="forced").order_by("sequence"))
    assert forced, "no forced move came up: the test proves nothing"
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.FORCED_MOVE).count() == len(forced)
    assert OutboxEmail.objects.filter(dedupe_key__startswith=f"turn:{game.pk}:").exists(), "no turn e-mail at all"
    for move in forced:
        # The move that left the seat a single choice would have told it "your move" at its version.
        assert not OutboxEmail.objects.filter(
            dedupe_key=f"turn:{game.pk}:{move.seat_number}:{move.sequence - 1}"
        ).exists()
    seat = Seat.objects.get(game=game, number=forced[0].seat_number)
    client = Client()
    client.force_login(seat.user)
    page = client.get(reverse("game-log", args=[game.pk])).content.decode()
    assert "had only one possible move: it was played for them." in page


@pytest.mark.django_db
def test_with_the_setting_off_the_player_is_asked(players):
    for user in players[:2]:
        user.play_forced_moves = False
        user.save(update_fields=["play_forced_moves"])
    game = start_game("marumiere", players[:2])
    singles = []

    def note_singles(game):
        seat, view = awaited_human(game)
        singles.append(len(view.legal_moves) == 1)

    play_to_the_end(game, 3, check=note_singles)
    assert any(singles), "no single choice came up: the test proves nothing"
    assert not Move.objects.filter(game=game, made_by="forced").exists()


@pytest.mark.django_db
def test_the_settings_page_and_the_api_keep_the_turn_settings(players, client):
    user = players[0]
    client.force_login(user)
    assert user.play_forced_moves is True and user.next_game_after_move is False
    response = client.post(reverse("settings-confirm-moves"), {"confirm_moves": "auto", "next_game_after_move": "on"})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.play_forced_moves is False and user.next_game_after_move is True
    api = client.patch(reverse("api-settings"), {"play_forced_moves": True}, content_type="application/json")
    assert api.status_code == 200 and api.json()["play_forced_moves"] is True
    user.refresh_from_db()
    assert user.play_forced_moves is True and user.next_game_after_move is True


@pytest.mark.django_db
def test_an_only_possible_first_move_is_played_as_the_game_starts(players, django_capture_on_commit_callbacks):
    """Hidden number up to 1: the first seat's one guess is its only move, played as the game starts (the
    start brought it about, as any other move would), logged, and nobody is told "your move" for it."""
    for user in players[:2]:
        user.notify_mode = NotifyMode.EVERY_TIME
        user.save(update_fields=["notify_mode"])
    with django_capture_on_commit_callbacks(execute=True):
        game = start_game("hidden-number", players[:2], options={"top": 1})
    game.refresh_from_db()
    forced = list(Move.objects.filter(game=game))
    assert [(m.sequence, m.made_by) for m in forced] == [(1, "forced")]
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.FORCED_MOVE).count() == 1
    assert game.status == GameStatus.FINISHED  # the one guess names the other's number
    assert not OutboxEmail.objects.filter(dedupe_key__startswith=f"turn:{game.pk}:").exists()


@pytest.mark.django_db
def test_with_the_setting_off_the_first_move_waits_for_its_player(players):
    for user in players[:2]:
        user.play_forced_moves = False
        user.save(update_fields=["play_forced_moves"])
    game = start_game("hidden-number", players[:2], options={"top": 1})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and not Move.objects.filter(game=game).exists()
    seat, view = awaited_human(game)
    assert len(view.legal_moves) == 1
