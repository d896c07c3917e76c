"""Helpers of the ratings and leagues tests: games started through the services, finished with chosen places."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone

from games import signals
from games.lobby import services as lobby_services
from games.models import Game, GameStatus, Seat
from games.play import services as play_services

SLUG_BY_SIZE = {2: "marumiere", 3: "mamma-mia", 4: "mamma-mia", 5: "mamma-mia"}


def started(users, *, slug: str | None = None, rated: bool = True, bots: int = 0) -> Game:
    """A started game of ``users`` (the first creates it, the others join)."""
    slug = slug or SLUG_BY_SIZE[len(users) + bots]
    game = lobby_services.create_game(
        user=users[0], engine_slug=slug, players=len(users) + bots, bots=bots, rated=rated
    )
    for user in users[1:]:
        lobby_services.join_game(user=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    return game


def finish_with(game: Game, places: dict, *, when=None) -> Game:
    """End ``game`` with ``places`` ({user: place}) as ``games.play.services._finish`` ends a game: the seats'
    places, the game row, then the real ``game_finished`` signal, all in one transaction."""
    now = when or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        seats = list(Seat.objects.filter(game=game))
        by_user = {user.pk: place for user, place in places.items()}
        for seat in seats:
            seat.final_rank = by_user.get(seat.user_id, max(by_user.values()) + 1)
            seat.finished_at = now
            seat.awaited = False
        Seat.objects.bulk_update(seats, ["final_rank", "finished_at", "awaited"])
        game.status, game.finished_at = GameStatus.FINISHED, now
        game.outcome = [{"seat": s.number, "rank": s.final_rank, "score": 0} for s in seats]
        game.save(update_fields=["status", "finished_at", "outcome"])
        signals.game_finished.send(sender=Game, game=game)
    return game


def play_randomly_to_the_end(game: Game, rng: random.Random) -> Game:
    """Awaited humans play random legal moves through ``check_play_move`` until the game ends."""
    from games.models import SeatView

    for _ in range(5000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            return game
        seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").first()
        view = SeatView.objects.get(game=game, seat_number=seat.number)
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(view.legal_moves), expected_version=game.version
        )
    raise AssertionError("the game did not end")
