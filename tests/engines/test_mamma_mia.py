"""Mamma Mia! as ``shared/rules/mamma-mia.md`` reads it: the sources' worked examples, one test per rule,
conservation of every card, need to know, and the bot.

The generic protocol properties are in ``test_protocol.py``. Tests build games with the stacked ``deal``
option and play them through the protocol; a few look at the plain-data state to check where cards are.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import pytest

from games.engines import IllegalMove, get_engine
from mamma_mia import engine as mm

E = get_engine("mamma-mia")
MM = mm.MAMMA_MIA
KINDS = mm.TOPPINGS


# --- Helpers -----------------------------------------------------------------------------------


def interleaved(counts: Counter) -> list[str]:
    """Cards one kind after another in canonical order (no long runs of one kind)."""
    counts = Counter(counts)
    cards = []
    while +counts:
        for kind in KINDS:
            if counts[kind] > 0:
                cards.append(kind)
                counts[kind] -= 1
    return cards


def stacked(players, hands, first=0, decks=None, kitchen_top=()):
    """A stacked deal: the given hands, deck tops and kitchen top; the rest interleaved, the Mamma Mia card last."""
    decks = decks or {}
    in_play = Counter(mm.toppings_in_play(players))
    taken = Counter(card for hand in hands for card in hand) + Counter(c for c in kitchen_top if c != MM)
    assert not taken - in_play, f"more cards than in play: {taken - in_play}"
    kitchen = list(kitchen_top) + interleaved(in_play - taken) + ([] if MM in kitchen_top else [MM])
    recipes = []
    for seat in range(players):
        own = mm.COLOUR_RECIPES[mm.COLOURS[seat]]
        top = decks.get(seat, [])
        recipes.append(list(top) + [r for r in own if r not in top])
    return {"first": first, "hands": [list(h) for h in hands], "recipes": recipes, "kitchen": kitchen}


def start(players, hands, memory="strict", **kwargs):
    return E.setup(players, 7, {"deal": stacked(players, hands, **kwargs), "memory": memory})


def turn(topping, count, recipe=None, draw="kitchen"):
    return {"type": "turn", "topping": topping, "count": count, "recipe": recipe, "draw": draw}


def pass_(draw=None):
    return {"type": "turn", "topping": None, "count": 0, "recipe": None, "draw": draw}


def bake(kind=None, **add):
    return {"type": "bake", "kind": kind, "add": add}


def play(state, seat, move):
    assert E.waiting_for(state) == [seat], f"waiting for {E.waiting_for(state)}, not {seat}"
    return E.play(state, seat, move)


def refused(state, seat, move, code):
    with pytest.raises(IllegalMove) as caught:
        E.play(state, seat, move)
    assert caught.value.code == code, caught.value.message
    return caught.value


def drain(state, keep=None):
    """Play phase 1 to its end without recipes, from the kitchen, most toppings first, holding ``keep``."""
    keep = keep or {}
    current = state["round"]
    while not E.is_over(state) and state["phase"] == 1 and state["round"] == current:
        seat = E.waiting_for(state)[0]
        hand = state["hands"][seat]["toppings"]
        floor = keep.get(seat, {})
        moves = [
            m
            for m in E.legal_moves(state, seat)
            if m["recipe"] is None
            and m["draw"] != "recipes"
            and (m["topping"] is None or hand[m["topping"]] - m["count"] >= floor.get(m["topping"], 0))
        ]
        assert moves, f"seat {seat} cannot keep {floor}"
        state = E.play(state, seat, max(moves, key=lambda m: m["count"]))
    return state


def public(view, *types):
    return [e for e in view["log"] if e["type"] in types]


def last(state, kind, seat=None):
    return [e for e in state["log"] if e["type"] == kind and (seat is None or e.get("seat") == seat)][-1]


# --- Data and set-up ---------------------------------------------------------------------------


def test_recipe_table_is_the_house_table():
    assert KINDS == ("pineapple", "olive", "pepper", "mushroom", "salami")
    assert mm.COLOURS == ("green", "red", "yellow", "purple", "brown")
    assert len(mm.RECIPES) == 40
    for colour in mm.COLOURS:
        signature = mm.SIGNATURES[colour]
        others = [k for k in KINDS if k != signature]
        cards = [mm.RECIPES[f"{colour}-{n}"] for n in range(1, 9)]
        for n, other in enumerate(others):
            assert cards[n] == {
                "id": f"{colour}-{n + 1}",
                "colour": colour,
                "kind": "classic",
                "needs": {signature: 1, other: 4},
            }
        assert cards[4]["needs"] == dict.fromkeys(KINDS, 1)
        assert cards[5]["kind"] == "bombastica" and cards[5]["at_least"] == 15 and cards[5]["needs"] == {}
        assert cards[6]["kind"] == "monotoni" and cards[6]["needs"] == {signature: 1} and cards[6]["same"] == 6
        assert cards[7]["kind"] == "minimale" and cards[7]["needs"] == {signature: 1} and cards[7]["scarcest"] == 3
    assert mm.RECIPES["green-1"]["needs"] == {"pepper": 1, "pineapple": 4}
    assert mm.RECIPES["green-4"]["needs"] == {"pepper": 1, "salami": 4}  # the sources' "4 salami + 1 pepper"
    assert mm.RECIPES["brown-7"]["needs"] == {"mushroom": 1}


@pytest.mark.parametrize(("players", "each"), [(2, 8), (3, 10), (4, 12), (5, 13)])
def test_setup_removes_deals_and_shuffles(players, each):
    state = E.setup(players, 99)
    assert E.options == {"memory": ["strict", "open"]}
    assert state["options"] == {"memory": "strict"}
    cards = Counter(state["kitchen"])
    for hand in state["hands"]:
        assert sum(hand["toppings"].values()) == 6 and len(hand["recipes"]) == 1
        cards.update(hand["toppings"])
    assert cards == Counter({**dict.fromkeys(KINDS, each), MM: 1})
    assert len(state["kitchen"]) == 5 * each - 6 * players + 1
    for seat, (hand, deck) in enumerate(zip(state["hands"], state["decks"], strict=True)):
        assert sorted(hand["recipes"] + deck) == sorted(mm.COLOUR_RECIPES[mm.COLOURS[seat]])
    assert E.waiting_for(state) == [state["first"]]
    view = E.view(state, 0)
    assert (
        view["phase"] == 1 and view["round"] == 1 and view["chef"] is None and view["oven"] == {"size": 0, "top": None}
    )
    assert view["hand_sizes"] == [7] * players and view["recipe_decks"] == [7] * players
    assert view["table"] == dict.fromkeys(KINDS, 0) and view["deciding"] is None and view["baked"] == [[]] * players
    assert {E.setup(players, seed)["first"] for seed in range(40)} == set(range(players)), "a random player starts"


def test_stacked_deal_is_used_as_given():
    hands = [["salami"] * 3 + ["olive", "pepper", "mushroom"], ["pineapple"] * 6]
    state = start(2, hands, first=1, decks={0: ["green-3"]}, kitchen_top=["olive", MM])
    assert state["first"] == 1 and E.waiting_for(state) == [1]
    assert state["hands"][0]["toppings"] == {"pineapple": 0, "olive": 1, "pepper": 1, "mushroom": 1, "salami": 3}
    assert state["hands"][0]["recipes"] == ["green-3"] and state["decks"][0][0] == "green-1"
    assert state["kitchen"][:2] == ["olive", MM]


def test_stacked_deal_is_validated():
    good = stacked(2, [["salami"] * 6, ["olive"] * 6])
    E.setup(2, 1, {"deal": good})

    def bad(**change):
        deal = json.loads(json.dumps(good))
        deal.update(change)
        with pytest.raises(ValueError):
            E.setup(2, 1, {"deal": deal})

    bad(first=2)
    bad(first=True)
    bad(first="0")
    bad(hands=[["salami"] * 6])  # a hand missing
    bad(hands=[["salami"] * 5, ["olive"] * 6])  # a short hand
    bad(hands=[["salami"] * 6, ["olive"] * 5 + ["pepper"]])  # an olive too few, a pepper too many
    bad(hands=[["salami"] * 6, ["olive"] * 5 + [MM]])  # the Mamma Mia card dealt
    bad(kitchen=good["kitchen"][:-1])  # no Mamma Mia card
    bad(kitchen=good["kitchen"] + [MM])  # two
    bad(kitchen=good["kitchen"] + ["salami"])  # a removed card back in play
    bad(kitchen=good["kitchen"][1:])  # a card missing
    bad(recipes=[good["recipes"][1], good["recipes"][0]])  # other seats' colours
    bad(recipes=[good["recipes"][0][:7], good["recipes"][1]])  # a recipe missing
    bad(recipes=[good["recipes"][0][:7] + ["green-1"], good["recipes"][1]])  # a recipe twice
    bad(kitchen="salami")
    with pytest.raises(ValueError):
        E.setup(2, 1, {"deal": {**good, "extra": 1}})
    with pytest.raises(ValueError):
        E.setup(2, 1, {"deal": [good]})
    with pytest.raises(ValueError):
        E.setup(3, 1, {"deal": good})  # a 2-player deal for 3 players


def test_options():
    assert E.setup(2, 1, {"memory": "open"})["options"] == {"memory": "open"}
    for options in ({"memory": "total"}, {"colours": "x"}):
        with pytest.raises(ValueError):
            E.setup(2, 1, options)
    assert "deal" not in E.setup(2, 1, {"deal": stacked(2, [["salami"] * 6, ["olive"] * 6])})["options"]


# --- The sources' worked examples ---------------------------------------------------------------


def test_green_turn_three_salami_a_recipe_and_a_short_recipe_deck():
    """Alberto (green) plays 3 salami and his "4 salami + 1 pepper"; his recipe deck has 3 cards left."""
    hands = [["salami"] * 3 + ["olive", "mushroom", "pineapple"], ["pepper"] * 3 + ["olive"] * 3]
    deck = ["green-1", "green-2", "green-4", "green-3", "green-5", "green-6", "green-7", "green-8"]
    state = start(2, hands, decks={0: deck})
    state = play(state, 0, turn("olive", 1, "green-1", "recipes"))
    state = play(state, 1, turn("pepper", 1))
    state = play(state, 0, turn("mushroom", 1, "green-2", "recipes"))
    state = play(state, 1, turn("pepper", 1))
    assert E.view(state, 0)["recipe_decks"][0] == 3
    state = play(state, 0, turn("salami", 3, "green-4", "recipes"))
    view = E.view(state, 0)
    assert public(view, "turn")[-1] == {
        "type": "turn",
        "seat": 0,
        "topping": "salami",
        "count": 3,
        "recipe": "green-4",
        "draw": "recipes",
        "drew": 3,
    }
    assert view["hand_sizes"][0] == 6 and view["recipe_decks"][0] == 0
    assert view["hand"] == {
        "toppings": {**dict.fromkeys(KINDS, 0), "pineapple": 1},
        "recipes": ["green-3", "green-5", "green-6", "green-7", "green-8"],
    }
    assert view["oven"] == {"size": 10, "top": "green-4"}
    state = play(state, 1, turn("pepper", 1))
    assert E.view(state, 1)["hand_sizes"][0] == 6, "the hand stays short until its owner's next refill"
    refused(state, 0, turn("pineapple", 1, None, "recipes"), "empty_source")
    assert {m["draw"] for m in E.legal_moves(state, 0)} == {"kitchen"}
    state = play(state, 0, turn("pineapple", 1, None, "kitchen"))
    assert E.view(state, 0)["hand_sizes"][0] == 7


def completion_game(holds_pineapple=True):
    """The completion example: table pepper 1, salami 2, pineapple 3, mushroom 4, then green's pineapple×4 recipe."""
    hands = [
        ["mushroom"] * 4 + ["pepper", "pineapple" if holds_pineapple else "olive"],
        ["salami"] * 2 + ["olive"] * 4,
        ["pineapple"] * 3 + ["olive"] * 3,
    ]
    state = start(3, hands, decks={0: ["green-1"]})
    state = play(state, 0, turn("mushroom", 4))
    state = play(state, 1, turn("salami", 2))
    state = play(state, 2, turn("pineapple", 3))
    state = play(state, 0, turn("pepper", 1, "green-1"))
    return state


