"""Issue 19, point 2: every one-tap move form is marked as such, and each of its buttons' moves has a
name the confirmation can show (``GameUI.move_label``); forms that already take two steps (choose, then
send) are not marked."""

from __future__ import annotations

import json

import pytest

from games.engines import get_engine
from games.ui import get_ui
from tests.games.game_helpers import SLUGS
from tests.games.ui.support import bot_states, forms_in, make_players, render

PLAYERS = {"mamma-mia": 3, "konamon": 2, "marumiere": 3}


def move_forms(slug, state, seat, players):
    engine, ui = get_engine(slug), get_ui(slug)
    view = engine.view(state, seat)
    legal = engine.legal_moves(state, seat)
    html = render(slug, "moves", ui.page_context(view=view, legal_moves=legal, seat=seat, players=players))
    return view, legal, forms_in(html)


@pytest.mark.parametrize("slug", SLUGS)
def test_one_tap_buttons_are_marked_and_named(slug):
    engine, ui = get_engine(slug), get_ui(slug)
    players = make_players(PLAYERS[slug])
    seen_one_tap = seen_two_step = 0
    for state in bot_states(slug, players=PLAYERS[slug], seed=11, every=3, max_moves=400):
        for seat in engine.waiting_for(state):
            view, legal, forms = move_forms(slug, state, seat, players)
            for form in forms:
                one_tap = any(f.get("name") == "one_tap" for f in form["fields"])
                move_buttons = [b for b in form["buttons"] if b.get("name") == "move"]
                has_radios = any(f.get("type") == "radio" for f in form["fields"])
                # One-tap: the move is in the button itself and nothing else is chosen in the form.
                assert one_tap == (bool(move_buttons) and not has_radios), form
                seen_one_tap += one_tap
                seen_two_step += not one_tap
                for button in move_buttons:
                    move = json.loads(button["value"])
                    label = ui.confirm_label(view=view, legal_moves=legal, seat=seat, players=players, move=move)
                    assert label, (slug, move)
    assert seen_one_tap
    if slug == "mamma-mia":
        assert seen_two_step  # the turn: toppings, recipe and draw, then its own button
