"""Log sentences and move errors: every engine event type and message code has its translated twin."""

from __future__ import annotations

import importlib
import string

import pytest
from django.utils import translation

from games.engines import IllegalMove, get_engine
from games.ui import describe_event, get_ui, illegal_move_message
from games.ui.base import generic_event_text
from games.ui.messages import render_message
from tests.games.ui.support import final_state, make_players

SLUGS = ["mamma-mia", "konamon", "marumiere"]  # the site's games, whose texts these tests read
LANGUAGES = ["en", "ja", "fr", "zh-hant"]

# A plausible value for every param name the engines use in EVENTS and MESSAGES.
SAMPLES = {
    "mamma-mia": {
        "seat": 1,
        "first": 0,
        "chef": 2,
        "round": 2,
        "topping": "salami",
        "count": 3,
        "recipe": "green-7",
        "draw": "kitchen",
        "drew": 4,
        "toppings": {"olive": 2, "salami": 1},
        "recipes": ["red-2"],
        "reason": "stall",
        "card": "mushroom",
        "kind": "olive",
        "added": {"olive": 1},
        "used": {"pepper": 1, "olive": 6},
        "declined": True,
        "kitchen": 31,
        "winners": [0, 2],
        "expected": "turn",
        "type": "turn",
        "keys": ["type", "kind", "add"],
        "source": "recipes",
        "kinds": ["olive", "salami"],
        "needed": {"olive": 2},
        "what": "play",
    },
    "konamon": {
        "seat": 1,
        "round": 3,
        "cards": [12, 58],
        "customer": "c07",
        "mood": 2,
        "effect": "treat",
        "product": "taiyaki",
        "points": 2,
        "cause": "critic",
        "count": 1,
        "discard": 48,
        "card": 23,
        "prep": 1,
        "bake": 2,
        "hand_over": 1,
        "bonus": 3,
        "process": "bake",
        "unused": 1,
        "keep": ["okonomiyaki", "takoyaki"],
        "back": ["taiyaki"],
        "winners": [1],
        "expected": "bake, next",
        "keys": "type, cards",
        "first": 40,
        "second": 55,
        "total": 95,
        "room": 2,
    },
    "marumiere": {
        "round": 2,
        "rounds": 3,
        "dealer": 0,
        "seat": 2,
        "pile": 1,
        "position": 4,
        "number": 9,
        "colour": "blue",
        "size": 4.87,
        "trick": 5,
        "bid": 0,
        "won": 1,
        "points": -1,
        "total": 7,
        "winners": [0, 1],
        "cards": [{"seat": 2, "position": 4, "colour": "blue", "number": 9}],
        "type": "play",
        "phase": "bid",
        "field": "position",
        "last": 2,
    },
}


def engine_module(slug):
    return importlib.import_module(type(get_engine(slug)).__module__)