def test_completion_example_owner_adds_the_missing_pineapple():
    state = drain(completion_game(), keep={0: {"pineapple": 1}})
    view = E.view(state, 1)
    assert view["phase"] == 2 and view["deciding"] == {"seat": 0, "recipe": "green-1"}
    assert view["table"] == {"pineapple": 3, "olive": 0, "pepper": 1, "mushroom": 4, "salami": 2}
    assert E.waiting_for(state) == [0]
    assert E.legal_moves(state, 0) == [bake(pineapple=1), {"type": "decline"}]
    pineapples = state["hands"][0]["toppings"]["pineapple"]
    refused(state, 0, bake(), "wrong_add")
    refused(state, 0, bake(pineapple=2), "wrong_add")
    refused(state, 0, bake("pineapple", pineapple=1), "no_kind")
    after = play(state, 0, bake(pineapple=1))
    assert last(after, "baked") == {
        "type": "baked",
        "seat": 0,
        "recipe": "green-1",
        "kind": None,
        "added": {"pineapple": 1},
        "used": {"pineapple": 4, "pepper": 1},
    }
    assert after["baked"][0] == ["green-1"]
    assert after["hands"][0]["toppings"]["pineapple"] == pineapples - 1, "added cards are not replaced"
    reveals = [e["card"] for e in after["log"] if e["type"] == "reveal"]
    assert reveals[:11] == ["mushroom"] * 4 + ["salami"] * 2 + ["pineapple"] * 3 + ["pepper", "green-1"]


