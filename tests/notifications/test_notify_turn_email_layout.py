"""The turn e-mail is built to be acted on (issue 34): first what is awaited, the deadline and the button to the
move form; then what happened; the reply codes last, compact. The plain-text part in the same order."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import mail
from notify_helpers import play, start_game

from clocks.arithmetic import TimeControl

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("site", "eager_celery")]


@pytest.fixture
def turn_email(players, run_on_commit, settings):
    settings.INBOUND_MAIL_DOMAIN = "in.play.example"  # moves by e-mail reply: the codes are listed
    with run_on_commit():
        game = start_game("mamma-mia", players[:2], time_control=TimeControl.per_move(dt.timedelta(hours=6)))
        play(game)
        play(game)
    return game, [m for m in mail.outbox if f"#{game.pk}:" in m.subject][-1]


def test_the_button_to_the_move_form_comes_before_the_news_and_the_codes_come_last(turn_email):
    game, message = turn_email
    html = message.alternatives[0][0]
    button = html.index(f'href="https://play.example/games/{game.pk}/#moves"')
    assert html.index("Move by ") < button < html.index("Since your last move:")
    assert html.index("Since your last move:") < html.index("Reply to this e-mail with the code")
    assert html.count("Make your move") == 1, "one button, at the top"


def test_the_plain_text_part_has_the_same_order_and_packs_the_codes(turn_email):
    game, message = turn_email
    text = message.body
    link = text.index(f"Make your move: https://play.example/games/{game.pk}/#moves")
    assert text.index("Move by ") < link < text.index("Since your last move:")
    assert text.index("Since your last move:") < text.index("Reply to this e-mail with the code")
    codes = text[text.index("Reply to this e-mail with the code"):].splitlines()[1:]
    assert codes[0].startswith("1 = Put "), codes[:2]


def test_short_codes_share_a_line_and_long_ones_keep_theirs():
    from reach.replies import TEXT_WIDTH, Codes

    short = Codes("move+x@in.example", [(str(n), f"Pile {n}") for n in range(1, 13)], False)
    assert short.lines[0].startswith("1 = Pile 1   2 = Pile 2   3 = Pile 3")
    assert all(len(line) <= TEXT_WIDTH for line in short.lines) and len(short.lines) < 12
    wide = Codes(None, [("1", "山" * 30), ("2", "山" * 30)], False)
    assert wide.lines == ["1 = " + "山" * 30, "2 = " + "山" * 30], "a CJK character takes two columns"
