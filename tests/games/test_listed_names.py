"""A player's name as lists write it (match histories, "my games", e-mails' player lists): one bracket of state.

A bot's name already has its level in brackets ("Bot 3 (normal)"): a state joins that bracket, "Bot 3 (normal,
dropped out)", never "Bot 3 (normal) (dropped out)"; Japanese and Chinese write full-width brackets and their own
separator inside.
"""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from accounts.models import User
from games.models import Game, Seat
from games.play.selectors import player_dicts
from games.templatetags.games_tags import opponents


def seat(*, user=None, dropped_out=False, is_bot=None, join_order=2, number=2, game=None) -> Seat:
    game = game or Game(pk=1, engine_slug="konamon", players=3)
    return Seat(game=game, number=number, join_order=join_order, user=user, bot_level="normal",
                is_bot=user is None if is_bot is None else is_bot, dropped_out=dropped_out)


@pytest.mark.parametrize(
    ("language", "bot_dropped", "bot", "person_dropped", "person_handed_over"),
    [
        ("en", "Bot 3 (normal, dropped out)", "Bot 3 (normal)", "Di (dropped out)", "Bob (bot)"),
        ("ja", "ボット 3（ふつう、離脱）", "ボット 3（ふつう）", "Di（離脱）", "Bob（ボット）"),
        ("zh-hant", "機器人 3（普通，已退出）", "機器人 3（普通）", "Di（已退出）", "Bob（機器人）"),
        ("fr", "Robot 3 (normal, hors jeu)", "Robot 3 (normal)", "Di (hors jeu)", "Bob (robot)"),
    ],
)
def test_a_bots_state_joins_its_level_in_one_bracket_a_persons_gets_its_own(
    language, bot_dropped, bot, person_dropped, person_handed_over
):
    with translation.override(language):
        assert seat(dropped_out=True).listed_name == bot_dropped
        assert seat().listed_name == bot  # its name says it is a bot: no "(bot)" after it
        assert seat(user=User(pk=101, username="Di"), is_bot=True, dropped_out=True).listed_name == person_dropped
        assert seat(user=User(pk=102, username="Bob"), is_bot=True).listed_name == person_handed_over
        assert seat(user=User(pk=103, username="Cy")).listed_name == "Cy"


def test_my_games_and_the_turn_emails_player_list_write_a_dropped_out_bot_with_one_bracket():
    game = Game(pk=1, engine_slug="konamon", players=3)
    me = seat(user=User(pk=104, username="ada"), number=0, join_order=0, game=game)
    others = [seat(user=User(pk=105, username="Cy"), number=1, join_order=1, game=game),
              seat(dropped_out=True, game=game)]
    game._prefetched_objects_cache = {"seats": Seat.objects.none()}  # as "my games" prefetches them
    game._prefetched_objects_cache["seats"]._result_cache = [me, *others]
    for each in (me, *others):
        each.pk = 10 + each.number
    with translation.override("en"):
        assert str(opponents(me)) == "with Cy, Bot 3 (normal, dropped out)"
        listed = render_to_string("notifications/email/_players.txt", {"others": player_dicts(others)})
        html = render_to_string("notifications/email/_players.html", {"others": player_dicts(others)})
    assert "- Bot 3 (normal, dropped out)" in listed and "(normal) (" not in listed
    assert "<li>Bot 3 (normal, dropped out)</li>" in html