def test_completion_example_owner_may_decline():
    state = drain(completion_game(), keep={0: {"pineapple": 1}})
    after = play(state, 0, {"type": "decline"})
    assert after["decks"][0][-1] == "green-1", "back under the recipe deck"
    assert last(after, "returned") == {"type": "returned", "seat": 0, "recipe": "green-1", "declined": True}
    assert after["baked"][0] == []


def minimale_game(keep_both=True):
    """The Minimale example: table olive 2, salami 2, mushroom 2, pineapple 3; purple's card shows olive."""
    hands = [
        ["olive"] * 2 + ["pepper"] * 4,
        ["salami"] * 2 + ["pepper"] * 4,
        ["mushroom"] * 2 + ["pepper"] * 4,
        ["pineapple"] * 3 + (["salami", "mushroom", "olive"] if keep_both else ["olive"] * 3),
    ]
    state = start(4, hands, decks={3: ["purple-8"]})
    state = play(state, 0, turn("olive", 2))
    state = play(state, 1, turn("salami", 2))
    state = play(state, 2, turn("mushroom", 2))
    return play(state, 3, turn("pineapple", 3, "purple-8"))


def test_minimale_example_owner_chooses_salami_or_mushroom_and_adds_one():
    state = drain(minimale_game(), keep={3: {"salami": 1, "mushroom": 1}})
    view = E.view(state, 3)
    assert view["deciding"] == {"seat": 3, "recipe": "purple-8"}
    assert view["table"] == {"pineapple": 3, "olive": 2, "pepper": 0, "mushroom": 2, "salami": 2}
    assert E.legal_moves(state, 3) == [bake("mushroom", mushroom=1), bake("salami", salami=1), {"type": "decline"}]
    error = refused(state, 3, bake("pineapple", pineapple=1), "bad_kind")
    assert error.params["kinds"] == ["mushroom", "salami"]
    refused(state, 3, bake("olive", olive=1), "bad_kind")
    refused(state, 3, bake(None, salami=1), "bad_kind")
    refused(state, 3, bake("salami"), "wrong_add")
    refused(state, 3, bake("salami", mushroom=1), "wrong_add")
    after = play(state, 3, bake("salami", salami=1))
    assert last(after, "baked")["used"] == {"olive": 1, "salami": 3}
    assert after["baked"][3] == ["purple-8"]


def stall_round_minimale():
    """The same table, but every player empties their hand of toppings: purple cannot add, so no question."""
    hands = [
        ["olive"] * 2 + ["pepper"] * 4,
        ["salami"] * 2 + ["pepper"] * 4,
        ["mushroom"] * 2 + ["pepper"] * 4,
        ["pineapple"] * 3 + ["olive"] * 3,
    ]
    state = start(4, hands, decks={3: ["purple-8"]})
    for seat, move in [
        (0, turn("olive", 2, None, "recipes")),
        (1, turn("salami", 2, None, "recipes")),
        (2, turn("mushroom", 2, None, "recipes")),
        (3, turn("pineapple", 3, "purple-8", "recipes")),
        (0, turn("pepper", 4, None, "recipes")),
        (1, turn("pepper", 4, None, "recipes")),
        (2, turn("pepper", 4, None, "recipes")),
        (3, turn("olive", 3, None, "recipes")),
    ]:
        state = play(state, seat, move)
    assert all(len(E.view(state, s)["hand"]["recipes"]) == 7 for s in range(4))
    return state


def test_minimale_that_cannot_be_completed_goes_back_without_a_question():
    state = stall_round_minimale()
    kitchen = len(state["kitchen"])
    for seat in range(3):
        state = play(state, seat, pass_())
        assert state["phase"] == 1 and state["round"] == 1
    state = play(state, 3, pass_())  # the fourth pass in a row: the stall rule ends phase 1
    returned = [e for e in state["log"] if e["type"] == "returned"]
    assert returned == [{"type": "returned", "seat": 3, "recipe": "purple-8", "declined": False}]
    assert state["decks"][3] == ["purple-8"]
    assert state["round"] == 2, "no question was asked: the round went on"
    assert len(state["kitchen"]) == kitchen, "after a stall the undrawn kitchen is shuffled into the new one"


