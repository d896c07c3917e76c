"""Help on the table (issue 27): every card, customer, topping, colour and marker of each game's data has an
explanation in every language; every card the page draws finds its explanation on the board; "What can I do
now?" speaks to every kind of move; a game folder brings its own help (the plug-in test game)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.template import Context
from django.utils import translation

from games.engines import get_engine
from games.ui import get_ui
from games.ui.help import PREFIX, Explanation, help_attribute, help_of, table_help_context, topics_in
from tests.games.ui.support import ROOT, bot_states, template_engine

SITE_GAMES = ["mamma-mia", "konamon", "marumiere"]
LANGUAGES = ["en", "ja", "zh-hant", "fr"]
# Three English words in a row in a Japanese or Chinese text: an untranslated sentence.
ENGLISH_RUN = re.compile(r"[A-Za-z]{2,}(?:[ ,']+[A-Za-z]{2,}){2,}")


def data(folder: str) -> dict:
    return json.loads((ROOT / folder / "data.json").read_text(encoding="utf-8"))


def topics_from_the_data(slug: str) -> set[str]:
    """The topics each game's data file holds, read here independently of the game's own help."""
    if slug == "mamma-mia":
        mamma_mia = data("mamma_mia")
        return {f"topping-{kind}" for kind in mamma_mia["toppings"]} | {
            f"recipe-{recipe['id']}" for recipe in mamma_mia["recipes"]
        } | {"mamma-mia"}
    if slug == "konamon":
        konamon = data("konamon")
        return (
            {f"action-{card['number']}" for card in konamon["actions"]}
            | {f"customer-{customer['id']}" for customer in konamon["customers"]}
            | {f"chip-{product['id']}-{state}" for product in konamon["products"] for state in ("raw", "cooked")}
        )
    marumiere = data("marumiere")
    return {f"face-{colour['name']}-{number}" for colour in marumiere["colours"] for number in marumiere["numbers"]}


@pytest.mark.parametrize("slug", SITE_GAMES)
def test_the_catalogue_holds_every_card_of_the_games_data(slug):
    catalogue = set(help_of(slug).catalogue())
    assert topics_from_the_data(slug) <= catalogue
    assert any(topic.startswith("marker-") or topic in ("stock",) for topic in catalogue), "markers explain too"


@pytest.mark.parametrize("slug", SITE_GAMES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_topic_of_the_games_data_is_explained_in_every_language(slug, language):
    game_help = help_of(slug)
    with translation.override("en"):
        english = {topic: game_help.explain(topic) for topic in game_help.catalogue()}
    with translation.override(language):
        for topic in game_help.catalogue():
            explanation = game_help.explain(topic)
            assert isinstance(explanation, Explanation), topic
            assert explanation.title.strip() and len(explanation.text) > 20, (topic, explanation)
            if language == "en":
                continue
            assert explanation.text != english[topic].text, f"{topic} is not translated into {language}"
            if language in ("ja", "zh-hant"):
                assert not ENGLISH_RUN.search(explanation.text), (topic, language, explanation.text)
            else:
                sentences = [s for s in re.split(r"(?<=[.!?])\s+", english[topic].text) if len(s) > 12]
                assert not [s for s in sentences if s in explanation.text], (topic, language, explanation.text)


def test_a_marumiere_back_names_every_number_it_may_hide_and_only_those():
    from marumiere.table_help import numbers_for

    assert numbers_for(1.0) == [1] and numbers_for(2.3) == [2] and numbers_for(4.9) == [5]
    assert numbers_for(8.0) == [7, 8, 9]
    with translation.override("en"):
        text = help_of("marumiere").explain("back-red-8.0").text
        assert "7, 8, 9" in text and "trump" not in text
        assert "Only a 5" in help_of("marumiere").explain("back-blue-4.9").text


GAMES = [("mamma-mia", 3, 21), ("mamma-mia", 2, 22), ("konamon", 2, 23), ("konamon", 4, 24), ("marumiere", 3, 25),
         ("marumiere", 2, 26)]


def render_board_parts(slug: str, *, view, legal, seat, players) -> tuple[str, dict]:
    ui = get_ui(slug)
    context = ui.page_context(view=view, legal_moves=legal, seat=seat, players=players)
    table_help = table_help_context(
        slug, gameui=context["gameui"], view=view, legal_moves=legal, seat=seat, players=players
    )
    game = type("Game", (), {"id": 1})()
    engine = template_engine()
    html = "".join(
        engine.get_template(name).render(
Context({**context, "game": game, "table_help": table_help}))
        for name in (ui.table_template, ui.moves_template, "games/_help.html", "games/_what_now.html")
    )
    return html, table_help


@pytest.mark.parametrize(("slug", "count", "seed"), GAMES)
@pytest.mark.urls("tests.games.ui.urls")
def test_every_card_and_marker_drawn_finds_its_explanation_on_the_board(slug, count, seed):
    translation.activate("en")
    engine = get_engine(slug)
    players = [{"seat": s, "name": f"P{s}"} for s in range(count)]
    kinds, drawn_topics = set(), set()
    for state in bot_states(slug, players=count, seed=seed, every=4):
        for seat in [*engine.waiting_for(state), None][:2]:
            view = engine.view(state, seat)
            legal = engine.legal_moves(state, seat) if seat is not None else []
            html, table_help = render_board_parts(slug, view=view, legal=legal, seat=seat, players=players)
            explained = {entry["id"] for entry in table_help["entries"]}
            drawn = set(re.findall(r'data-help="([^"]+)"', html))
            assert drawn <= explained, f"{slug}: drawn without an explanation: {sorted(drawn - explained)[:5]}"
            assert all(f'id="{entry}"' in html for entry in explained)
            drawn_topics |= {d.removeprefix(PREFIX).split("-")[0] for d in drawn}
            if legal:
                assert table_help["what_now"], (slug, legal[:2])
                assert "What can I do now?" in html
                kinds |= {move["type"] for move in legal}
    assert len(kinds) >= 2, kinds
    expected = {"mamma-mia": {"topping", "recipe", "marker"}, "konamon": {"action", "customer", "chip", "board"},
                "marumiere": {"back", "face", "marker"}}[slug]
    assert expected <= drawn_topics, drawn_topics


def test_what_now_is_written_in_the_readers_language():
    engine = get_engine("marumiere")
    state = engine.setup(players=3, seed=5)
    seat = engine.waiting_for(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    said = {}
    for language in LANGUAGES:
        with translation.override(language):
            said[language] = help_of("marumiere").what_now(view=view, legal_moves=legal, seat=seat, players=[])
    assert len(set(said.values())) == len(LANGUAGES), said


def test_topics_are_read_from_the_cards_context_and_only_safe_ones_become_attributes():
    context = {"hand": [{"help_topic": "topping-olive"}, {"help_topic": "recipe-red-2"}], "x": {"help_topic": "a"}}
    assert list(topics_in(context)) == ["topping-olive", "recipe-red-2", "a"]
    assert help_attribute({"help_topic": "topping-olive"}) == ' data-help="help-topping-olive"'
    assert help_attribute({"help_topic": '"><script>'}) == ""
    assert help_attribute({"help": "stock → cooking board"}) == ""


def test_a_game_folder_brings_its_own_help():
    """The plug-in test game's table_help.py is found beside its engine; a game without one shows no help."""
    game_help = help_of("hidden-number")
    assert type(game_help).__module__ == "tests.hidden_number.table_help"
    engine = get_engine("hidden-number")
    state = engine.setup(players=2, seed=1)
    seat = engine.waiting_for(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    context = get_ui("hidden-number").page_context(view=view, legal_moves=legal, seat=seat, players=[])
    found = table_help_context(
        "hidden-number", gameui=context["gameui"], view=view, legal_moves=legal, seat=seat, players=[]
    )
    assert {entry["id"] for entry in found["entries"]} == {"help-marker-range", "help-marker-secret"}
    assert found["what_now"].startswith("Guess the other number")
    assert Path(ROOT / "tests" / "hidden_number" / "table_help.py").exists()
