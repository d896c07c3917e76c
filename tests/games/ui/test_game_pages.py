"""Every game's table and move forms, rendered for real states of seeded bot games.

For many states and every seat (and a spectator): the page renders, every
legal move can be made through the rendered form (simulating what a browser
posts), and every post the form allows parses to a legal move or is refused
with ``BadMoveInput``.
"""

from __future__ import annotations

import pytest
from django.http import QueryDict
from django.utils import translation

from games.engines import get_engine
from games.ui import BadMoveInput, get_ui
from konamon import engine as konamon_engine
from tests.games.ui.support import (
    PLATFORM_FIELDS,
    bot_states,
    canonical,
    forms_in,
    make_players,
    possible_posts,
    render,
)

pytestmark = pytest.mark.urls("tests.games.ui.urls")

GAMES = [
    # (slug, players, seed, options, every: sample every n-th move, ~30 states per game)
    ("mamma-mia", 2, 1, None, 2),
    ("mamma-mia", 3, 2, {"memory": "open"}, 3),
    ("mamma-mia", 5, 3, None, 4),
    ("konamon", 2, 4, None, 8),
    ("konamon", 3, 5, None, 8),
    ("konamon", 4, 6, None, 10),
    ("marumiere", 2, 7, None, 2),
    ("marumiere", 3, 8, {"variant": "nobody"}, 3),
    ("marumiere", 4, 9, {"variant": "self"}, 5),
]


def as_post(data: dict[str, str]) -> QueryDict:
    post = QueryDict(mutable=True)
    for key, value in data.items():
        post[key] = value
    return post


def check_forms(slug: str, html: str, legal: list[dict]) -> None:
    """Each legal move is reachable through some form; each possible post is legal or refused."""
    ui = get_ui(slug)
    forms = forms_in(html)
    if not legal:
        assert not forms, "no move form when the seat is not awaited"
        return
    assert forms, "a move form when the seat is awaited"
    reached = set()
    for form in forms:
        assert form["action"] == "/games/42/move/"
        for data in possible_posts(form):
            assert set(data) >= PLATFORM_FIELDS, "every form carries the platform's hidden fields"
            try:
                move = ui.parse_move(as_post(data), legal_moves=legal)
            except BadMoveInput:
                continue
            assert canonical(move) in {canonical(m) for m in legal}
            reached.add(canonical(move))
    missing = {canonical(m) for m in legal} - reached
    assert not missing, f"legal moves no form can make: {sorted(missing)[:3]}"


def check_state(slug: str, state: dict, people: list[dict]) -> None:
    """Render the state for every seat and a spectator; check the forms against the legal moves."""
    engine = get_engine(slug)
    ui = get_ui(slug)
    for seat in [*range(len(people)), None]:
        view = engine.view(state, seat)
        legal = engine.legal_moves(state, seat) if seat is not None else []
        context = ui.page_context(view=view, legal_moves=legal, seat=seat, players=people)
        assert set(context) == {"gameui"}
        table = render(slug, "table", context)
        moves = render(slug, "moves", context)
        assert "Bob &lt;b&gt;" in table and "Bob <b>" not in table, "player names are escaped"
        check_forms(slug, moves, legal)
        assert not forms_in(table), "the table holds no move form"


def form_signature(engine, state) -> tuple:
    """What kind of form the awaited seats get: their move types and whether the choice is long."""
    signature = []
    for seat in engine.waiting_for(state):
        legal = engine.legal_moves(state, seat)
        signature.append((tuple(sorted({m["type"] for m in legal})), len(legal) > 8, len(legal) == 1))
    return tuple(signature)


@pytest.mark.parametrize(("slug", "players", "seed", "options", "every"), GAMES)
def test_every_state_renders_and_every_legal_move_is_reachable(slug, players, seed, options, every):
    """Every n-th state of a whole bot game, plus every state whose kind of form was not seen yet."""
    engine = get_engine(slug)
    people = make_players(players)
    seen = set()
    for index, state in enumerate(bot_states(slug, players=players, seed=seed, options=options)):
        signature = form_signature(engine, state)
        if index % every == 0 or signature not in seen or engine.is_over(state):
            seen.add(signature)
            check_state(slug, state, people)