def monotoni_game(hold_salami=True):
    """Brown's Monotoni (shows mushroom) revealed on mushroom 7, salami 5, olive 1, pineapple 1."""
    hands = [
        ["mushroom"] * 4 + ["pepper"] * 2,
        ["mushroom"] * 3 + ["pepper"] * 3,
        ["salami"] * 5 + ["pepper"],
        ["olive"] + ["pepper"] * 5,
        ["pineapple"] + (["salami"] if hold_salami else ["olive"]) + ["olive"] * 4,
    ]
    state = start(5, hands, decks={4: ["brown-7"]})
    state = play(state, 0, turn("mushroom", 4))
    state = play(state, 1, turn("mushroom", 3))
    state = play(state, 2, turn("salami", 5))
    state = play(state, 3, turn("olive", 1))
    return play(state, 4, turn("pineapple", 1, "brown-7"))


def test_monotoni_may_not_name_its_own_kind():
    state = drain(monotoni_game(), keep={4: {"salami": 1}})
    view = E.view(state, 4)
    assert view["deciding"] == {"seat": 4, "recipe": "brown-7"}
    assert view["table"]["mushroom"] == 7 and view["table"]["salami"] == 5
    hand = state["hands"][4]["toppings"]
    assert hand["pineapple"] < 5 and hand["olive"] < 6 and hand["pepper"] < 6, "precondition of the stacked game"
    assert E.legal_moves(state, 4) == [bake("salami", salami=1), {"type": "decline"}]
    refused(state, 4, bake("mushroom"), "bad_kind")  # 7 of the signature kind is not a Monotoni
    refused(state, 4, bake("mushroom", mushroom=1), "bad_kind")
    refused(state, 4, bake(None, salami=1), "bad_kind")
    after = play(state, 4, bake("salami", salami=1))
    assert last(after, "baked")["used"] == {"mushroom": 1, "salami": 6}


def test_monotoni_two_table_ways_owner_chooses_but_may_not_decline():
    """Red's Monotoni (salami) on olive 6 and pepper 6: baked either way, the owner only chooses how."""
    hands = [["olive"] * 6, ["salami"] + ["mushroom"] * 5, ["pepper"] * 6]
    state = start(3, hands, first=2, decks={1: ["red-7"]})
    state = play(state, 2, turn("pepper", 6, None, "recipes"))
    state = play(state, 0, turn("olive", 6, None, "recipes"))
    state = play(state, 1, turn("salami", 1, "red-7", "recipes"))
    state = play(state, 2, pass_())
    state = play(state, 0, pass_())
    state = play(state, 1, turn("mushroom", 5, None, "recipes"))
    for seat in (2, 0, 1):
        state = play(state, seat, pass_())
    assert E.view(state, 0)["deciding"] == {"seat": 1, "recipe": "red-7"}
    assert E.legal_moves(state, 1) == [bake("olive"), bake("pepper")]
    refused(state, 1, {"type": "decline"}, "cannot_decline")
    after = play(state, 1, bake("pepper"))
    assert last(after, "baked") == {
        "type": "baked",
        "seat": 1,
        "recipe": "red-7",
        "kind": "pepper",
        "added": {},
        "used": {"pepper": 6, "salami": 1},
    }
    assert after["table"]["olive"] == 6 and after["table"]["mushroom"] == 5, "the leftovers stay face up"


def bombastica_stall_game():
    """Yellow's Bombastica revealed on olive 6, salami 6, pepper 3 (15 toppings), then 3 mushroom."""
    hands = [["olive"] * 6, ["salami"] * 6, ["pepper"] * 3 + ["mushroom"] * 3]
    state = start(3, hands, decks={2: ["yellow-6"]})
    for seat, move in [
        (0, turn("olive", 6, None, "recipes")),
        (1, turn("salami", 6, None, "recipes")),
        (2, turn("pepper", 3, "yellow-6", "recipes")),
        (0, pass_()),
        (1, pass_()),
        (2, turn("mushroom", 3, None, "recipes")),
        (0, pass_()),
        (1, pass_()),
    ]:
        state = play(state, seat, move)
    return state


def test_bombastica_with_15_uses_every_table_topping():
    state = bombastica_stall_game()
    state = play(state, 2, pass_())
    assert last(state, "baked") == {
        "type": "baked",
        "seat": 2,
        "recipe": "yellow-6",
        "kind": None,
        "added": {},
        "used": {"olive": 6, "pepper": 3, "salami": 6},
    }
    assert state["table"] == {**dict.fromkeys(KINDS, 0), "mushroom": 3}
    assert last(state, "shuffle")["kitchen"] == len(state["kitchen"])


def test_bombastica_short_owner_adds_any_kinds_of_their_choice():
    hands = [["olive"] * 5 + ["pepper"], ["salami"] * 5 + ["pepper"], ["mushroom"] * 3 + ["pineapple"] * 2 + ["pepper"]]
    state = start(3, hands, decks={2: ["yellow-6"]})
    state = play(state, 0, turn("olive", 5))
    state = play(state, 1, turn("salami", 5))
    state = play(state, 2, turn("mushroom", 3, "yellow-6"))
    state = drain(state, keep={2: {"pineapple": 2}})
    assert E.view(state, 0)["deciding"] == {"seat": 2, "recipe": "yellow-6"}
    assert sum(state["table"].values()) == 13
    hand = state["hands"][2]["toppings"]
    choices = mm.multisets(hand, 2)
    assert {"pineapple": 2} in choices and len(choices) >= 1
    assert E.legal_moves(state, 2) == [bake(None, **add) for add in choices] + [{"type": "decline"}]
    refused(state, 2, bake(pineapple=1), "wrong_add_count")
    refused(state, 2, bake(pineapple=3), "not_in_hand" if hand["pineapple"] < 3 else "wrong_add_count")
    after = play(state, 2, bake(pineapple=2))
    assert last(after, "baked")["used"] == {"pineapple": 2, "olive": 5, "mushroom": 3, "salami": 5}


