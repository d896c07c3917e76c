import random

import pytest
from game_helpers import awaited_human, game_params, start_game

from games import services
from games.models import GameStatus, Move, Seat


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("slug", game_params(ui=False))
def test_service_level_full_game_with_a_bot(slug, players):
    game = start_game(slug, players[:2], bots=1)
    rng = random.Random(1)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat, view = awaited_human(game)
        assert seat is not None, "the bots should have moved"
        services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(view.legal_moves), expected_version=game.version
        )
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert Move.objects.filter(game=game).count() == game.version
    assert Move.objects.filter(game=game, made_by="bot").exists()
    assert services.check_snapshot(game).problems == []
    assert services.verify_deal(game) == []
    assert not Seat.objects.filter(game=game, awaited=True).exists()
