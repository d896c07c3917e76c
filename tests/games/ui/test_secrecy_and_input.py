"""Need to know (a page shows nothing its view does not hold) and refusal of every malformed POST."""

from __future__ import annotations

import json
import re

import pytest
from django.http import QueryDict

from games.engines import get_engine
from games.ui import BadMoveInput, get_ui
from games.ui.base import find_legal
from mamma_mia.ui import recipe_name
from tests.games.ui.support import bot_states, make_players, render

pytestmark = pytest.mark.urls("tests.games.ui.urls")


def page(slug: str, state: dict, seat: int | None, players: list[dict]) -> tuple[dict, str]:
    engine = get_engine(slug)
    view = engine.view(state, seat)
    legal = engine.legal_moves(state, seat) if seat is not None else []
    context = get_ui(slug).page_context(view=view, legal_moves=legal, seat=seat, players=players)
    return view, render(slug, "table", context) + render(slug, "moves", context)


# Need to know -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 4])
def test_mamma_mia_never_shows_a_recipe_its_viewer_cannot_know(players):
    """Recipes in other hands, in decks or under the oven's top stay off the page unless the view has them."""
    people = make_players(players)
    checked = 0
    for state in bot_states("mamma-mia", players=players, seed=21, every=2):
        hidden = {r for s, hand in enumerate(state["hands"]) for r in hand["recipes"]}
        hidden |= {r for deck in state["decks"] for r in deck}
        hidden |= {card for card in state["oven"] if "-" in card and card != "mamma-mia"}
        for seat in [*range(players), None]:
            view, html = page("mamma-mia", state, seat, people)
            known = json.dumps(view)
            for recipe in hidden:
                if f'"{recipe}"' in known:
                    continue  # the view holds it (own hand, oven top, announced, baked...)
                assert recipe not in html, (seat, recipe)
                assert recipe_name(recipe) not in html, (seat, recipe)
                checked += 1
    assert checked > 100


ACTION_NUMBER = re.compile(r'kn-action__num">(\d+)<|No\. (\d+)')


@pytest.mark.parametrize("players", [2, 3])
def test_konamon_never_shows_a_card_its_viewer_cannot_know(players):
    """Other hands, the deck and others' secret choices never appear as action cards on the page."""
    people = make_players(players)
    checked = 0
    for state in bot_states("konamon", players=players, seed=22, every=5):
        for seat in [*range(players), None]:
            view, html = page("konamon", state, seat, people)
            shown = {int(a or b) for a, b in ACTION_NUMBER.findall(html)}
            hidden = set(state["deck"])
            hidden |= {card for s, hand in enumerate(state["hands"]) if s != seat for card in hand}
            for s, choice in enumerate(state["chosen"]):
                if choice and s != seat:
                    hidden |= set(choice["cards"]) | ({choice["discard"]} - {None})
            assert not shown & hidden, (seat, shown & hidden)
            checked += len(hidden)
    assert checked > 1000


FACE_NUMBER = re.compile(r'class="mr-card__num" aria-hidden="true">(\d)<')


@pytest.mark.parametrize("variant", ["standard", "nobody", "self"])
def test_marumiere_prints_a_face_only_where_the_view_gives_it(variant):
    people = make_players(3)
    for state in bot_states("marumiere", players=3, seed=23, options={"variant": variant}, every=3):
        for seat in [0, 1, 2, None]:
            view, html = page("marumiere", state, seat, people)
            faces = [card["number"] for row in view["rows"] for card in row if "number" in card]
            printed = [int(n) for n in FACE_NUMBER.findall(html)]
            assert sorted(printed) == sorted(faces)
            named = {int(n) for n in re.findall(r"face (\d)", html)}
            assert named <= set(faces), "labels name no face beyond the view"


# Malformed input ----------------------------------------------------------------------------------


def as_post(pairs: list[tuple[str, str]]) -> QueryDict:
    post = QueryDict(mutable=True)
    for key, value in pairs:
        post.appendlist(key, value)
    return post


JUNK = [
    [],
    [("move", "")],
    [("move", "not json")],
    [("move", "[]")],
    [("move", "null")],
    [("move", "1e999")],
    [("move", '{"type": "nope"}')],
    [("move", '{"type": "play", "position": true}')],
    [("move", '{"type": "play", "position": 1.0}')],
    [("move", '{"type": "pick", "pile": "0"}')],
    [("move", '{"type": "turn"}')],
    [("move", '"turn"')],
    [("move", "\x00\ud800")],
    [("play", "salami:")],
    [("play", "salami:abc")],
    [("play", ":3")],
    [("play", "salami:3"), ("recipe", "green-99"), ("draw", "moon")],
    [("play", "pass"), ("draw", "kitchen"), ("recipe", "red-1")],
    [("play", "1"), ("discard", "1")],
    [("play", "x"), ("discard", "y")],
    [("play", "999"), ("discard", "998")],
    [("play", "1" * 5000), ("discard", "2")],
]


@pytest.mark.parametrize("slug", ["mamma-mia", "konamon", "marumiere"])
def test_malformed_posts_are_refused_with_bad_move_input(slug):
    engine = get_engine(slug)
    ui = get_ui(slug)
    checked = 0
    for players in (2, 3):
        for state in bot_states(slug, players=players, seed=24, every=7):
            for seat in engine.waiting_for(state):
                legal = engine.legal_moves(state, seat)
                for pairs in JUNK:
                    post = as_post(pairs)
                    try:
                        move = ui.parse_move(post, legal_moves=legal)
                    except BadMoveInput as exc:
                        assert exc.message
                        continue
                    assert move in legal  # a junk post that happens to name a legal move is that move
                    checked += 1
                with pytest.raises(BadMoveInput):
                    ui.parse_move(as_post([("move", json.dumps(legal[0])), ("move", "garbage")]), legal_moves=legal)
                with pytest.raises(BadMoveInput):
                    ui.parse_move(as_post([("move", json.dumps({**legal[0], "extra": 1}))]), legal_moves=legal)
                with pytest.raises(BadMoveInput):
                    ui.parse_move(as_post([("move", json.dumps(legal[0]))]), legal_moves=[])
                assert ui.parse_move({"move": json.dumps(legal[-1])}, legal_moves=legal) == legal[-1]


def test_find_legal_returns_the_engines_own_move():
    legal = [{"type": "play", "position": 1}]
    assert find_legal({"position": 1, "type": "play"}, legal) == legal[0]
    assert find_legal({"position": True, "type": "play"}, legal) is None
    assert find_legal({"position": 1.0, "type": "play"}, legal) is None
    assert find_legal([("type", "play")], legal) is None


def test_mamma_mia_names_the_combination_it_refuses():
    engine = get_engine("mamma-mia")
    state = engine.setup(players=2, seed=5)
    seat = engine.waiting_for(state)[0]
    legal = engine.legal_moves(state, seat)
    kind = next(m["topping"] for m in legal if m["topping"])
    with pytest.raises(BadMoveInput, match="That combination is not allowed"):
        get_ui("mamma-mia").parse_move({"play": f"{kind}:1", "recipe": "brown-8", "draw": "kitchen"}, legal_moves=legal)