# --- One test per rule ---------------------------------------------------------------------------


def test_toppings_of_one_kind_at_least_one_then_at_most_one_recipe():
    state = start(2, [["salami"] * 3 + ["olive"] * 3, ["pepper"] * 6])
    refused(state, 0, turn(None, 0), "must_play_topping")
    refused(state, 0, turn("salami", 0), "bad_count")
    refused(state, 0, turn("salami", 4), "not_in_hand")
    refused(state, 0, turn("pepper", 1), "not_in_hand")
    refused(state, 0, turn("anchovy", 1), "unknown_topping")
    refused(state, 0, turn("salami", 1, "red-1"), "recipe_not_in_hand")
    refused(state, 0, turn("salami", 1, "green-9"), "unknown_recipe")
    refused(state, 0, turn("salami", 1, None, "deck"), "bad_draw_source")
    refused(state, 0, turn("salami", 1, None, None), "must_draw")
    refused(state, 0, {"type": "turn", "topping": "salami", "count": 1}, "bad_keys")
    refused(state, 0, {"type": "bake", "kind": None, "add": {}}, "wrong_move")
    refused(state, 1, turn("pepper", 1), "not_your_turn")
    moves = E.legal_moves(state, 0)
    # 3 salami counts + 3 olive counts, each without or with the 1 recipe, each drawing from 2 sources
    assert len(moves) == 6 * 2 * 2
    assert {(m["topping"], m["count"]) for m in moves} == {("salami", n) for n in (1, 2, 3)} | {
        ("olive", n) for n in (1, 2, 3)
    }


def test_player_without_toppings_passes_plays_no_recipe_and_still_refills():
    state = start(2, [["salami"] * 6, ["olive"] * 6])
    state = play(state, 0, turn("salami", 6, None, "kitchen"))  # draws 6 from the kitchen
    state = play(state, 1, turn("olive", 6, "red-1", "recipes"))  # draws the recipe deck's 7
    assert state["hands"][1] == {"toppings": dict.fromkeys(KINDS, 0), "recipes": state["hands"][1]["recipes"]}
    state = play(state, 0, turn("olive", 1))
    assert E.legal_moves(state, 1) == [pass_()], "a full hand of recipes: pass and draw nothing"
    refused(state, 1, turn("olive", 1), "must_pass")
    refused(state, 1, {**pass_(), "recipe": "red-2"}, "no_recipe_when_passing")
    refused(state, 1, pass_("kitchen"), "hand_full")
    refused(state, 1, {**pass_(), "count": None}, "must_pass")
    after = play(state, 1, pass_())
    assert last(after, "pass") == {"type": "pass", "seat": 1, "draw": None, "drew": 0}


def test_pass_with_a_short_hand_refills_from_the_source_that_has_cards():
    state = start(2, [["salami"] * 6, ["olive"] * 6])
    state = play(state, 0, turn("salami", 1))
    state = play(state, 1, turn("olive", 3, "red-1", "recipes"))  # draws 4: the deck keeps 3
    state = play(state, 0, turn("salami", 1))
    state = play(state, 1, turn("olive", 3, "red-2", "recipes"))  # wants 4, gets the last 3
    assert E.view(state, 0)["hand_sizes"][1] == 6 and E.view(state, 0)["recipe_decks"][1] == 0
    state = play(state, 0, turn("salami", 1))
    assert E.legal_moves(state, 1) == [pass_("kitchen")]
    refused(state, 1, pass_("recipes"), "empty_source")
    refused(state, 1, pass_(), "must_draw")
    state = play(state, 1, pass_("kitchen"))
    assert last(state, "pass") == {"type": "pass", "seat": 1, "draw": "kitchen", "drew": 1}
    assert state["quiet"] == 0, "a card moved: not a quiet pass"


def test_a_source_with_no_card_may_not_be_chosen_while_the_other_has_cards():
    assert mm.allowed_sources({"kitchen": ["olive"], "decks": [[]]}, 0) == ["kitchen"]
    assert mm.allowed_sources({"kitchen": [], "decks": [["green-1"]]}, 0) == ["recipes"]
    assert mm.allowed_sources({"kitchen": ["olive"], "decks": [["green-1"]]}, 0) == ["kitchen", "recipes"]
    assert mm.allowed_sources({"kitchen": [], "decks": [[]]}, 0) == ["kitchen", "recipes"]


def test_mamma_mia_card_makes_its_drawer_chef_and_is_replaced():
    state = start(2, [["salami"] * 6, ["olive"] * 6], kitchen_top=["olive", MM, "pepper", "pineapple"])
    kitchen = len(state["kitchen"])
    state = play(state, 0, turn("salami", 2))
    assert state["hands"][0]["toppings"] == {**dict.fromkeys(KINDS, 0), "salami": 4, "olive": 1, "pepper": 1}
    assert len(state["kitchen"]) == kitchen - 3
    for seat in (None, 0, 1):
        view = E.view(state, seat)
        assert view["chef"] == 0 and view["hand_sizes"][0] == 7 and view["kitchen"] == kitchen - 3
        assert public(view, "chef") == [{"type": "chef", "seat": 0, "reason": MM}]
        assert public(view, "turn")[-1]["drew"] == 2
    assert public(E.view(state, 0), "drew") == [
        {"type": "drew", "seat": 0, "toppings": {"olive": 1, "pepper": 1}, "recipes": []}
    ]
    assert public(E.view(state, 1), "drew") == [], "what seat 0 drew is seat 0's alone"
    assert public(E.view(state, None), "drew") == []


def round_one_drained(memory="strict"):
    """Round 1 without a recipe, the Mamma Mia card drawn by seat 0 at once: every topping stays on the table."""
    state = start(
        2, [["salami"] * 3 + ["pepper"] * 3, ["olive"] * 6], memory=memory, decks={0: ["green-4"]}, kitchen_top=[MM]
    )
    state = drain(state)
    assert state["round"] == 2 and state["phase"] == 1
    return state


