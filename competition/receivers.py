"""Ratings and leagues follow the games platform's signals, inside the transaction that ends a game."""

from __future__ import annotations

from django.dispatch import receiver

from competition import leagues, ratings
from games import signals
from games.models import Game


@receiver(signals.game_finished, sender=Game, dispatch_uid="competition.game_finished")
def game_finished(sender, game: Game, **kwargs) -> None:
    ratings.record_game(game=game)
    leagues.game_over(game=game)


@receiver(signals.game_abandoned, sender=Game, dispatch_uid="competition.game_abandoned")
def game_abandoned(sender, game: Game, **kwargs) -> None:
    """No rating moves (an abandoned game has no result), but its league may now be over."""
    leagues.game_over(game=game)
