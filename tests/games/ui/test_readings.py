"""Issue 31: what a screen reader hears of a table. Marumiere's backs are named as a sighted player reads them (how
big, colour, shape, size, the numbers that size allows) and never more; the sentences the keyboard commands read
out (``GameUI.readings``: the viewer's hand, the trick/oven/kitchen) come from the viewer's view alone."""

from __future__ import annotations

import copy

import pytest
from django.utils import translation

from games.engines import get_engine
from games.ui import get_ui
from marumiere.engine import size_candidates
from marumiere.ui import card_label, size_reading
from tests.games.ui.support import bot_states, make_players

pytestmark = pytest.mark.urls("tests.games.ui.urls")


def test_a_back_reads_as_a_sighted_player_sees_it():
    with translation.override("en"):
        assert size_reading(8.1) == ("large", "probably 7 to 9")
        assert size_reading(1.0) == ("small", "probably 1")
        assert size_reading(4.9) == ("medium", "probably 5")
        assert card_label({"colour": "red", "size": 8.1}, position=2) == (
            "Position C, large red heart, size 8.1, probably 7 to 9"
        )
        # A face the viewer may see is named; the guess then says nothing more.
        seen = card_label({"colour": "blue", "size": 4.4, "number": 4})
        assert "face 4" in seen and "probably" not in seen
    with translation.override("ja"):
        assert card_label({"colour": "red", "size": 8.1}) == "大きい赤のハート、大きさ8.1、おそらく7〜9"
    with translation.override("fr"):
        assert "probablement de 7 à 9" in card_label({"colour": "red", "size": 8.1})


@pytest.mark.parametrize("size", [round(0.85 + step / 10, 1) for step in range(0, 96)])
def test_the_reading_of_a_size_is_every_number_it_allows_and_no_other(size):
    """The range read out is exactly the numbers a back of that size can have: no finer than the view."""
    numbers = size_candidates(size)
    expected = f"probably {numbers[0]}" if len(numbers) == 1 else f"probably {numbers[0]} to {numbers[-1]}"
    with translation.override("en"):  # read in English whatever language an earlier test left active
        assert size_reading(size)[1] == expected


def ints_in(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from ints_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from ints_in(item)
    elif isinstance(value, int) and not isinstance(value, bool):
        yield value


def readings_along(slug: str, *, players: int, seed: int):
    engine, ui = get_engine(slug), get_ui(slug)
    people = make_players(players)
    for state in bot_states(slug, players=players, seed=seed, every=7):
        for seat in [*range(players), None]:
            view = engine.view(state, seat)
            context = ui.page_context(view=copy.deepcopy(view), legal_moves=[], seat=seat, players=people)
            yield state, seat, view, context["gameui"]["readings"]


@pytest.mark.parametrize("slug", ["marumiere", "mamma-mia", "konamon"])
def test_the_readings_name_the_viewers_own_cards_and_the_table(slug):
    seen_hand = False
    with translation.override("en"):
        for _state, seat, view, readings in readings_along(slug, players=3, seed=31):
            assert readings["table"], (slug, seat)
            if seat is None:
                assert "hand" not in readings, "a spectator has no hand to read"
                continue
            hand = readings["hand"]
            if slug == "marumiere":
                row = view["rows"][seat]
                for position, card in enumerate(row):
                    assert card_label(card, position=position) in hand
                seen_hand |= bool(row)
            elif slug == "mamma-mia":
                from mamma_mia.ui import recipe_card

                for recipe in view["hand"]["recipes"]:
                    assert recipe_card(recipe)["label"] in hand
                seen_hand |= bool(view["hand"]["recipes"])
            else:
                from konamon.ui import action_card

                for number in view["hand"]:
                    assert action_card(number)["label"] in hand
                seen_hand |= bool(view["hand"])
    assert seen_hand, "no hand was ever read: the check is vacuous"


@pytest.mark.parametrize("slug", ["marumiere", "mamma-mia", "konamon"])
def test_the_readings_hold_nothing_the_view_does_not(slug):
    """The readings are made of the view: the same view gives the same words whatever else the state holds, and
    a Marumiere back the viewer may not see face up is never named by its number."""
    engine = get_engine(slug)
    with translation.override("en"):
        for state, seat, view, readings in readings_along(slug, players=3, seed=5):
            if slug == "marumiere" and seat is not None:
                for row in view["rows"]:
                    for card in row:
                        if "number" not in card:
                            assert "face" not in card_label(card)
            if seat is not None and slug == "mamma-mia":
                others = {r for other, hand in enumerate(state["hands"]) if other != seat for r in hand["recipes"]}
                from mamma_mia.ui import recipe_card

                leaked = [r for r in others - set(view["hand"]["recipes"]) if recipe_card(r)["label"] in str(readings)]
                assert not leaked, (seat, leaked)
            if seat is not None and slug == "konamon":
                from konamon.ui import action_card

                others = {n for other, hand in enumerate(state["hands"]) if other != seat for n in hand}
                visible = set(ints_in(view))
                leaked = [n for n in others - visible if action_card(n)["label"] in str(readings)]
                assert not leaked, (seat, leaked)
            assert engine.view(state, seat) == view