def test_phase_1_ends_at_the_last_kitchen_card_and_leftovers_carry_to_the_next_round():
    state = round_one_drained()
    view = E.view(state, 1)
    assert view["first"] == 0 and E.waiting_for(state) == [0], "the chef starts the next round"
    assert view["chef"] is None and view["kitchen"] == 1, "no pizza baked: the new kitchen is the Mamma Mia card"
    on_table = sum(view["table"].values())
    in_hands = sum(sum(h["toppings"].values()) for h in state["hands"])
    assert on_table + in_hands == 40, "every played topping stayed face up on the table"
    assert view["table"]["salami"] >= 4 and view["table"]["pepper"] >= 1
    size = view["hand_sizes"][0]
    state = play(state, 0, turn(next(k for k in KINDS if state["hands"][0]["toppings"][k]), 1, "green-4"))
    # Drawing the only kitchen card (the Mamma Mia card) ended phase 1 at once; the leftovers, revealed first,
    # completed green-4 with no question; round 3 began.
    assert last(state, "open") == {"type": "open", "chef": 0, "reason": "kitchen"}
    assert last(state, "baked") == {
        "type": "baked",
        "seat": 0,
        "recipe": "green-4",
        "kind": None,
        "added": {},
        "used": {"pepper": 1, "salami": 4},
    }
    assert state["round"] == 3 and E.view(state, 0)["hand_sizes"][0] == size - 2, "the hand stays short"
    assert len(state["kitchen"]) == 6, "the used pile (5) and the Mamma Mia card"


def test_game_ends_after_round_three_ranked_by_baked_then_toppings_in_hand():
    state = round_one_drained()
    while not E.is_over(state):
        seat = E.waiting_for(state)[0]
        state = play(state, seat, E.bot_move(state, seat))
    assert state["round"] == 3 and last(state, "end")["winners"] == [
        row["seat"] for row in E.outcome(state) if row["rank"] == 1
    ]
    final = json.loads(json.dumps(state))
    final["baked"] = [["green-1", "green-2"], ["red-1", "red-2"]]
    final["hands"][0]["toppings"] = {**dict.fromkeys(KINDS, 0), "salami": 2}
    final["hands"][1]["toppings"] = {**dict.fromkeys(KINDS, 0), "olive": 1}
    assert E.outcome(final) == [{"seat": 0, "rank": 1, "score": 2}, {"seat": 1, "rank": 2, "score": 2}]
    final["hands"][1]["toppings"]["pepper"] = 1
    assert E.outcome(final) == [{"seat": 0, "rank": 1, "score": 2}, {"seat": 1, "rank": 1, "score": 2}]
    final["baked"][1].append("red-3")
    assert E.outcome(final) == [{"seat": 0, "rank": 2, "score": 2}, {"seat": 1, "rank": 1, "score": 3}]
    assert E.waiting_for(state) == [] and E.legal_moves(state, 0) == []
    refused(state, 0, pass_(), "game_over")


def test_stall_rule_ends_phase_1_and_the_starter_is_chef():
    state = bombastica_stall_game()
    assert state["phase"] == 1 and state["quiet"] == 2
    state = play(state, 2, pass_())
    chefs = [e for e in state["log"] if e["type"] == "chef"]
    assert chefs == [{"type": "chef", "seat": 0, "reason": "stall"}]
    assert {"type": "open", "chef": 0, "reason": "stall"} in state["log"]
    assert state["round"] == 2 and state["first"] == 0
    assert MM in state["kitchen"]


def test_only_a_full_cycle_of_quiet_passes_is_a_stall():
    state = start(2, [["salami"] * 6, ["olive"] * 6])
    state = play(state, 0, turn("salami", 6, None, "kitchen"))
    state = play(state, 1, turn("olive", 6, "red-1", "recipes"))  # 7 recipes, no topping: seat 1 passes from now
    state = play(state, 0, E.legal_moves(state, 0)[0])
    state = play(state, 1, pass_())
    assert state["quiet"] == 1 and state["phase"] == 1
    state = play(state, 0, E.legal_moves(state, 0)[0])
    assert state["quiet"] == 0, "seat 0 moved cards: the count starts again"
    state = play(state, 1, pass_())
    assert state["quiet"] == 1 and state["phase"] == 1 and state["round"] == 1


def test_decisions_only_where_the_owner_has_a_choice():
    table = {"pineapple": 0, "olive": 6, "pepper": 0, "mushroom": 0, "salami": 4}
    empty = dict.fromkeys(KINDS, 0)
    # Classic completed by the table: one way, nothing added: baked with no question.
    ways = mm.ways_to_bake("red-2", {**table, "salami": 1, "olive": 4}, empty)
    assert ways and not mm.needs_decision(ways) and mm.table_alone_bakes(ways)
    # Classic the hand can complete: asked (add or decline).
    ways = mm.ways_to_bake("green-4", {**table, "pepper": 0}, {**empty, "pepper": 1})
    assert [w[1] for w in ways] == [{"pepper": 1}] and mm.needs_decision(ways)
    # Nobody can complete it: back with no question.
    assert mm.ways_to_bake("green-4", {**table, "pepper": 0}, empty) == []
    # Monotoni with one table way only: baked, the kind named by the software.
    ways = mm.ways_to_bake("red-7", {**empty, "salami": 1, "olive": 6}, empty)
    assert [(w[0], w[1]) for w in ways] == [("olive", {})] and not mm.needs_decision(ways)
    # Monotoni, a table way and a hand way: a choice, but no decline.
    ways = mm.ways_to_bake("red-7", {**empty, "salami": 1, "olive": 6, "pepper": 5}, {**empty, "pepper": 1})
    assert [(w[0], w[1]) for w in ways] == [("olive", {}), ("pepper", {"pepper": 1})]
    assert mm.needs_decision(ways) and mm.table_alone_bakes(ways)
    # Minimale: ties are the owner's choice; a single scarcest kind the table completes is automatic.
    ways = mm.ways_to_bake("green-8", {**empty, "pepper": 1, "olive": 3, "salami": 5}, empty)
    assert [(w[0], w[1]) for w in ways] == [("olive", {})] and not mm.needs_decision(ways)
    assert mm.ways_to_bake("green-8", {**empty, "olive": 3, "salami": 5}, empty) == []  # no pepper
    assert mm.ways_to_bake("green-8", {**empty, "pepper": 4}, {**empty, "olive": 3}) == [], "no candidate kind"
    # Bombastica: 15+ uses everything; short: every choice of the shortfall from hand.
    assert mm.ways_to_bake("green-6", {**empty, "olive": 15}, empty) == [(None, {}, None)]
    ways = mm.ways_to_bake("green-6", {**empty, "olive": 13}, {**empty, "salami": 2, "pepper": 1})
    assert [w[1] for w in ways] == [{"pepper": 1, "salami": 1}, {"salami": 2}]


