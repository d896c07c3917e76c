"""What the translators could not fix in their catalogues (issue 19, point 8): English source strings and code
that built sentences the reader's language cannot say — bare ranks, hard-coded separators, "(s)" plurals,
comma-joined names. Each test names the behaviour the reader now sees, in the languages it matters for."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.template.loader import render_to_string
from django.utils import translation

from accounts.models import User
from clocks.controls import duration_text
from games.models import Seat
from games.ui.names import and_list, player_list, winners_sentence
from konamon import ui as konamon_ui
from marumiere import ui as marumiere_ui
from reach.models import EventKind

NBSP = "\u00a0"
PLAYERS = [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cy"}]


# 1. A finishing place is an ordinal, as on the end screen ----------------------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "The game is over: you placed 2nd of 4."),
        ("ja", "ゲーム終了：4人中2位でした。"),
        ("zh-hant", "對局結束：你在 4 人中得到第 2 名。"),
        ("fr", f"La partie est terminée{NBSP}: vous finissez à la 2e place sur 4."),
    ],
)
def test_the_finished_push_text_says_the_place_as_an_ordinal(language, expected):
    from reach.texts import _body

    game = SimpleNamespace(
        engine_slug="konamon", outcome=[{"seat": n, "rank": n + 1, "score": 10 - n} for n in range(4)]
    )
    row = SimpleNamespace(kind=EventKind.FINISHED, payload={"seat_number": 1})
    with translation.override(language):
        assert _body(row, game) == expected


# 2. A duration's two parts are joined as each language writes them -----------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "23 hours 59 minutes"),
        ("ja", "23時間59分"),
        ("zh-hant", "23 小時 59 分鐘"),
        ("fr", "23 heures et 59 minutes"),
    ],
)
def test_a_duration_in_two_parts_reads_as_one_phrase_in_each_language(language, expected):
    with translation.override(language):
        assert duration_text(dt.timedelta(hours=23, minutes=59)) == expected
        assert " " not in duration_text(dt.timedelta(days=1, hours=12)) or language != "ja"


@pytest.mark.parametrize(
    ("language", "expected"),
    [("ja", "1日23時間後"), ("zh-hant", "1 天 23 小時後"), ("fr", "dans 1 jour et 23 heures")],
)
def test_relative_times_join_their_two_parts_as_a_duration_not_as_a_list(language, expected):
    from django.utils import timezone

    from games.templatetags.games_tags import naturaltime

    with translation.override(language):
        text = naturaltime(timezone.now() + dt.timedelta(days=1, hours=23, minutes=1)).replace(NBSP, " ")
        assert text == expected
        page = Template("{% load humanize games_tags %}{{ when|naturaltime }}").render(
            Context({"when": timezone.now() + dt.timedelta(days=1, hours=23, minutes=1)})
        )
        assert page.replace(NBSP, " ") == expected


# 3. Plurals, never "(s)" -----------------------------------------------------------------------------------


def _konamon(kind, **event):
    return konamon_ui.EVENT_DESCRIBERS[kind]({"type": kind, "seat": 0, **event}, PLAYERS)


def _konamon_you(kind, **event):
    return konamon_ui.YOU_DESCRIBERS[kind]({"type": kind, "seat": 0, **event}, PLAYERS)


def test_konamon_log_lines_count_points_cards_and_steps_in_the_singular_and_the_plural():
    with translation.override("en"):
        assert _konamon("penalty", points=1, cause="critic") == "Ann loses 1 point to the food critic."
        assert _konamon("penalty", points=2, cause="mood") == "Ann loses 2 points for customers who left angry."
        assert _konamon("draw", count=1) == "Ann draws 1 action card."
        assert _konamon("draw", count=3) == "Ann draws 3 action cards."
        assert _konamon_you("draw", count=1) == "You draw 1 action card."
        assert _konamon_you("penalty", points=1) == "You lose 1 point."
        assert "scores 1 bonus point." in _konamon("take", customer="c01", bonus=1)
        assert "(1 step unused)" in _konamon("blocked", process="bake", unused=1)
        assert "(2 steps unused)" in _konamon_you("blocked", process="bake", unused=2)
    with translation.override("fr"):
        assert _konamon("penalty", points=1) == "Ann perd 1 point."
        assert _konamon("penalty", points=3) == "Ann perd 3 points."
        assert _konamon_you("draw", count=2) == "Vous piochez 2 cartes action."
    for language in ("en", "ja", "zh-hant", "fr"):
        with translation.override(language):
            for text in (_konamon("penalty", points=2), _konamon("draw", count=2), _konamon_you("penalty", points=2)):
                assert "(s)" not in text


def test_konamons_skip_button_says_step_or_steps():
    legal = [{"type": "next"}]
    with translation.override("en"):
        one = konamon_ui.next_button(legal, {"process": "bake", "left": {"bake": 1}})["help"]
        two = konamon_ui.next_button(legal, {"process": "bake", "left": {"bake": 2}})["help"]
    assert "1 remaining" in one and "step; it scores nothing." in one
    assert "steps; they score nothing." in two
    with translation.override("fr"):
        assert "étape restante" in konamon_ui.next_button(legal, {"process": "bake", "left": {"bake": 1}})["help"]


@pytest.mark.parametrize(
    ("language", "points", "expected"),
    [
        ("en", -1, "Ann bid 1, took 0: -1 point (total 4)."),
        ("en", 3, "Ann bid 1, took 0: +3 points (total 4)."),
        ("fr", -1, f"Ann a annoncé 1 et en a fait 0{NBSP}: -1 point (total 4)."),
        ("fr", -2, f"Ann a annoncé 1 et en a fait 0{NBSP}: -2 points (total 4)."),
    ],
)
def test_a_marumiere_round_score_pluralises_points_by_their_size(language, points, expected, monkeypatch):
    monkeypatch.setattr(marumiere_ui, "bid_phrase", lambda number: str(number))
    event = {"type": "round_score", "seat": 0, "number": 1, "won": 0, "points": points, "total": 4}
    with translation.override(language):
        assert marumiere_ui.EVENT_DESCRIBERS["round_score"](event, PLAYERS) == expected


def test_several_winners_are_announced_as_winners_and_named_as_a_list():
    with translation.override("en"):
        assert winners_sentence(PLAYERS, [0]) == "The game is over. Winner: Ann!"
        assert winners_sentence(PLAYERS, [0, 2]) == "The game is over. Winners: Ann and Cy!"
    with translation.override("fr"):
        assert winners_sentence(PLAYERS, [0, 1]) == f"La partie est terminée. Vainqueurs{NBSP}: Ann et Bob{NBSP}!"
    with translation.override("ja"):
        assert winners_sentence(PLAYERS, [0, 1]) == "ゲーム終了。勝者はAnnとBobです！"


@pytest.mark.parametrize(
    ("language", "points", "expected"),
    [
        ("en", 1, "You finished 2nd with 1 point."),
        ("en", 2.5, "You finished 2nd with 2.5 points."),
        ("fr", 2.5, "Vous terminez à la 2e place avec 2,5 points."),
        ("ja", 3, "あなたは3点で2位でした。"),
    ],
)
def test_the_league_finished_email_gives_an_ordinal_place_and_counts_points(language, points, expected):
    league = SimpleNamespace(name="Spring", winner=None)
    me = {"position": 2, "points": points, "user": None}
    with translation.override(language):
        text = render_to_string(
            "notifications/email/league_finished.txt", {"league": league, "standings": [], "me": me, "name": "x"}
        )
    assert expected in text


# 4. Names joined as a sentence lists them ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "two", "three"),
    [
        ("en", "Ann and Bob", "Ann, Bob and Cy"),
        ("ja", "AnnとBob", "Ann、BobとCy"),
        ("zh-hant", "Ann 和 Bob", "Ann、Bob 和 Cy"),
        ("fr", "Ann et Bob", "Ann, Bob et Cy"),
    ],
)
def test_names_are_listed_with_a_translated_and(language, two, three):
    with translation.override(language):
        assert and_list(["Ann", "Bob"]) == two
        assert player_list(PLAYERS, [0, 1, 2]) == three
        assert and_list(["Ann"]) == "Ann"
        assert Template("{% load games_tags %}{{ names|and_list }}").render(Context({"names": ["Ann", "Bob"]})) == two


def test_the_call_off_waiting_line_lists_names_in_a_sentence_of_the_readers_language():
    source = Template(
        "{% load i18n games_tags %}{% blocktranslate with names=waiting|and_list %}"
        "Waiting for an answer from {{ names }}.{% endblocktranslate %}"
    )
    with translation.override("ja"):
        assert source.render(Context({"waiting": ["alice", "bob"]})) == "aliceとbobの返事待ちです。"
    with translation.override("en"):
        assert source.render(Context({"waiting": ["alice", "bob"]})) == "Waiting for an answer from alice and bob."


# 5. Colons and brackets belong to the language, not to the template -----------------------------------------


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "A&amp;B: <b>4</b>"), ("ja", "A&amp;B：<b>4</b>"), ("fr", f"A&amp;B{NBSP}: <b>4</b>")],
)
def test_a_label_around_markup_uses_the_languages_colon(language, expected):
    source = Template("{% load games_tags %}{% label_parts name as label %}{{ label.0 }}<b>4</b>{{ label.1 }}")
    with translation.override(language):
        assert source.render(Context({"name": "A&B"})) == expected


def test_konamons_hidden_bonus_label_and_board_labels_use_the_languages_colon():
    c = {"name": "Alice", "bonus": 3, "mood": 2, "slots": [], "effect": "none"}
    with translation.override("ja"):
        html = render_to_string("konamon/_customer.html", {"c": c})
    assert "ボーナス点：3" in html and "ボーナス点:" not in html
    with translation.override("fr"):
        assert f"Points de bonus{NBSP}: 3" in render_to_string("konamon/_customer.html", {"c": c})


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["- Bob (bot)", "- Cy (away)", "- Di (dropped out)"]),
        ("ja", ["- Bob（ボット）", "- Cy（不在）", "- Di（離脱）"]),
        ("zh-hant", ["- Bob（機器人）", "- Cy（離開中）", "- Di（已退出）"]),
        ("fr", ["- Bob (robot)", "- Cy (absent)", "- Di (hors jeu)"]),
    ],
)
def test_email_player_marks_are_one_bracketed_phrase_each_language_can_bracket_its_way(language, expected):
    with translation.override(language):
        others = [
            {"name": "Bob", "is_bot": True,
             "listed_name": Seat(user=User(pk=101, username="Bob"), is_bot=True).listed_name},
            {"name": "Cy", "away": True},
            {"name": "Di", "is_bot": True, "dropped_out": True,
             "listed_name": Seat(user=User(pk=102, username="Di"), is_bot=True, dropped_out=True).listed_name},
        ]
        text = render_to_string("notifications/email/_players.txt", {"others": others})
    for line in expected:
        assert line in text


def test_the_webhook_and_league_labels_use_the_translated_colon():
    channels = (Path(__file__).resolve().parents[2] / "templates" / "reach" / "channels.html").read_text()
    league = (Path(__file__).resolve().parents[2] / "templates" / "competition" / "league.html").read_text()
    ratings = (Path(__file__).resolve().parents[2] / "templates" / "competition" / "_profile_ratings.html").read_text()
    assert "</strong>: " not in channels and "</a>:" not in league and "}}: {%" not in ratings
    assert "label_parts" in channels and "label_parts" in league and "label_parts" in ratings


# 6. Decimal numbers as the reader writes them ----------------------------------------------------------------


def test_ratings_and_fractional_scores_use_the_languages_decimal_separator():
    from competition.chart import rating_chart
    from competition.selectors import Shown
    from games.ui.base import score_number

    rating = Shown(value=3.4321, games=12)
    with translation.override("fr"):
        assert rating.display == "3,4"
        assert score_number(2.5) == "2,5"
        chart = str(rating_chart([1.25, 3.4], title="x"))
        assert "3,4" in chart  # the labels and the description
        points = chart.split('points="')[1].split('"')[0]
        assert all(len([float(n) for n in pair.split(",")]) == 2 for pair in points.split())  # SVG keeps "."
    with translation.override("en"):
        assert rating.display == "3.4"
        assert score_number(2.5) == "2.5"
        assert score_number(-3.0) == "-3"


@pytest.mark.parametrize(("language", "expected"), [("en", "50 %"), ("ja", "50%"), ("fr", f"50{NBSP}%")])
def test_a_win_rate_is_written_with_the_languages_percent_sign_spacing(language, expected):
    source = Template(
        "{% load i18n %}{% widthratio 1 2 100 as rate %}{% blocktranslate %}{{ rate }} %{% endblocktranslate %}"
    )
    with translation.override(language):
        assert source.render(Context({})) == expected