def placeholders(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def sample_params(slug: str, template: str) -> dict:
    return {name: SAMPLES[slug][name] for name in placeholders(template)}


@pytest.mark.parametrize("slug", SLUGS)
def test_every_event_type_has_a_describer(slug):
    assert set(engine_module(slug).EVENTS) <= set(get_ui(slug).event_describers)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_documented_event_reads_as_a_sentence(slug, language):
    players = make_players(3)
    ui = get_ui(slug)
    with translation.override(language):
        for kind, template in engine_module(slug).EVENTS.items():
            event = {"type": kind, **sample_params(slug, template)}
            text = ui.event_describers[kind](dict(event), players)  # raises if a param is mishandled
            assert text and "%(" not in text and "{" not in text and "None" not in text, (kind, text)
            assert str(describe_event(slug, event, players)) != generic_event_text(event, players)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_event_of_real_games_is_described(slug):
    """Events as the engines really write them (all seats' private ones too), for every player count."""
    engine = get_engine(slug)
    ui = get_ui(slug)
    seen = set()
    for players in range(engine.min_players, engine.max_players + 1):
        people = make_players(players)
        state = final_state(slug, players=players, seed=players * 7)
        assert engine.is_over(state), "the bot game ends"
        for event in state["log"]:
            event = {k: v for k, v in event.items() if k != "only"}
            text = ui.event_describers[event["type"]](dict(event), people)
            assert "None" not in text and "%(" not in text, (event, text)
            seen.add(event["type"])
    assert seen <= set(engine_module(slug).EVENTS), "every event type the engine writes is documented"


def test_describe_event_escapes_and_never_crashes():
    players = make_players(2)
    text = describe_event("konamon", {"type": "prep", "seat": 1, "product": "takoyaki"}, players)
    assert "Bob &lt;b&gt;" in text and "<b>" not in text
    for event in [{}, {"type": "nope"}, {"type": "prep"}, {"type": "prep", "seat": "x"}, {"type": 3}, {"seat": 99}]:
        for slug in [*SLUGS, "unknown-game"]:
            assert describe_event(slug, event, players)
    assert "Alice" in describe_event("marumiere", {"type": "new-kind", "seat": 0}, players)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_code_is_translated(slug, language):
    ui = get_ui(slug)
    messages = engine_module(slug).MESSAGES
    assert set(messages) <= set(ui.message_templates)
    with translation.override(language):
        for code, template in messages.items():
            exc = IllegalMove(
                template.format(**sample_params(slug, template)), code=code, **sample_params(slug, template)
            )
            ours = render_message(exc, templates=ui.message_templates, formatters=ui.message_formatters)
            assert ours is not None, f"{code}: its template does not take the engine's params"
            text = illegal_move_message(exc, slug=slug)
            assert text == ours and "%(" not in text and "{" not in text


def test_messages_of_real_refusals_use_the_raising_engine():
    """Without a slug, the engine that raised the error picks the table (codes repeat across games)."""
    konamon = get_engine("konamon")
    state = konamon.setup(players=3, seed=1)
    with pytest.raises(IllegalMove) as caught:
        konamon.play(state, 0, {"type": "choose", "cards": [999]})
    assert caught.value.code == "not_in_hand"
    assert illegal_move_message(caught.value) == "Card No. 999 is not in your hand."
    mamma = get_engine("mamma-mia")
    state = mamma.setup(players=2, seed=1)
    seat = mamma.waiting_for(state)[0]
    with pytest.raises(IllegalMove) as caught:
        mamma.play(state, seat, {"type": "turn", "topping": "salami", "count": 12, "recipe": None, "draw": "kitchen"})
    assert "12" in illegal_move_message(caught.value)


def test_unknown_codes_fall_back_to_the_engine_text():
    assert illegal_move_message(IllegalMove("Plain English.", code="brand_new")) == "Plain English."
    assert illegal_move_message(ValueError("not even an IllegalMove")) == "not even an IllegalMove"
    # Known code, params the template does not expect: the engine's own text, not a crash.
    assert illegal_move_message(IllegalMove("Engine words.", code="stock_empty"), slug="konamon") == "Engine words."


def test_card_names_follow_the_language():
    players = make_players(2)
    event = {"type": "hand_over", "seat": 0, "product": "takoyaki", "customer": "c07"}
    with translation.override("ja"):
        assert "差し入れ上手" in describe_event("konamon", event, players)
    with translation.override("en"):
        assert "Generous neighbour" in describe_event("konamon", event, players)


def test_customer_names_follow_the_readers_language():
    from django.utils import translation

    from games.ui import names

    pair = {"ja": "差し入れ上手", "en": "Generous neighbour", "zh-hant": "愛送點心的鄰居", "fr": "La voisine généreuse"}
    for language, expected in (("ja", "差し入れ上手"), ("zh-hant", "愛送點心的鄰居"), ("fr", "La voisine généreuse"),
                               ("en", "Generous neighbour")):
        with translation.override(language):
            assert names.localized(pair) == expected
    with translation.override("fr"):
        assert names.localized({"ja": "x", "en": "Only English"}) == "Only English"


def test_finishing_places_read_naturally_in_every_language():
    from django.utils import translation

    from games.templatetags.games_tags import place

    with translation.override("en"):
        assert place(1) == "1st" and place(3) == "3rd"
    with translation.override("ja"):
        assert place(1) == "1位" and place(3) == "3位"
    with translation.override("zh-hant"):
        assert place(1) == "第 1 名" and place(2) == "第 2 名"
    with translation.override("fr"):
        assert place(1) == "1re place" and place(2) == "2e place"