def test_minimale_candidates_ignore_empty_kinds_and_the_card_kind():
    card = mm.RECIPES["purple-8"]  # shows olive
    table = {"pineapple": 3, "olive": 2, "pepper": 0, "mushroom": 2, "salami": 2}
    assert mm.scarcest_kinds(card, table) == ["mushroom", "salami"]
    assert mm.scarcest_kinds(card, {**table, "olive": 1}) == ["mushroom", "salami"]
    assert mm.scarcest_kinds(card, {**table, "mushroom": 3, "salami": 3}) == ["pineapple", "mushroom", "salami"]
    assert mm.scarcest_kinds(card, dict.fromkeys(KINDS, 0) | {"olive": 5}) == []


# --- Memory, logs, need to know ------------------------------------------------------------------


def four_turns(memory):
    state = start(3, [["salami"] * 6, ["olive"] * 6, ["pepper"] * 6], memory=memory)
    for seat, topping in ((0, "salami"), (1, "olive"), (2, "pepper"), (0, "salami")):
        state = play(state, seat, turn(topping, 1))
    return state


def test_strict_memory_shows_announcements_since_the_viewers_previous_turn():
    state = four_turns("strict")
    announced = lambda seat: [e["seat"] for e in public(E.view(state, seat), "turn", "pass")]  # noqa: E731
    assert announced(0) == [0]
    assert announced(1) == [1, 2, 0]
    assert announced(2) == [2, 0]
    assert announced(None) == [1, 2, 0], "a spectator hears what some seat heard"
    assert [e["seat"] for e in public(E.view(state, 0), "drew")] == [0]
    assert public(E.view(state, 1), "round") == [{"type": "round", "round": 1, "first": 0}], "public facts stay"
    assert E.view(state, 1)["oven"] == {"size": 4, "top": "salami"}


def test_open_memory_shows_every_announcement():
    state = four_turns("open")
    for seat in (None, 0, 1, 2):
        assert [e["seat"] for e in public(E.view(state, seat), "turn")] == [0, 1, 2, 0]
    assert [e["seat"] for e in public(E.view(state, 0), "drew")] == [0, 0]
    assert [e["seat"] for e in public(E.view(state, 1), "drew")] == [1]


def test_message_codes_and_event_types_are_all_listed():
    source = Path(mm.__file__).read_text(encoding="utf-8")
    codes = set(re.findall(r'_illegal\(\s*"([a-z_]+)"', source))
    assert codes == set(mm.MESSAGES), "every code used is in MESSAGES and every listed code is used"
    types = set(re.findall(r'"type": "([a-z_]+)"', source)) - {"bake", "decline"}
    assert types == set(mm.EVENTS), "every event type logged is in EVENTS and every listed type is logged"
    for code, template in mm.MESSAGES.items():
        names = set(re.findall(r"\{(\w+)\}", template))
        assert all(name.isidentifier() for name in names), code


def variants_hiding_from(state, seat, chooser):
    """States that differ from ``state`` only in what ``seat`` may not see."""
    players = state["players"]
    others = [s for s in range(players) if s != seat]
    variant = json.loads(json.dumps(state))
    chooser.shuffle(variant["kitchen"])
    for deck in variant["decks"]:
        chooser.shuffle(deck)
    yield variant
    # Other hands and the kitchen's toppings mixed and dealt again (sizes kept); their private draws rewritten.
    variant = json.loads(json.dumps(state))
    pool = [k for k in variant["kitchen"] if k != MM]
    for other in others:
        pool += [k for k, n in variant["hands"][other]["toppings"].items() for _ in range(n)]
    chooser.shuffle(pool)
    for other in others:
        size = sum(variant["hands"][other]["toppings"].values())
        dealt = Counter(pool[:size])
        variant["hands"][other]["toppings"] = {k: dealt[k] for k in KINDS}
        pool = pool[size:]
        hidden = variant["hands"][other]["recipes"] + variant["decks"][other]
        chooser.shuffle(hidden)
        keep = len(variant["hands"][other]["recipes"])
        variant["hands"][other]["recipes"], variant["decks"][other] = hidden[:keep], hidden[keep:]
    kitchen_mm = [k for k in variant["kitchen"] if k == MM]
    variant["kitchen"] = pool + kitchen_mm
    chooser.shuffle(variant["kitchen"])
    for event in variant["log"]:
        if event["type"] == "drew" and seat not in event["only"]:
            event["toppings"] = {"salami": 99}
            event["recipes"] = ["nothing"]
    yield variant
    # Under strict memory: announcements older than the seat's window, and the oven cards they put there
    # (phase 1: below the face-up top card; phase 2: still face down, not yet revealed).
    if state["options"]["memory"] == "strict" and not state["over"]:
        variant = json.loads(json.dumps(state))
        start = mm.memory_start(state, seat)
        events = [i for i in range(state["round_start"], len(state["log"])) if state["log"][i]["type"] == "turn"]
        played = sum(state["log"][i]["count"] + (state["log"][i]["recipe"] is not None) for i in events)
        revealed = played - len(state["oven"])  # phase 1: 0
        rotate = dict(zip(KINDS, KINDS[1:] + KINDS[:1], strict=True))
        position = 0
        for index in events:
            event = variant["log"][index]
            cards = event["count"] + (event["recipe"] is not None)
            face_up_top = state["phase"] == 1 and position + cards == played
            if index < start and position >= revealed and not face_up_top:
                event["topping"] = rotate[event["topping"]]
                for at in range(position, position + event["count"]):
                    variant["oven"][at - revealed] = event["topping"]
            position += cards
        yield variant