RARE_FORMS = [
    # (slug, players, what the awaited seat's legal moves look like)
    ("konamon", 2, lambda moves: any(m.get("discard") is not None for m in moves)),
    ("konamon", 2, lambda moves: any(m["type"] == "unload" for m in moves)),
    ("konamon", 3, lambda moves: any(m["type"] == "hand_over" for m in moves)),
    ("mamma-mia", 3, lambda moves: any(m["type"] == "decline" for m in moves)),
    ("mamma-mia", 3, lambda moves: any(m["type"] == "bake" and m.get("kind") for m in moves)),
    ("mamma-mia", 4, lambda moves: sum(m["type"] == "bake" for m in moves) > 8),
    ("mamma-mia", 2, lambda moves: any(m["type"] == "turn" and m["topping"] is None for m in moves)),
]


@pytest.mark.parametrize(("slug", "players", "wanted"), RARE_FORMS)
def test_rare_forms_render_and_reach_every_move(slug, players, wanted):
    engine = get_engine(slug)
    people = make_players(players)
    for seed in range(60):
        for state in bot_states(slug, players=players, seed=seed):
            if any(wanted(engine.legal_moves(state, s)) for s in engine.waiting_for(state)):
                check_state(slug, state, people)
                return
    pytest.skip("no seeded bot game reached this form")  # the engines' bots never got there: nothing to check


@pytest.mark.parametrize("slug", ["mamma-mia", "konamon", "marumiere"])
def test_pages_render_in_japanese(slug):
    engine = get_engine(slug)
    ui = get_ui(slug)
    people = make_players(3)
    with translation.override("ja"):
        for state in bot_states(slug, players=3, seed=11, every=10):
            seat = (engine.waiting_for(state) or [0])[0]
            view = engine.view(state, seat)
            context = ui.page_context(view=view, legal_moves=engine.legal_moves(state, seat), seat=seat, players=people)
            render(slug, "table", context)
            render(slug, "moves", context)


def test_konamon_customers_are_named_in_the_readers_language():
    engine = get_engine("konamon")
    ui = get_ui("konamon")
    state = engine.setup(players=3, seed=1)
    view = engine.view(state, 0)
    customer = view["customers"][0]
    with translation.override("ja"):
        context = ui.page_context(view=view, legal_moves=[], seat=0, players=make_players(3))
        assert customer["name"]["ja"] in render("konamon", "table", context)
    with translation.override("en"):
        context = ui.page_context(view=view, legal_moves=[], seat=0, players=make_players(3))
        assert customer["name"]["en"].replace("'", "&#x27;") in render("konamon", "table", context)


def managers_friend_first(hands: list[list[int]], drawn: list[int]) -> dict:
    """A Konamon! game whose first customer is the Manager's friend (c09): each seat draws ``drawn``."""
    dealt = {card for hand in hands for card in hand} | set(drawn)
    customers = ["c09", *sorted(c for c in konamon_engine.CUSTOMERS if c != "c09")]
    deal = {"hands": hands, "actions": [*drawn, *(n for n in range(1, 61) if n not in dealt)], "customers": customers}
    return get_engine("konamon").setup(len(hands), 0, {"deal": deal})


@pytest.mark.parametrize(
    ("hands", "drawn", "kind"),
    [
        ([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]], [58, 57, 56], "single"),
        ([[40, 45, 50, 55, 60], [46, 47, 48, 49, 59]], [1, 2], "pair"),
        ([[40, 45, 50, 55, 60], [46, 47, 48, 49, 59]], [58, 57], "discard"),
    ],
)
def test_konamon_forms_offer_every_choice_of_a_six_card_hand(hands, drawn, kind):
    """After the Manager's friend every hand holds 6 cards: the choose forms reach every legal move."""
    engine, ui = get_engine("konamon"), get_ui("konamon")
    state = managers_friend_first(hands, drawn)
    assert [len(hand) for hand in state["hands"]] == [6] * len(hands)
    people = make_players(len(hands))
    check_state("konamon", state, people)
    seat = 1
    legal = engine.legal_moves(state, seat)
    context = ui.page_context(view=engine.view(state, seat), legal_moves=legal, seat=seat, players=people)
    moves = render("konamon", "moves", context)
    if kind == "single":
        assert len(legal) == 6 and moves.count('class="cardbtn"') == 6
    elif kind == "pair":
        assert {m["discard"] for m in legal} == {None} and len(legal) == 5  # 2 with each of 46, 47, 48, 49, 59
    else:
        assert len(legal) == 30
        assert moves.count('name="play"') == 6 and moves.count('name="discard"') == 6
        assert moves.count("<fieldset class=\"mv__group\" data-distinct>") == 2  # static/js/game.js keeps them apart
