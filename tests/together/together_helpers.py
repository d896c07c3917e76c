"""Helpers of the playing-together tests."""

from __future__ import annotations

import random
import uuid
from contextlib import contextmanager

from django.test import TestCase

from games.models import Game, GameStatus, Seat, SeatView
from games.play import services


@contextmanager
def committing():
    """Run the on-commit callbacks (bot moves, e-mail delivery) of what happens inside, as a real commit would."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        yield


def play_until(game: Game, *, done, rng: random.Random | None = None, limit: int = 3000) -> Game:
    """Play random legal moves for the awaited humans until ``done(game)`` or the game is no longer active
    (bots move as they would after each commit)."""
    rng = rng or random.Random(1)
    for _ in range(limit):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE or done(game):
            return game
        seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").order_by("?").first()
        if seat is None:
            with committing():  # a bot left waiting: what the deadline sweep would do
                services.play_bot_turns(game_id=game.pk)
            continue
        legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
        with committing():
            services.check_play_move(
                user=seat.user, game_id=game.pk, move=rng.choice(legal), expected_version=game.version,
                idempotency_key=uuid.uuid4(),
            )
    raise AssertionError("the game did not get there")


def play_to_the_end(game: Game) -> Game:
    game = play_until(game, done=lambda g: False)
    assert game.status == GameStatus.FINISHED
    return game
