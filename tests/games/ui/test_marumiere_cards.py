"""Issue 35, item 3: Marumiere's cards are worth 1-9, so a card's place in its row is never written as a number
on or beside it (players read it as the value): the table names places with letters under the cards, the move
form and the revealed hands show none, and the bid card is drawn turned sideways."""

from __future__ import annotations

import re

import pytest

from games.engines import get_engine
from games.ui import describe_event, get_ui
from tests.games.ui.support import bot_states, final_state, make_players, render

pytestmark = pytest.mark.urls("tests.games.ui.urls")


def a_trick_being_played(players: int = 3, seed: int = 8) -> dict:
    engine = get_engine("marumiere")
    for state in bot_states("marumiere", players=players, seed=seed):
        if state.get("phase") == "play" and engine.waiting_for(state):
            return state
    raise AssertionError("no trick phase in this game")


def test_row_positions_are_letters_under_the_cards_never_numbers():
    engine, ui = get_engine("marumiere"), get_ui("marumiere")
    state = a_trick_being_played()
    seat = engine.waiting_for(state)[0]
    context = ui.page_context(
        view=engine.view(state, seat), legal_moves=engine.legal_moves(state, seat), seat=seat, players=make_players(3)
    )
    table = render("marumiere", "table", context)
    places = re.findall(r'<span class="mr-card__pos"[^>]*>([^<]*)</span>', table)
    assert places and set(places) <= set("ABCDEFGHI"), places
    assert "A" in places and not any(p.isdigit() for p in places)
    moves = render("marumiere", "moves", context)
    assert "mr-card__pos" not in moves  # the form's buttons say the place in their names; no mark needed


def test_the_bid_card_is_drawn_turned_sideways():
    engine, ui = get_engine("marumiere"), get_ui("marumiere")
    state = a_trick_being_played()
    context = ui.page_context(view=engine.view(state, None), legal_moves=[], seat=None, players=make_players(3))
    table = render("marumiere", "table", context)
    bids = re.findall(r'<span class="mr-card mr-card--\w+ is-bid[^"]*"[^>]*>(<svg.*?</svg>)', table, re.S)
    assert len(bids) == 3
    for svg in bids:
        assert 'viewBox="0 0 84 60"' in svg and "rotate(90" in svg, svg[:300]


def test_revealed_hands_and_the_log_do_not_number_places():
    ui = get_ui("marumiere")
    state = final_state("marumiere", players=3, seed=8)
    html = render("marumiere", "revealed", {"revealed_hands": ui.revealed_hands(state), "players": make_players(3)})
    marks = re.findall(r'<span class="mr-face__suit"[^>]*>([^<]*)</span>', html)
    assert marks and not any(re.search(r"\d", mark) for mark in marks), marks
    bid = {"type": "bid", "seat": 0, "position": 2}
    assert describe_event("marumiere", bid, make_players(3)) == "Alice turns a card sideways as their bid (position C)."