def playout_states(players, seed, memory):
    chooser = random.Random(seed)
    state = E.setup(players, seed, {"memory": memory})
    while not E.is_over(state):
        yield state
        seat = E.waiting_for(state)[0]
        move = E.bot_move(state, seat) if chooser.random() < 0.6 else chooser.choice(E.legal_moves(state, seat))
        state = E.play(state, seat, move)
    yield state


@pytest.mark.parametrize("memory", ["strict", "open"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_need_to_know(players, memory):
    """A seat's view (log included) and its bot's move ignore everything the seat may not see."""
    chooser = random.Random(players)
    states = list(playout_states(players, 40 + players, memory))
    decisions = [state for state in states if state["phase"] == 2]
    for state in chooser.sample(states, 12) + decisions:
        for seat in [*range(players), None]:
            view = E.view(state, seat)
            for variant in variants_hiding_from(state, seat, chooser):
                assert E.view(variant, seat) == view
                if seat is not None and seat in E.waiting_for(state):
                    assert E.bot_move(variant, seat) == E.bot_move(state, seat), "the bot peeks"


def test_views_hold_the_rules_file_keys():
    state = four_turns("strict")
    for seat in (None, 0):
        view = E.view(state, seat)
        for key in (
            "seat",
            "round",
            "waiting_for",
            "scores",
            "log",
            "phase",
            "hand",
            "hand_sizes",
            "recipe_decks",
            "kitchen",
            "chef",
            "oven",
            "table",
            "baked",
            "deciding",
        ):
            assert key in view, key
        assert "seed" not in view and "rng" not in view
    assert E.view(state, None)["hand"] is None
    assert set(E.view(state, 1)["hand"]) == {"toppings", "recipes"}


# --- Conservation ------------------------------------------------------------------------------


def check_conservation(state):
    players = state["players"]
    toppings = Counter(k for k in state["kitchen"] if k != MM) + Counter(state["table"]) + Counter(state["used"])
    toppings.update(card for card in state["oven"] if card in KINDS)
    for hand in state["hands"]:
        toppings.update(hand["toppings"])
        assert mm.hand_size(hand) <= 7
    assert +toppings == Counter(mm.toppings_in_play(players)), "toppings appeared, vanished or duplicated"
    drawn = any(e["type"] == "chef" and e["reason"] == MM for e in state["log"][state["round_start"] :])
    assert state["kitchen"].count(MM) + drawn == 1, "the Mamma Mia card is in the kitchen or in front of the chef"
    recipes = [card for card in state["oven"] if card in mm.RECIPES]
    if state["deciding"]:
        recipes.append(state["deciding"]["recipe"])
    for seat in range(players):
        own = state["hands"][seat]["recipes"] + state["decks"][seat] + state["baked"][seat]
        assert all(mm.owner_of(r) == seat for r in own)
        recipes += own
    assert sorted(recipes) == sorted(r for c in mm.COLOURS[:players] for r in mm.COLOUR_RECIPES[c])


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_card_in_exactly_one_place(players):
    for seed in range(3):
        for state in playout_states(players, seed, "strict"):
            check_conservation(state)


# --- The bot -----------------------------------------------------------------------------------


def test_bot_wins_far_more_often_than_its_share_against_random_play():
    players, games, wins = 4, 40, 0
    for game in range(games):
        bot = game % players
        chooser = random.Random(game)
        state = E.setup(players, 500 + game)
        while not E.is_over(state):
            seat = E.waiting_for(state)[0]
            move = E.bot_move(state, seat) if seat == bot else chooser.choice(E.legal_moves(state, seat))
            state = E.play(state, seat, move)
        wins += E.outcome(state)[bot]["rank"] == 1
    assert wins >= games // 2, f"the bot won {wins} of {games} (fair share {games // players})"


def test_bot_bakes_with_the_fewest_cards_and_never_declines_a_bake():
    state = drain(minimale_game(), keep={3: {"salami": 1, "mushroom": 1}})
    assert E.bot_move(state, 3)["type"] == "bake"
    state = drain(completion_game(), keep={0: {"pineapple": 1}})
    assert E.bot_move(state, 0) == bake(pineapple=1)


def test_bot_plays_a_recipe_the_oven_already_holds():
    """Under open memory the bot heard 4 salami and holds pepper: it plays green-4 on top."""
    hands = [["pepper"] * 2 + ["olive"] * 4, ["salami"] * 4 + ["mushroom"] * 2]
    state = start(2, hands, memory="open", first=1, decks={0: ["green-4"]})
    state = play(state, 1, turn("salami", 4))
    move = E.bot_move(state, 0)
    assert move["recipe"] == "green-4"


def test_bot_fast_count_agrees_with_the_rules():
    """The bot's quick count of cards to add is the fewest over every way the rules allow."""
    chooser = random.Random(5)
    for _ in range(3000):
        recipe = chooser.choice(sorted(mm.RECIPES))
        table = {k: chooser.choice([0, 0, 1, 2, 3, 4, 6, 7]) for k in KINDS}
        hand = {k: chooser.choice([0, 0, 1, 2, 3]) for k in KINDS}
        ways = mm.ways_to_bake(recipe, table, hand)
        fewest = min((sum(add.values()) for _, add, _ in ways), default=None)
        assert mm.cheapest_add(recipe, table, hand) == fewest, (recipe, table, hand)
