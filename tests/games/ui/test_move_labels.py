"""Each game names its legal moves in its own words (``GameUI.move_labels``), from the seat's own view:
for the e-mails that list moves with codes (issue 20), so "3" means something a player can picture."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engines import get_engine
from games.ui import get_ui
from games.ui.base import generic_move_label
from tests.games.ui.support import bot_states

GAMES = [("mamma-mia", 3, 11), ("mamma-mia", 2, 12), ("konamon", 2, 13), ("konamon", 3, 14), ("marumiere", 3, 15)]


def page_labels(context) -> dict[str, str]:
    """Every (move value -> label) the game page's forms show."""
    found: dict[str, str] = {}

    def walk(node):
        if isinstance(node, dict):
            if isinstance(node.get("value"), str) and node.get("label") and node["value"].startswith("{"):
                found[node["value"]] = str(node["label"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list | tuple):
            for value in node:
                walk(value)

    walk(context)
    return found


@pytest.mark.parametrize(("slug", "players", "seed"), GAMES)
def test_every_legal_move_has_a_distinct_label_in_the_games_words(slug, players, seed):
    from games.ui.base import move_value

    engine, ui = get_engine(slug), get_ui(slug)
    people = [{"seat": s, "name": f"P{s}"} for s in range(players)]
    types = set()
    for state in bot_states(slug, players=players, seed=seed, every=3):
        for seat in engine.waiting_for(state):
            view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
            labels = ui.move_labels(view=view, legal_moves=legal)
            assert len(labels) == len(legal)
            assert len(set(labels)) == len(labels), "two codes must never read the same"
            for move, label in zip(legal, labels, strict=True):
                assert label and label != generic_move_label(move), f"{move} has no label of its game"
                types.add(move["type"])
            # What the page's buttons say is what the e-mail says.
            shown = page_labels(ui.page_context(view=view, legal_moves=legal, seat=seat, players=people))
            for move, label in zip(legal, labels, strict=True):
                if move_value(move) in shown:
                    assert shown[move_value(move)] in label, (shown[move_value(move)], label)
    assert len(types) >= 2, types


@pytest.mark.parametrize("slug", ["mamma-mia", "konamon", "marumiere"])
def test_labels_follow_the_readers_language(slug):
    engine, ui = get_engine(slug), get_ui(slug)
    state = engine.setup(players=2, seed=3)
    seat = engine.waiting_for(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    with translation.override("en"):
        english = ui.move_labels(view=view, legal_moves=legal)
    with translation.override("ja"):
        japanese = ui.move_labels(view=view, legal_moves=legal)
    assert english != japanese


def test_a_game_without_labels_of_its_own_falls_back_to_a_generic_one():
    from games.ui.base import GameUI

    ui = GameUI()
    assert ui.move_labels(view={}, legal_moves=[{"type": "play_card", "card": 3}]) == ["play card: card 3"]


def test_a_label_that_fails_falls_back_to_the_generic_one():
    ui = get_ui("marumiere")
    odd = {"type": "play", "position": 99}
    assert ui.move_labels(view={"rows": [[]], "seat": 0}, legal_moves=[odd]) == [generic_move_label(odd)]
