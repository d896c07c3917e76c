"""Helpers of the platform tests (imported by the test modules; fixtures live in conftest.py)."""

from __future__ import annotations

import random

# The site's games (games/installed.py), which the platform tests play through; the test settings' plug-in
# game has tests of its own (tests/hidden_number/).
SLUGS = ["mamma-mia", "konamon", "marumiere"]


def start_game(
    slug: str, users, *, bots: int = 0, options=None, visibility="public", time_limit_hours=0, time_control=None
):
    """A started game: users[0] creates it, the others join (``time_control``: a clocks.arithmetic.TimeControl)."""
    from games.lobby import services as lobby_services

    humans = len(users)
    game = lobby_services.create_game(
        user=users[0],
        engine_slug=slug,
        players=humans + bots,
        options=options or {},
        bots=bots,
        visibility=visibility,
        time_limit_hours=time_limit_hours,
        time_control=time_control,
        allow_stacked_deal=True,
    )
    for user in users[1:]:
        if visibility == "private":
            lobby_services.join_game(user=user, game_id=game.pk, invite=lobby_services.invite_token(game))
        else:
            lobby_services.join_game(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


def awaited_human(game):
    """(seat, SeatView) of an awaited human seat, or (None, None)."""
    from games.models import Seat, SeatView

    seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").order_by("number").first()
    if seat is None:
        return None, None
    return seat, SeatView.objects.get(game=game, seat_number=seat.number)


def pick(rng: random.Random, legal_moves):
    return rng.choice(legal_moves)


def play_out(game, seed: int = 1):
    """Every human move at random until the end (the bots move by themselves); the finished game."""
    from games.models import GameStatus
    from games.play import services as play_services

    rng = random.Random(seed)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        seat, seat_view = awaited_human(game)
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(seat_view.legal_moves), expected_version=game.version
        )
    raise AssertionError("the game did not end")


def play_people_to_the_end(game, django_capture_on_commit_callbacks, seed: int = 3):
    """Random legal moves of the people until the end, side effects run on each commit (a finished game's review
    runs, with eager Celery); the game, refreshed."""
    from games.models import GameStatus, Seat, SeatView
    from games.play import services as play_services

    rng = random.Random(seed)
    for _ in range(500):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").first()
        legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
        with django_capture_on_commit_callbacks(execute=True):
            play_services.check_play_move(
                user=seat.user, game_id=game.pk, move=rng.choice(legal), expected_version=game.version
            )
    raise AssertionError("the game did not end")
