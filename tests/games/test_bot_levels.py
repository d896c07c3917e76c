"""Bot levels (issue 28): the creator picks easy, normal or strong per bot seat; the level is stored with the
seat, shown beside the bot's name, kept by a rematch; the bot task plays each seat at its level, seeded from
the game's seed and the move number, thinking outside the game's lock."""

from __future__ import annotations

import pytest
from django.test import TestCase
from django.urls import reverse

from games.engines.search import choose_move
from games.exceptions import BadInput
from games.lobby import services as lobby_services
from games.models import TAKEOVER_BOT_LEVEL, BotLevel, Game, GameStatus, MadeBy, Move, Seat, SeatView
from games.play import services as play_services
from games.tables import full_state

pytestmark = pytest.mark.django_db


def _bots(game):
    return list(Seat.objects.filter(game=game, is_bot=True).order_by("join_order"))


def test_each_bot_seat_keeps_the_level_its_creator_chose(players):
    game = lobby_services.create_game(
        user=players[0], engine_slug="marumiere", players=4, bots=2, bot_levels=["strong", "easy"]
    )
    assert [(s.join_order, s.bot_level) for s in _bots(game)] == [(1, "strong"), (2, "easy")]
    assert [s.name for s in _bots(game)] == ["Bot 2 (strong)", "Bot 3 (easy)"]


def test_bots_play_at_normal_when_no_level_is_given(players):
    game = lobby_services.create_game(user=players[0], engine_slug="marumiere", players=3, bots=2)
    assert {s.bot_level for s in _bots(game)} == {BotLevel.NORMAL}


@pytest.mark.parametrize("levels", [["strong"], ["strong", "easy", "easy"], ["strong", "genius"], "strong"])
def test_a_wrong_list_of_levels_is_refused_and_makes_no_game(players, levels):
    with pytest.raises(BadInput):
        lobby_services.create_game(user=players[0], engine_slug="marumiere", players=4, bots=2, bot_levels=levels)
    assert not Seat.objects.exists()


def test_the_create_page_asks_a_level_per_bot_and_the_table_shows_it(client, players):
    client.force_login(players[0])
    form = client.get(reverse("game-create")).content.decode()
    assert 'name="bot_level_1"' in form and "How well each bot plays" in form
    response = client.post(
        reverse("game-create"),
        {"engine_slug": "marumiere", "players": 4, "bots": 2, "bot_level_1": "easy", "bot_level_2": "strong",
         "bot_level_3": "strong", "time_limit_hours": 0, "visibility": "public", "clock": "move"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    seats = _bots(Seat.objects.get(user=players[0]).game)
    assert [s.bot_level for s in seats] == ["easy", "strong"]  # the third level was for a third bot: ignored
    page = client.get(response.url).content.decode()
    assert "Bot 2 (easy)" in page and "Bot 3 (strong)" in page


def test_the_create_page_refuses_an_unknown_level_and_makes_no_game(client, players):
    client.force_login(players[0])
    response = client.post(
        reverse("game-create"),
        {"engine_slug": "marumiere", "players": 4, "bots": 1, "bot_level_1": "genius", "time_limit_hours": 0,
         "visibility": "public", "clock": "move"},
    )
    assert response.status_code == 400 and not Seat.objects.exists()


def test_a_bot_added_in_the_waiting_room_plays_at_the_chosen_level(client, players):
    game = lobby_services.create_game(user=players[0], engine_slug="marumiere", players=3)
    client.force_login(players[0])
    client.post(reverse("game-bot-add", args=[game.pk]), {"level": "strong"})
    assert [s.bot_level for s in _bots(game)] == ["strong"]
    client.post(reverse("game-bot-add", args=[game.pk]), {"level": "nonsense"})
    assert [s.bot_level for s in _bots(game)] == ["strong"]


def _strong_bot_game(players, slug="konamon"):
    """A started two-seat game: the person and a strong bot (its first task not run: no commit in a test)."""
    return lobby_services.create_game(
        user=players[0], engine_slug=slug, players=2, bots=1, bot_levels=["strong"], time_limit_hours=0
    )


def test_a_strong_bot_plays_the_searchs_move_seeded_by_the_game_and_the_move_number(players, settings):
    settings.BOT_STRONG_ITERATIONS = 10
    game = _strong_bot_game(players)
    bot = _bots(game)[0]
    game.refresh_from_db()
    state = full_state(game)
    assert bot.number in game.engine.waiting_for(state)  # Konamon!: both choose at once
    expected = choose_move(game.engine, state, bot.number, "strong", seed=f"{game.seed_sha256}:{game.version}",
                           budget=10)
    version = game.version
    assert play_services.play_bot_turns(game_id=game.pk, expected_version=version) == 1
    played = Move.objects.get(game=game, sequence=version + 1)
    assert (played.made_by, played.seat_number, played.move) == (MadeBy.BOT, bot.number, expected)


def test_a_bots_decision_is_dropped_when_a_person_moved_while_it_thought(players, monkeypatch):
    """Konamon!: the person and the bot choose at once. The person's move lands while the bot thinks (no lock is
    held then); the bot's decision, made at the older version, is not played."""
    game = _strong_bot_game(players)
    human = Seat.objects.get(game=game, is_bot=False)
    assert human.awaited
    real = play_services.choose_move
    thought = []

    def person_moves_meanwhile(engine, state, seat, level, seed, budget=None):
        thought.append(level)
        legal = SeatView.objects.get(game=game, seat_number=human.number).legal_moves
        current = Game.objects.get(pk=game.pk)
        play_services.check_play_move(user=players[0], game_id=game.pk, move=legal[0],
                                      expected_version=current.version)
        return real(engine, state, seat, level, seed, budget=4)

    monkeypatch.setattr(play_services, "choose_move", person_moves_meanwhile)
    game.refresh_from_db()
    version = game.version
    assert play_services.play_bot_turns(game_id=game.pk, expected_version=version) == 0
    assert thought == ["strong"]
    assert list(Move.objects.filter(game=game, sequence__gt=version).values_list("made_by", flat=True)) == [
        MadeBy.PLAYER
    ]


def test_a_timed_out_turn_is_played_at_the_documented_take_over_level():
    assert TAKEOVER_BOT_LEVEL == BotLevel.NORMAL


def test_a_rematch_keeps_each_bots_level(players):
    from together import rematch, services

    game = lobby_services.create_game(
        user=players[0], engine_slug="konamon", players=4, bots=2, bot_levels=["easy", "strong"],
    )
    lobby_services.join_game(user=players[1], game_id=game.pk)
    with TestCase.captureOnCommitCallbacks(execute=True):
        for user in players[:2]:
            services.resign(user=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    again = rematch.propose_rematch(user=players[0], game_id=game.pk).game
    assert [s.bot_level for s in _bots(again)] == ["easy", "strong"]
