"""こなもんっ! (Konamon!): the rules of shared/rules/konamon.md, phase by phase, plus protocol properties."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path

import pytest

from games.engines import IllegalMove, get_engine
from konamon import engine as k

engine = get_engine("konamon")
OK, TA, TK = "okonomiyaki", "taiyaki", "takoyaki"
ALL_CUSTOMERS = sorted(k.CUSTOMERS)


# Helpers --------------------------------------------------------------------------


def stacked(hands, customers=(), actions=None):
    """A complete stacked deal: the given hands, the rest of the action cards ascending (or ``actions``)."""
    used = {card for hand in hands for card in hand}
    rest = [n for n in range(1, 61) if n not in used] if actions is None else actions
    customers = list(customers) + [c for c in ALL_CUSTOMERS if c not in customers]
    return {"hands": [list(hand) for hand in hands], "actions": rest, "customers": customers}


def new_game(hands, customers=(), seed=0):
    """A game set up from a stacked deal."""
    return engine.setup(len(hands), seed, {"deal": stacked(hands, customers)})


def chips(**counts):
    """A by-product count with zeros filled in."""
    return {p: counts.get(p, 0) for p in k.PRODUCTS}


def rebalance(state):
    """Put every chip not on a board or customer into the stock (after a test moved chips by hand)."""
    for product in k.PRODUCTS:
        placed = sum(board[product] for board in state["boards"].values())
        placed += sum(c["chips"].get(product, 0) for c in state["customers"])
        assert placed <= k.CHIPS_PER_PRODUCT
        state["stock"][product] = k.CHIPS_PER_PRODUCT - placed


def set_boards(state, cooking=None, stove=None, showcase=None):
    """Set some boards (by-product dicts) and rebalance the stock."""
    for name, value in (("cooking", cooking), ("stove", stove), ("showcase", showcase)):
        if value is not None:
            state["boards"][name] = chips(**value)
    rebalance(state)


def set_track(state, *customers):
    """Put customers ``(id, mood, chips)`` on the mood track, taken from the deck or track; rebalance."""
    ids = [cid for cid, _, _ in customers]
    old = [c for c in state["customers"] if c["id"] not in ids]
    state["customer_deck"] = [c for c in state["customer_deck"] if c not in ids] + [c["id"] for c in old]
    state["customers"] = [{"id": cid, "mood": mood, "chips": dict(held)} for cid, mood, held in customers]
    rebalance(state)


def choose_all(state, picks):
    """Every seat plays its pick: a card number, or a full choose move."""
    for seat, pick in enumerate(picks):
        move = pick if isinstance(pick, dict) else {"type": "choose", "cards": [pick]}
        state = engine.play(state, seat, move)
    return state


def events(state, kind):
    return [event for event in state["log"] if event["type"] == kind]


def canon(value):
    return json.dumps(value, sort_keys=True)


def check_conservation(state):
    """Every action card, customer and chip is in exactly one place."""
    cards = [card for hand in state["hands"] for card in hand] + state["deck"] + state["discard"]
    for choice in state["chosen"]:
        if choice is not None:
            cards += choice["cards"] + ([choice["discard"]] if choice["discard"] is not None else [])
    cards += [card for card, _ in state["queue"]]
    if state["working"] is not None:
        cards.append(state["working"]["card"])
    assert sorted(cards) == list(range(1, 61))
    customers = state["customer_deck"] + [c["id"] for c in state["customers"]] + state["gone"]
    customers += [cid for taken in state["taken"] for cid in taken]
    assert sorted(customers) == ALL_CUSTOMERS
    for product in k.PRODUCTS:
        count = state["stock"][product] + sum(board[product] for board in state["boards"].values())
        count += sum(c["chips"].get(product, 0) for c in state["customers"])
        assert count == 10, product
    for board in state["boards"].values():
        assert sum(board.values()) <= 5
        assert min(board.values()) >= 0
    assert all(points >= 0 for points in state["points"])


def playout(players, seed, policy="random", check=None):
    """A whole game; ``policy`` is "random", "bot" or a set of bot seats (others random)."""
    state = engine.setup(players, seed)
    rng = random.Random(seed)
    while not engine.is_over(state):
        if check:
            check(state)
        seat = engine.waiting_for(state)[rng.randrange(len(engine.waiting_for(state)))]
        bots = set(range(players)) if policy == "bot" else (policy if isinstance(policy, set) else set())
        move = engine.bot_move(state, seat) if seat in bots else rng.choice(engine.legal_moves(state, seat))
        state = engine.play(state, seat, move)
    if check:
        check(state)
    return state


# Card data --------------------------------------------------------------------------


def test_action_cards_follow_the_pattern_table():
    patterns = {
        2: [(1, 1, 0), (1, 0, 1), (0, 1, 1)],
        3: [(1, 1, 1), (2, 1, 0), (1, 2, 0), (0, 1, 2), (1, 0, 2)],
        4: [(2, 1, 1), (1, 2, 1), (1, 1, 2)],
        5: [(2, 2, 1), (2, 1, 2), (1, 2, 2)],
    }
    assert sorted(k.ACTIONS) == list(range(1, 61))
    for n, counts in k.ACTIONS.items():
        total = 2 + (n - 1) // 15
        expected = patterns[total][(n - 1) % 15 % len(patterns[total])]
        assert (counts["prep"], counts["bake"], counts["hand_over"]) == expected
    assert k.ACTIONS[1] == {"prep": 1, "bake": 1, "hand_over": 0}
    assert k.ACTIONS[17] == {"prep": 2, "bake": 1, "hand_over": 0}
    assert k.ACTIONS[60] == {"prep": 1, "bake": 2, "hand_over": 2}


def test_customer_cards_match_the_rules_table():
    rules_file = Path(__file__).resolve().parents[3] / "shared/rules/konamon.md"
    if not rules_file.exists():
        pytest.skip("shared/rules/ is not next to this checkout")
    table = rules_file.read_text(encoding="utf-8")
    rows = re.findall(r"^\| (c\d\d) \| (.+?) / (.+?) \| (\d) \| (.+?) \| (\w+) \|$", table, re.M)
    assert len(rows) == 18
    for cid, ja, en, bonus, orders, effect in rows:
        card = k.CUSTOMERS[cid]
        # The rules give ja and en names; the data file adds the site's other languages.
        assert (card["name"]["ja"], card["name"]["en"]) == (ja, en)
        assert card["name"]["zh-hant"] and card["name"]["fr"]
        assert card["bonus"] == int(bonus)
        assert card["orders"] == orders.split(", ")
        assert card["effect"] == effect
    assert k.PRODUCTS == (OK, TA, TK)
    assert k.CHIPS_PER_PRODUCT == 10


# Set-up and options -------------------------------------------------------------------


def test_setup_places_chips_deals_hands_and_starts_round_one():
    state = engine.setup(3, 7)
    assert state["boards"] == {
        "cooking": chips(**{OK: 1, TA: 1, TK: 1}),
        "stove": chips(),
        "showcase": chips(**{OK: 1, TA: 1, TK: 1}),
    }
    assert state["stock"] == chips(**{OK: 8, TA: 8, TK: 8})
    assert [len(hand) for hand in state["hands"]] == [5, 5, 5]
    assert len(state["deck"]) == 45 and state["points"] == [0, 0, 0]
    assert state["round"] == 1 and len(state["customers"]) == 1 and len(state["customer_deck"]) == 17
    assert engine.waiting_for(state) == [0, 1, 2]
    check_conservation(state)


@pytest.mark.parametrize("players", [1, 5, 0, "3", True, 2.0])
def test_bad_player_counts(players):
    with pytest.raises(ValueError):
        engine.setup(players, 1)


def test_options_are_only_deal():
    assert engine.options == {}
    assert engine.min_players == 2 and engine.max_players == 4 and engine.slug == "konamon"
    with pytest.raises(ValueError):
        engine.setup(3, 1, {"memory": "open"})


def test_stacked_deal_is_used_exactly():
    hands = [[3, 17, 40, 41, 59], [1, 2, 4, 5, 6]]
    state = new_game(hands, customers=["c04", "c01"])
    assert state["hands"] == hands
    assert state["deck"][:3] == [7, 8, 9] and len(state["deck"]) == 50
    assert state["customers"] == [{"id": "c04", "mood": 2, "chips": {}}]  # hurry
    assert state["customer_deck"][0] == "c01"


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("customers"),
        lambda d: d.update(extra=1),
        lambda d: d["hands"].pop(),  # a hand missing
        lambda d: d["hands"][0].append(d["actions"].pop()),  # 6 cards
        lambda d: d["actions"].pop(),  # a card missing
        lambda d: d["actions"].append(1),  # a card twice
        lambda d: d["actions"].__setitem__(0, 61),  # unknown card
        lambda d: d["hands"][0].__setitem__(0, True),  # bool is no card number (True == 1)
        lambda d: d["customers"].pop(),
        lambda d: d["customers"].append("c01"),
        lambda d: d["customers"].__setitem__(0, "c99"),
        lambda d: d.__setitem__("hands", "nope"),
        lambda d: d.__setitem__("actions", None),
    ],
)
def test_stacked_deal_validation(mutate):
    deal = stacked([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])
    engine.setup(2, 0, {"deal": copy.deepcopy(deal)})  # the unchanged deal is fine
    mutate(deal)
    with pytest.raises(ValueError):
        engine.setup(2, 0, {"deal": deal})


def test_stacked_deal_must_be_a_dict():
    with pytest.raises(ValueError):
        engine.setup(2, 0, {"deal": [[1, 2, 3, 4, 5]]})


# Arrival and its effects -----------------------------------------------------------------


def test_arrival_places_the_top_customer_at_mood_3():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]], ["c01"])
    assert state["customers"] == [{"id": "c01", "mood": 3, "chips": {}}]
    assert {"type": "arrival", "customer": "c01", "mood": 3, "effect": "none"} in state["log"]


def test_nobody_arrives_when_the_customer_deck_is_empty():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])
    state["gone"] += state["customer_deck"]
    state["customer_deck"] = []
    before = copy.deepcopy(state["customers"])
    k.arrival(state)
    assert state["customers"] == before
    check_conservation(state)


@pytest.mark.parametrize("cid", ["c04", "c06", "c12"])
def test_hurry_places_the_customer_at_mood_2(cid):
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], [cid])
    assert state["customers"] == [{"id": cid, "mood": 2, "chips": {}}]
    assert events(state, "hurry") == [{"type": "hurry", "customer": cid, "mood": 2}]


def arrive(state, cid):
    """Put ``cid`` on top of the customer deck and run the arrival phase."""
    state["customer_deck"].remove(cid)
    state["customer_deck"].insert(0, cid)
    k.arrival(state)
    check_conservation(state)
    return state["customers"][-1]


def test_treat_puts_a_cooked_chip_of_the_first_order_in_the_showcase():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], ["c01"])
    arrive(state, "c07")  # orders taiyaki first
    assert state["boards"]["showcase"] == chips(**{OK: 1, TA: 2, TK: 1})
    assert state["stock"][TA] == 7
    assert events(state, "treat") == [{"type": "treat", "customer": "c07", "product": TA}]


def test_treat_needs_room_in_the_showcase_and_a_chip_in_stock():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], ["c01"])
    set_boards(state, showcase={OK: 2, TK: 3})
    arrive(state, "c16")
    assert state["boards"]["showcase"] == chips(**{OK: 2, TK: 3}) and not events(state, "treat")
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], ["c01"])
    set_track(state, ("c03", 3, {TA: 1}))
    set_boards(state, cooking={TA: 5}, stove={TA: 4}, showcase={OK: 1})  # the 10th taiyaki is on c03
    assert state["stock"][TA] == 0
    arrive(state, "c16")
    assert state["boards"]["showcase"] == chips(**{OK: 1}) and not events(state, "treat")


def test_snack_removes_a_chip_of_the_most_held_product():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], ["c01"])
    set_boards(state, showcase={OK: 1, TA: 2, TK: 2})
    arrive(state, "c08")
    assert state["boards"]["showcase"] == chips(**{OK: 1, TA: 1, TK: 2})  # tie: canonical order
    assert events(state, "snack") == [{"type": "snack", "customer": "c08", "product": TA}]
    arrive(state, "c17")
    assert state["boards"]["showcase"] == chips(**{OK: 1, TA: 1, TK: 1})


def test_snack_on_an_empty_showcase_does_nothing():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], ["c01"])
    set_boards(state, showcase={})
    arrive(state, "c08")
    assert state["boards"]["showcase"] == chips() and not events(state, "snack")


def play_round(state):
    """Every seat chooses by the bot, and the round is carried out to the next round's choice."""
    round_number = state["round"]
    while state["round"] == round_number and not engine.is_over(state):
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, engine.bot_move(state, seat))
        check_conservation(state)
    return state


@pytest.mark.parametrize("players", [3, 4])
def test_the_managers_friend_gives_every_player_a_sixth_card_in_seat_order(players):
    hands = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15], [16, 17, 18, 19, 20]][:players]
    drawn = [58, 57, 56, 55][:players]
    dealt = {card for hand in hands for card in hand} | set(drawn)
    state = new_game_with_actions(hands, ["c09"], [*drawn, *(n for n in range(1, 61) if n not in dealt)])
    check_conservation(state)
    assert state["hands"] == [sorted([*hand, card]) for hand, card in zip(hands, drawn, strict=True)]
    assert [(e["seat"], e["count"]) for e in events(state, "draw")] == [(seat, 1) for seat in range(players)]
    assert events(state, "drew") == [
        {"type": "drew", "seat": seat, "cards": [card], "only": [seat]} for seat, card in enumerate(drawn)
    ]
    assert engine.view(state, 1)["hand_sizes"] == [6] * players
    for seat in range(players):
        moves = engine.legal_moves(state, seat)
        assert moves == [{"type": "choose", "cards": [card]} for card in state["hands"][seat]], "6 choices"
        assert all(engine.play(state, seat, move) for move in moves)
        assert engine.bot_move(state, seat) in moves
    state = play_round(state)
    assert state["round"] == 2
    assert [len(hand) for hand in state["hands"]] == [5] * players, "hands are back to 5"
    refill_draws = [e for e in state["log"][state["log"].index({"type": "round", "round": 2}) :] if e["type"] == "draw"]
    assert not refill_draws and sum(e["type"] == "draw" for e in state["log"]) == players, "the refill drew nothing"


def test_the_managers_friend_with_two_players_pairs_from_six_cards_or_one_and_a_discard():
    hands = [[40, 45, 50, 55, 60], [46, 47, 48, 49, 59]]
    rest = [n for n in range(1, 61) if n not in {40, 45, 50, 55, 60, 46, 47, 48, 49, 59, 58, 57, 1, 2}]
    state = new_game_with_actions(hands, ["c09"], [58, 57, 1, 2, *rest])
    assert state["hands"] == [[40, 45, 50, 55, 58, 60], [46, 47, 48, 49, 57, 59]]
    assert engine.legal_moves(state, 0) == [
        {"type": "choose", "cards": [40, 45], "discard": None},
        {"type": "choose", "cards": [40, 50], "discard": None},
    ]
    alone = engine.legal_moves(state, 1)
    assert len(alone) == 6 * 5, "each of the 6 cards with each of the other 5 as the discard"
    assert {"type": "choose", "cards": [57], "discard": 46} in alone
    with pytest.raises(IllegalMove) as error:
        engine.play(state, 0, {"type": "choose", "cards": [58], "discard": 60})
    assert error.value.code == "must_play_pair"
    for seat in (0, 1):
        assert engine.bot_move(state, seat) in engine.legal_moves(state, seat)
    state = choose_all(
        state,
        [{"type": "choose", "cards": [40, 50], "discard": None}, {"type": "choose", "cards": [57], "discard": 59}],
    )
    state = play_round(state)
    assert state["round"] == 2 and [len(hand) for hand in state["hands"]] == [5, 5], "the refill tops up to 5"
    assert state["hands"] == [[1, 45, 55, 58, 60], [2, 46, 47, 48, 49]]


def new_game_with_actions(hands, customers, actions):
    return engine.setup(len(hands), 0, {"deal": stacked(hands, customers, actions=actions)})


def test_the_refill_leaves_a_hand_above_five_as_it_is():
    state = new_game(THREE, ["c01"])
    state["hands"][1] = [5, 35, 36, 37, 38, 43]
    state["deck"].remove(43)
    state["hands"][0] = [3, 10, 31, 32]
    state["discard"].append(33)
    top = state["deck"][0]
    k.refill(state)
    assert state["hands"][1] == [5, 35, 36, 37, 38, 43] and state["hands"][0] == sorted([3, 10, 31, 32, top])
    assert [(e["seat"], e["count"]) for e in events(state, "draw")] == [(0, 1)]
    check_conservation(state)


def test_bots_and_random_players_finish_games_where_the_managers_friend_comes_early():
    for players in (2, 3, 4):
        for seed in range(4):
            customers = ["c09"] + [c for c in ALL_CUSTOMERS if c != "c09"]
            random.Random(seed).shuffle(customers[1:])
            deal = {
                "hands": [list(range(1 + 5 * s, 6 + 5 * s)) for s in range(players)],
                "actions": random.Random(seed).sample(range(1 + 5 * players, 61), 60 - 5 * players),
                "customers": customers,
            }
            state = engine.setup(players, seed, {"deal": deal})
            assert [len(hand) for hand in state["hands"]] == [6] * players
            chooser = random.Random(seed)
            while not engine.is_over(state):
                seat = engine.waiting_for(state)[0]
                moves = engine.legal_moves(state, seat)
                state = engine.play(state, seat, engine.bot_move(state, seat) if seat == 0 else chooser.choice(moves))
                assert all(len(hand) <= 6 for hand in state["hands"])
            check_conservation(state)


def test_critic_takes_one_point_from_every_leader_never_below_zero():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]], ["c01"])
    state["points"] = [4, 4, 2]
    arrive(state, "c10")
    assert state["points"] == [3, 3, 2]
    assert [(e["seat"], e["points"], e["cause"]) for e in events(state, "penalty")] == [
        (0, 1, "critic"),
        (1, 1, "critic"),
    ]
    state["points"] = [0, 0, 0]
    arrive(state, "c18")
    assert state["points"] == [0, 0, 0]


def test_none_effect_changes_nothing_but_the_track():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]], ["c01"])
    before = copy.deepcopy(state)
    arrive(state, "c13")
    assert state["customers"][-1] == {"id": "c13", "mood": 3, "chips": {}}
    for key in ("boards", "stock", "hands", "points", "deck"):
        assert state[key] == before[key]


# Choosing ----------------------------------------------------------------------------------


def test_everyone_chooses_at_once_and_a_chosen_seat_no_longer_waits():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]])
    assert engine.legal_moves(state, 1) == [{"type": "choose", "cards": [n]} for n in [6, 7, 8, 9, 10]]
    state = engine.play(state, 1, {"type": "choose", "cards": [8]})
    assert engine.waiting_for(state) == [0, 2]
    assert engine.legal_moves(state, 1) == []
    with pytest.raises(IllegalMove) as error:
        engine.play(state, 1, {"type": "choose", "cards": [9]})
    assert error.value.code == "not_your_turn"
    state = engine.play(state, 2, {"type": "choose", "cards": [15]})
    assert engine.waiting_for(state) == [0]


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"type": "choose", "cards": [6]}, "not_in_hand"),
        ({"type": "choose", "cards": [1, 2]}, "bad_cards"),
        ({"type": "choose", "cards": []}, "bad_cards"),
        ({"type": "choose", "cards": 1}, "bad_cards"),
        ({"type": "choose", "cards": [True]}, "not_in_hand"),
        ({"type": "choose", "cards": [1.0]}, "not_in_hand"),
        ({"type": "choose", "cards": [1], "discard": None}, "bad_keys"),
        ({"type": "choose"}, "bad_keys"),
        ({"type": "prep", "product": OK}, "unexpected_move"),
        ({"cards": [1]}, "bad_move"),
        ("choose", "bad_move"),
    ],
)
def test_illegal_choices_three_players(move, code):
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]])
    with pytest.raises(IllegalMove) as error:
        engine.play(state, 0, move)
    assert error.value.code == code
    assert error.value.message == k.MESSAGES[code].format(**error.value.params)


def test_two_players_play_pairs_to_90_in_ascending_order():
    state = new_game([[40, 45, 50, 55, 60], [46, 47, 48, 49, 59]])
    assert engine.legal_moves(state, 0) == [
        {"type": "choose", "cards": [40, 45], "discard": None},
        {"type": "choose", "cards": [40, 50], "discard": None},
    ]
    state = engine.play(state, 0, {"type": "choose", "cards": [40, 50], "discard": None})
    assert state["hands"][0] == [45, 55, 60]


def test_two_players_without_a_pair_play_one_card_and_discard_one():
    state = new_game([[40, 45, 50, 55, 60], [46, 47, 48, 49, 59]])
    moves = engine.legal_moves(state, 1)
    assert len(moves) == 20
    assert {"type": "choose", "cards": [46], "discard": 59} in moves
    assert all(len(m["cards"]) == 1 and m["discard"] not in m["cards"] for m in moves)
    state = engine.play(state, 1, {"type": "choose", "cards": [46], "discard": 59})
    assert state["discard"] == []  # still face down
    assert {"type": "choice_discard", "seat": 1, "card": 59, "only": [1]} in engine.view(state, 1)["log"]
    assert not [e for e in engine.view(state, 0)["log"] if e["type"].startswith("choice")]
    state = engine.play(state, 0, {"type": "choose", "cards": [40, 50], "discard": None})
    assert state["played"] == [[40, 50], [46]]
    assert state["discard"][0] == 59
    assert {"type": "discard", "seat": 1, "card": 59} in engine.view(state, 0)["log"]
    assert state["working"]["card"] == 40
    assert [card for card, _ in state["queue"]] == [46, 50]
    check_conservation(state)


@pytest.mark.parametrize(
    ("seat", "move", "code"),
    [
        (0, {"type": "choose", "cards": [45, 40], "discard": None}, "not_ascending"),
        (0, {"type": "choose", "cards": [45, 50], "discard": None}, "pair_over_90"),
        (0, {"type": "choose", "cards": [40, 40], "discard": None}, "same_card"),
        (0, {"type": "choose", "cards": [40], "discard": 60}, "must_play_pair"),
        (0, {"type": "choose", "cards": [40, 45], "discard": 60}, "discard_with_pair"),
        (0, {"type": "choose", "cards": [40, 45]}, "bad_keys"),
        (0, {"type": "choose", "cards": [40, 45, 50], "discard": None}, "bad_cards"),
        (1, {"type": "choose", "cards": [46, 47], "discard": None}, "pair_over_90"),
        (1, {"type": "choose", "cards": [46], "discard": None}, "discard_required"),
        (1, {"type": "choose", "cards": [46], "discard": 46}, "same_card"),
        (1, {"type": "choose", "cards": [46], "discard": 40}, "not_in_hand"),
        (1, {"type": "choose", "cards": [46], "discard": "59"}, "not_in_hand"),
    ],
)
def test_illegal_choices_two_players(seat, move, code):
    state = new_game([[40, 45, 50, 55, 60], [46, 47, 48, 49, 59]])
    with pytest.raises(IllegalMove) as error:
        engine.play(state, seat, move)
    assert error.value.code == code


def test_pair_exactly_90_is_allowed():
    state = new_game([[40, 50, 51, 55, 60], [46, 47, 48, 49, 59]])
    assert engine.legal_moves(state, 0) == [{"type": "choose", "cards": [40, 50], "discard": None}]


def test_two_player_cards_are_carried_out_interleaved_by_number():
    state = new_game([[1, 50, 51, 55, 60], [2, 47, 48, 49, 59]])
    state = choose_all(
        state,
        [{"type": "choose", "cards": [1, 50], "discard": None}, {"type": "choose", "cards": [2, 47], "discard": None}],
    )
    while state["round"] == 1:
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, engine.bot_move(state, seat))
    assert [e["card"] for e in state["log"] if e["type"] == "card"] == [1, 2, 47, 50]


# Need to know --------------------------------------------------------------------------------


def test_a_choice_stays_secret_until_everyone_has_chosen():
    hands = [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]]
    views = {}
    for card in hands[0]:
        state = engine.play(new_game(hands), 0, {"type": "choose", "cards": [card]})
        for seat in (1, 2, None):
            views.setdefault(seat, set()).add(canon(engine.view(state, seat)))
        own = engine.view(state, 0)
        assert own["choice"] == {"cards": [card], "discard": None}
        assert own["played"] == [None, None, None] and own["chosen"] == [True, False, False]
        assert card not in own["hand"]
    assert all(len(seen) == 1 for seen in views.values())


def test_a_two_player_choice_and_discard_stay_secret():
    hands = [[40, 45, 50, 55, 60], [46, 47, 48, 49, 59]]
    seen = set()
    for move in engine.legal_moves(new_game(hands), 1):
        state = engine.play(new_game(hands), 1, move)
        seen.add(canon(engine.view(state, 0)))
    assert len(seen) == 1


def test_hands_and_deck_order_are_hidden():
    a = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])
    b = engine.setup(
        2,
        0,
        {
            "deal": stacked(
                [[1, 2, 3, 4, 5], [30, 31, 32, 33, 34]], actions=[n for n in range(60, 5, -1) if n not in range(30, 35)]
            )
        },
    )
    assert canon(engine.view(a, 0)) == canon(engine.view(b, 0))
    assert canon(engine.view(a, None)) == canon(engine.view(b, None))
    assert canon(engine.view(a, 1)) != canon(engine.view(b, 1))
    view = engine.view(a, None)
    assert view["hand"] is None and view["choice"] is None
    assert not [event for event in view["log"] if "only" in event]


def test_view_has_the_documented_keys():
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]], ["c04"])
    view = engine.view(state, 1)
    keys = "seat round waiting_for scores log hand hand_sizes boards stock customers customer_deck taken played working"
    for key in keys.split() + ["chosen", "choice", "discard_pile", "action_deck", "unload", "queue", "phase"]:
        assert key in view, key
    assert view["seat"] == 1 and view["round"] == 1 and view["hand"] == [6, 7, 8, 9, 10]
    assert view["hand_sizes"] == [5, 5, 5] and view["scores"] == [0, 0, 0]
    assert view["boards"]["showcase"] == chips(**{OK: 1, TA: 1, TK: 1})
    assert view["customers"][0]["id"] == "c04" and view["customers"][0]["mood"] == 2
    assert view["customers"][0]["chips"] == {} and view["customers"][0]["missing"] == {TK: 1}
    assert view["customer_deck"] == 17 and view["action_deck"] == 45
    assert view["taken"] == [[], [], []] and view["played"] == [None, None, None] and view["working"] is None
    json.dumps(view)


# Carrying out cards ----------------------------------------------------------------------------


THREE = [[3, 10, 31, 32, 33], [5, 35, 36, 37, 38], [20, 39, 40, 41, 42]]


def test_cards_are_carried_out_in_ascending_number_one_step_per_move():
    state = choose_all(new_game(THREE, ["c01"]), [10, 5, 20])
    # card 5 (prep 1, bake 0, hand over 1) of seat 1 comes first
    assert engine.waiting_for(state) == [1]
    assert state["working"] == {"seat": 1, "card": 5, "process": "prep", "left": {"prep": 1, "bake": 0, "hand_over": 1}}
    assert engine.view(state, None)["working"] == state["working"]
    assert engine.view(state, 0)["played"] == [[10], [5], [20]]
    assert engine.legal_moves(state, 1) == [
        {"type": "prep", "product": OK},
        {"type": "prep", "product": TA},
        {"type": "prep", "product": TK},
        {"type": "next"},
    ]
    state = engine.play(state, 1, {"type": "prep", "product": TK})
    assert state["points"] == [0, 1, 0] and state["boards"]["cooking"][TK] == 2
    assert state["working"]["process"] == "hand_over"  # bake has count 0
    assert engine.legal_moves(state, 1) == [{"type": "hand_over", "product": TK, "customer": "c01"}, {"type": "next"}]
    state = engine.play(state, 1, {"type": "hand_over", "product": TK, "customer": "c01"})
    assert state["points"] == [0, 2, 0] and state["customers"][0]["chips"] == {TK: 1}
    # card 10 (prep 1, bake 1) of seat 0: end prep early, then bake
    assert state["working"]["card"] == 10 and engine.waiting_for(state) == [0]
    state = engine.play(state, 0, {"type": "next"})
    assert state["points"][0] == 0 and state["working"]["process"] == "bake"
    assert engine.legal_moves(state, 0) == [
        {"type": "bake", "product": OK},
        {"type": "bake", "product": TA},
        {"type": "bake", "product": TK},
        {"type": "next"},
    ]
    state = engine.play(state, 0, {"type": "bake", "product": OK})
    # card 20 (prep 1, hand over 2) of seat 2: prep, then nothing matches c01's open order
    assert state["working"]["card"] == 20 and engine.waiting_for(state) == [2]
    state = engine.play(state, 2, {"type": "prep", "product": TA})
    assert {"type": "blocked", "seat": 2, "process": "hand_over", "unused": 2} in state["log"]
    # out of the stove by seat 2 (the last actor), mood, refill, round 2
    assert state["round"] == 2 and state["points"] == [1, 2, 1]
    assert {"type": "unload", "seat": 2, "keep": [OK], "back": []} in state["log"]
    assert state["boards"] == {
        "cooking": chips(**{TA: 2, TK: 2}),
        "stove": chips(),
        "showcase": chips(**{OK: 2, TA: 1}),
    }
    assert state["customers"][0] == {"id": "c01", "mood": 2, "chips": {TK: 1}}
    assert state["discard"] == [5, 10, 20] and [len(h) for h in state["hands"]] == [5, 5, 5]
    check_conservation(state)


def test_a_card_with_nothing_possible_is_done_without_asking():
    state = new_game(THREE, ["c01"])
    set_boards(state, cooking={}, showcase={})
    state = choose_all(state, [3, 35, 39])  # card 3: bake 1, hand over 1 — nothing to bake or hand over
    log = [e["type"] for e in state["log"]]
    start = log.index("card")
    assert state["log"][start]["card"] == 3 and log[start + 1 : start + 4] == ["blocked", "blocked", "done"]
    assert state["working"]["card"] == 35 and engine.waiting_for(state) == [1]
    assert state["points"] == [0, 0, 0]


def test_a_step_that_fills_the_cooking_board_ends_prep():
    state = new_game([[17, 31, 32, 33, 34], [35, 36, 37, 38, 39], [40, 41, 42, 43, 44]], ["c01"])
    set_boards(state, cooking={OK: 2, TA: 2})
    state = choose_all(state, [17, 35, 40])  # card 17: prep 2, bake 1
    state = engine.play(state, 0, {"type": "prep", "product": TK})
    assert state["boards"]["cooking"] == chips(**{OK: 2, TA: 2, TK: 1})
    assert state["working"]["process"] == "bake" and state["points"][0] == 1
    assert {"type": "blocked", "seat": 0, "process": "prep", "unused": 1} in state["log"]


def test_no_prep_on_a_full_cooking_board_no_bake_on_a_full_stove():
    state = new_game([[17, 31, 32, 33, 34], [35, 36, 37, 38, 39], [40, 41, 42, 43, 44]], ["c01"])
    set_boards(state, cooking={OK: 3, TA: 2}, stove={TK: 5}, showcase={TK: 2})
    state = choose_all(state, [17, 35, 40])
    # card 17 (prep 2, bake 1) can neither prep (cooking full) nor bake (stove full): done without asking
    assert {"type": "blocked", "seat": 0, "process": "prep", "unused": 2} in state["log"]
    assert {"type": "blocked", "seat": 0, "process": "bake", "unused": 1} in state["log"]
    # card 35 (prep 1, bake 2, hand over 1) can only hand over
    assert state["working"] == {
        "seat": 1,
        "card": 35,
        "process": "hand_over",
        "left": {"prep": 0, "bake": 0, "hand_over": 1},
    }
    assert state["points"] == [0, 0, 0] and engine.waiting_for(state) == [1]


def test_prep_needs_the_product_in_stock():
    state = new_game([[17, 31, 32, 33, 34], [35, 36, 37, 38, 39], [40, 41, 42, 43, 44]], ["c01"])
    set_track(state, ("c14", 3, {OK: 1}))
    set_boards(state, cooking={}, stove={OK: 5}, showcase={OK: 4})
    assert state["stock"][OK] == 0
    state = choose_all(state, [17, 35, 40])
    assert engine.legal_moves(state, 0) == [
        {"type": "prep", "product": TA},
        {"type": "prep", "product": TK},
        {"type": "next"},
    ]
    with pytest.raises(IllegalMove) as error:
        engine.play(state, 0, {"type": "prep", "product": OK})
    assert error.value.code == "stock_empty"


def test_hand_over_moves_per_product_and_customer_whose_order_lacks_it():
    state = new_game(THREE, ["c01"])
    set_track(state, ("c01", 3, {}), ("c07", 2, {}), ("c05", 1, {OK: 2}))
    state = choose_all(state, [3, 35, 39])  # card 3: bake 1 then hand over 1
    state = engine.play(state, 0, {"type": "next"})
    assert engine.legal_moves(state, 0) == [
        {"type": "hand_over", "product": OK, "customer": "c07"},
        {"type": "hand_over", "product": TA, "customer": "c07"},
        {"type": "hand_over", "product": TK, "customer": "c01"},
        {"type": "hand_over", "product": TK, "customer": "c05"},
        {"type": "next"},
    ]


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ({"type": "hand_over", "product": OK, "customer": "c01"}, "not_ordered"),
        ({"type": "hand_over", "product": OK, "customer": "c05"}, "not_ordered"),
        ({"type": "hand_over", "product": OK, "customer": "c09"}, "customer_absent"),
        ({"type": "hand_over", "product": OK, "customer": 7}, "customer_absent"),
        ({"type": "hand_over", "product": "pizza", "customer": "c07"}, "unknown_product"),
        ({"type": "hand_over", "product": OK}, "bad_keys"),
        ({"type": "prep", "product": OK}, "not_current_process"),
        ({"type": "next", "now": True}, "bad_keys"),
        ({"type": "choose", "cards": [31]}, "unexpected_move"),
        ({"type": "unload", "keep": []}, "unexpected_move"),
    ],
)
def test_illegal_hand_overs(move, code):
    state = new_game(THREE, ["c01"])
    set_track(state, ("c01", 3, {}), ("c07", 2, {}), ("c05", 1, {OK: 2}))
    set_boards(state, showcase={OK: 1, TK: 1})
    state = choose_all(state, [3, 35, 39])
    state = engine.play(state, 0, {"type": "next"})
    assert state["working"]["process"] == "hand_over"
    with pytest.raises(IllegalMove) as error:
        engine.play(state, 0, move)
    assert error.value.code == code


def test_illegal_bakes():
    state = new_game(THREE, ["c01"])
    set_boards(state, cooking={TA: 1})
    state = choose_all(state, [3, 35, 39])
    with pytest.raises(IllegalMove) as error:
        engine.play(state, 0, {"type": "bake", "product": OK})
    assert error.value.code == "cooking_lacks"
    set_boards(state, showcase={})
    with pytest.raises(IllegalMove) as error:
        engine.play(state, 0, {"type": "hand_over", "product": OK, "customer": "c01"})
    assert error.value.code == "not_current_process"


def test_completing_an_order_takes_the_customer_and_its_bonus():
    state = new_game(THREE, ["c05"])
    set_track(state, ("c05", 1, {OK: 2, TK: 1}), ("c04", 2, {}))
    set_boards(state, showcase={TK: 1, TA: 1})
    state = choose_all(state, [3, 35, 39])
    state = engine.play(state, 0, {"type": "next"})
    state = engine.play(state, 0, {"type": "hand_over", "product": TK, "customer": "c05"})
    assert state["points"][0] == 1 + 4
    assert state["taken"][0] == ["c05"]
    assert [c["id"] for c in state["customers"]] == ["c04"]
    assert state["stock"][OK] == 9 and state["stock"][TK] == 9  # c05's chips went back (cooking holds one each)
    assert {"type": "take", "seat": 0, "customer": "c05", "bonus": 4} in state["log"]
    check_conservation(state)


# Out of the stove ---------------------------------------------------------------------------------


def unload_state(stove, showcase, seat=1):
    state = new_game(THREE, ["c01"])
    set_boards(state, stove=stove, showcase=showcase)
    state["last_actor"] = seat
    k.out_of_stove(state)
    return state


def test_the_stove_goes_to_the_showcase_when_it_fits():
    state = unload_state({OK: 1, TK: 1}, {OK: 1, TA: 1, TK: 1})
    assert state["boards"]["showcase"] == chips(**{OK: 2, TA: 1, TK: 2}) and state["boards"]["stove"] == chips()
    assert state["round"] == 2 and state["phase"] == "choose"


def test_an_overflowing_stove_lets_the_last_actor_choose_what_to_keep():
    state = unload_state({OK: 2, TA: 1, TK: 1}, {OK: 1, TA: 1, TK: 1}, seat=1)
    assert state["phase"] == "unload" and engine.waiting_for(state) == [1]
    assert engine.view(state, 0)["unload"] == {"seat": 1, "room": 2}
    assert engine.legal_moves(state, 1) == [
        {"type": "unload", "keep": keep} for keep in ([OK, OK], [OK, TA], [OK, TK], [TA, TK])
    ]
    assert engine.legal_moves(state, 0) == []
    for move, code in [
        ({"type": "unload", "keep": [OK]}, "keep_count"),
        ({"type": "unload", "keep": [TA, OK]}, "keep_order"),
        ({"type": "unload", "keep": [TK, TK]}, "keep_not_on_stove"),
        ({"type": "unload", "keep": [OK, "pizza"]}, "unknown_product"),
        ({"type": "unload", "keep": "okonomiyaki"}, "keep_count"),
        ({"type": "unload"}, "bad_keys"),
        ({"type": "next"}, "unexpected_move"),
    ]:
        with pytest.raises(IllegalMove) as error:
            engine.play(state, 1, move)
        assert error.value.code == code, move
    after = engine.play(state, 1, {"type": "unload", "keep": [OK, TK]})
    assert after["boards"]["showcase"] == chips(**{OK: 2, TA: 1, TK: 2})
    assert after["boards"]["stove"] == chips()
    assert after["stock"] == chips(**{OK: 7, TA: 8, TK: 7})  # cooking holds one each
    assert {"type": "unload", "seat": 1, "keep": [OK, TK], "back": [OK, TA]} in after["log"]
    assert after["round"] == 2
    check_conservation(after)


def test_a_forced_unload_is_not_asked():
    state = unload_state({TK: 3}, {OK: 2, TA: 1})
    assert state["phase"] == "choose" and state["boards"]["showcase"] == chips(**{OK: 2, TA: 1, TK: 2})
    state = unload_state({OK: 1, TK: 3}, {OK: 2, TA: 3})
    assert state["phase"] == "choose" and state["boards"]["showcase"] == chips(**{OK: 2, TA: 3})
    assert {"type": "unload", "seat": 1, "keep": [], "back": [OK, TK, TK, TK]} in state["log"]


def test_the_last_actor_is_the_owner_of_the_highest_card():
    state = new_game(THREE, ["c01"])
    set_boards(state, stove={OK: 2, TA: 2}, showcase={OK: 1, TA: 1, TK: 1})
    state = choose_all(state, [31, 5, 20])  # seat 0's card 31 comes last
    while state["phase"] == "act":
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, engine.bot_move(state, seat))
    assert state["phase"] == "unload" and engine.waiting_for(state) == [0]


# Mood --------------------------------------------------------------------------------------------


def test_a_customer_at_mood_0_leaves_and_tied_leaders_lose_its_bonus():
    state = new_game(THREE, ["c01"])
    set_track(state, ("c05", 0, {OK: 1}), ("c01", 1, {}), ("c07", 3, {TA: 1}))
    state["points"] = [6, 6, 3]
    k.mood(state)
    assert state["gone"] == ["c05"]
    assert state["points"] == [2, 2, 3]
    assert [(c["id"], c["mood"]) for c in state["customers"]] == [("c01", 0), ("c07", 2)]
    assert events(state, "leave") == [{"type": "leave", "customer": "c05", "bonus": 4}]
    assert [(e["seat"], e["points"], e["cause"]) for e in events(state, "penalty")] == [(0, 4, "mood"), (1, 4, "mood")]
    check_conservation(state)


def test_the_mood_penalty_stops_at_zero_and_adds_up_the_bonuses():
    state = new_game(THREE, ["c01"])
    set_track(state, ("c05", 0, {}), ("c06", 0, {TK: 2}))
    state["points"] = [1, 7, 0]
    k.mood(state)
    assert state["points"] == [1, 0, 0]  # 4 + 5 off the leader, floored at 0
    assert state["stock"][TK] == 8 and state["customers"] == []


def test_leaving_customers_through_a_played_round():
    state = new_game(THREE, ["c13"])
    for _ in range(4):  # c13 arrives at 3 and leaves in round 4 unless served
        assert state["customers"][0]["id"] == "c13"
        state = choose_all(state, [min(hand) for hand in state["hands"]])
        while state["phase"] != "choose":
            seat = engine.waiting_for(state)[0]
            move = next(m for m in engine.legal_moves(state, seat) if m["type"] in ("next", "unload"))
            state = engine.play(state, seat, move)
    assert "c13" in state["gone"]
    check_conservation(state)


# Refill, reshuffle, end ---------------------------------------------------------------------------


def test_refill_draws_up_to_five_in_seat_order():
    state = new_game(THREE, ["c01"])
    state["hands"][0] = [3, 10]
    state["hands"][2] = [20, 39, 40, 41]
    state["discard"] += [31, 32, 33, 42]
    top = state["deck"][:4]
    k.refill(state)
    assert state["hands"][0] == sorted([3, 10, *top[:3]]) and state["hands"][2] == sorted([20, 39, 40, 41, top[3]])
    assert [(e["seat"], e["count"]) for e in events(state, "draw")] == [(0, 3), (2, 1)]
    check_conservation(state)


def test_an_empty_deck_is_refilled_from_the_shuffled_discard_pile():
    state = new_game(THREE, ["c01"])
    state["discard"] = state["deck"][2:]
    state["deck"] = state["deck"][:2]
    state["hands"][1] = [5, 35]
    state["discard"] += [36, 37, 38]
    twin = copy.deepcopy(state)
    k.refill(state)
    k.refill(twin)
    assert state == twin  # the shuffle comes from the seed
    assert len(state["hands"][1]) == 5 and events(state, "reshuffle") == [{"type": "reshuffle", "cards": 46}]
    assert state["discard"] == [] and len(state["deck"]) == 45
    check_conservation(state)


def test_the_game_ends_after_a_refill_with_no_customer_left():
    state = new_game(THREE, ["c01"])
    state["gone"] += state["customer_deck"]
    state["customer_deck"] = []
    state["customers"][0]["mood"] = 0
    state = choose_all(state, [10, 5, 20])
    while not engine.is_over(state):
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, next(m for m in engine.legal_moves(state, seat) if m["type"] != "hand_over"))
    assert engine.waiting_for(state) == [] and state["round"] == 1
    assert events(state, "end")
    with pytest.raises(IllegalMove) as error:
        engine.play(state, 0, {"type": "choose", "cards": [31]})
    assert error.value.code == "game_over"
    assert engine.legal_moves(state, 0) == []


def test_the_game_goes_on_while_a_customer_waits():
    state = new_game(THREE, ["c01"])
    state["gone"] += state["customer_deck"]
    state["customer_deck"] = []
    state = choose_all(state, [10, 5, 20])
    while state["round"] == 1:
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, next(m for m in engine.legal_moves(state, seat) if m["type"] != "hand_over"))
    assert not engine.is_over(state) and state["customers"][0]["mood"] == 2


def finished(points, taken):
    state = new_game([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [11, 12, 13, 14, 15]][: len(points)])
    state["points"] = points
    state["taken"] = taken
    state["phase"] = "over"
    return state


def test_most_points_wins_then_most_customers_taken():
    state = finished([10, 10, 12], [["c01"], ["c02", "c03"], []])
    assert engine.outcome(state) == [
        {"seat": 0, "rank": 3, "score": 10},
        {"seat": 1, "rank": 2, "score": 10},
        {"seat": 2, "rank": 1, "score": 12},
    ]


def test_players_still_tied_share_the_win():
    state = finished([9, 9, 4], [["c01"], ["c02"], ["c03", "c04"]])
    assert [r["rank"] for r in engine.outcome(state)] == [1, 1, 3]


def test_outcome_before_the_end_is_refused():
    with pytest.raises(ValueError):
        engine.outcome(new_game(THREE))


# Whole games: conservation, completeness, logs, determinism, purity -------------------------------


GARBAGE = [
    None,
    [],
    "next",
    {},
    {"type": None},
    {"type": "pass"},
    {"type": "choose", "cards": [True]},
    {"type": "choose", "cards": [1.0], "discard": None},
    {"type": "prep", "product": ["takoyaki"]},
    {"type": "bake", "product": None},
    {"type": "hand_over", "product": TK, "customer": ["c01"]},
    {"type": "unload", "keep": None},
    {"type": "unload", "keep": [TK, TK, TK, TK, TK, TK]},
    {"type": "next", "x": 1},
]


def mutations(move, state):
    """Variants of a legal move: extra key, missing key, other values."""
    yield {**move, "extra": 1}
    for key in move:
        if key != "type":
            yield {name: value for name, value in move.items() if name != key}
    if "cards" in move:
        other = [card for hand in state["hands"] for card in hand][:1] + state["deck"][:1]
        yield {**move, "cards": move["cards"][::-1]}
        for card in other:
            yield {**move, "cards": [card, *move["cards"][1:]]}
    if "product" in move:
        for product in (*k.PRODUCTS, "pizza"):
            yield {**move, "product": product}
    if "customer" in move:
        for cid in ("c01", "c10", "c18"):
            yield {**move, "customer": cid}
    if "keep" in move:
        yield {**move, "keep": move["keep"][::-1]}
        yield {**move, "keep": [*move["keep"], TK]}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_playouts_conserve_everything_and_accept_exactly_the_legal_moves(players):
    seen_types, seen_phases, counter = set(), set(), iter(range(10**6))

    def check(state):
        check_conservation(state)
        seen_phases.add(state["phase"])
        if state["phase"] != "unload" and next(counter) % 3:
            return  # the full check on every third state (and every unload) keeps the test quick
        for seat in range(players):
            legal = engine.legal_moves(state, seat)
            assert bool(legal) == (seat in engine.waiting_for(state))
            legal_set = {canon(m) for m in legal}
            assert len(legal_set) == len(legal)
            if not legal:
                continue
            for move in legal:
                engine.play(state, seat, move)
            for move in [*GARBAGE, *(m for legal_move in legal for m in mutations(legal_move, state))]:
                try:
                    engine.play(state, seat, move)
                    accepted = True
                except IllegalMove as error:
                    assert error.code in k.MESSAGES
                    assert error.message == k.MESSAGES[error.code].format(**error.params)
                    accepted = False
                assert accepted == (canon(move) in legal_set), move

    for seed in range(2):
        state = playout(players, seed, check=check)
        assert engine.is_over(state) and engine.waiting_for(state) == []
        for seat in [*range(players), None]:
            for event in engine.view(state, seat)["log"]:
                seen_types.add(event["type"])
                assert k.EVENTS[event["type"]].format(**event)
                assert "only" not in event or event["only"] == [seat]
        outcome = engine.outcome(state)
        assert [r["seat"] for r in outcome] == list(range(players))
        assert [r["score"] for r in outcome] == state["points"]
    played_types = (
        "round arrival chose reveal card done draw prep bake hand_over next blocked unload take leave penalty end"
    )
    assert set(played_types.split()) <= seen_types
    assert seen_phases == {"choose", "act", "unload", "over"}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bot_playouts_conserve_everything(players):
    for seed in range(5):
        playout(players, 100 + seed, policy="bot", check=check_conservation)


def test_every_message_code_is_used_and_every_event_type_is_documented():
    source = Path(k.__file__).read_text(encoding="utf-8")
    assert set(re.findall(r'_illegal\("(\w+)"', source)) == set(k.MESSAGES)
    logged = set(re.findall(r'log\(state, "(\w+)"', source))
    assert logged == set(k.EVENTS)


def test_same_seed_and_moves_give_the_same_game():
    a = playout(3, 11, policy="bot")
    b = playout(3, 11, policy="bot")
    assert canon(a) == canon(b)
    assert canon(engine.view(a, 1)) == canon(engine.view(b, 1))
    assert canon(playout(3, 12, policy="bot")) != canon(a)


def test_a_json_round_trip_plays_the_same():
    state = engine.setup(4, 5)
    rng = random.Random(5)
    while not engine.is_over(state):
        twin = json.loads(json.dumps(state))
        seat = engine.waiting_for(state)[0]
        move = rng.choice(engine.legal_moves(state, seat))
        assert engine.bot_move(twin, seat) == engine.bot_move(state, seat)
        state, twin = engine.play(state, seat, move), engine.play(twin, seat, move)
        assert canon(state) == canon(twin)


def test_play_view_legal_moves_and_bot_move_change_nothing():
    state = engine.setup(2, 3)
    rng = random.Random(3)
    while not engine.is_over(state):
        before = copy.deepcopy(state)
        seat = engine.waiting_for(state)[0]
        moves = engine.legal_moves(state, seat)
        engine.view(state, seat)["log"].append("x")
        engine.view(state, None)
        engine.bot_move(state, seat)
        new = engine.play(state, seat, rng.choice(moves))
        assert state == before
        state = new


def test_the_engine_module_is_pure():
    source = Path(k.__file__).read_text(encoding="utf-8")
    for forbidden in ("django", "import random", "import time", "datetime", "open(", "print("):
        assert forbidden not in source.replace("path.open(", ""), forbidden


# The bot ----------------------------------------------------------------------------------------------


def hide_differently(state, seat, rng):
    """A state differing from ``state`` only in what ``seat`` may not see."""
    other = copy.deepcopy(state)
    pool = list(other["deck"])
    others = [s for s in range(other["players"]) if s != seat]
    for s in others:
        pool += other["hands"][s]
        if other["chosen"][s] is not None:
            pool += other["chosen"][s]["cards"]
    rng.shuffle(pool)
    for s in others:
        size = len(other["hands"][s])
        other["hands"][s], pool = sorted(pool[:size]), pool[size:]
        if other["chosen"][s] is not None:
            size = len(other["chosen"][s]["cards"])
            other["chosen"][s] = {**other["chosen"][s], "cards": sorted(pool[:size])}
            pool = pool[size:]
    other["deck"] = pool
    other["seed"] = "something else"
    other["log"] = [event for event in other["log"] if "only" not in event or seat in event["only"]]
    return other


def test_the_bot_uses_only_what_its_view_shows():
    rng = random.Random(0)
    for players in (2, 3, 4):
        state = engine.setup(players, 21)
        while not engine.is_over(state):
            seat = engine.waiting_for(state)[0]
            if state["phase"] == "choose" or rng.random() < 0.2:
                other = hide_differently(state, seat, rng)
                assert canon(engine.view(other, seat)) == canon(engine.view(state, seat))
                assert engine.bot_move(other, seat) == engine.bot_move(state, seat)
                view = engine.view(state, seat)
                assert all(view[key] == value for key, value in engine._table_view(state).items())
            state = engine.play(state, seat, engine.bot_move(state, seat))


def test_the_bot_always_plays_a_legal_move_and_is_deterministic():
    state = engine.setup(4, 8)
    while not engine.is_over(state):
        for seat in engine.waiting_for(state):
            move = engine.bot_move(state, seat)
            assert move in engine.legal_moves(state, seat)
            assert engine.bot_move(copy.deepcopy(state), seat) == move
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, engine.bot_move(state, seat))
    with pytest.raises(IllegalMove):
        engine.bot_move(state, 0)


def test_the_bot_serves_the_customer_closest_to_leaving_and_completes_orders():
    state = new_game(THREE, ["c01"])
    set_track(state, ("c01", 3, {}), ("c13", 0, {TK: 1}), ("c04", 2, {}))
    set_boards(state, showcase={TK: 1})
    state = choose_all(state, [3, 35, 39])
    state = engine.play(state, 0, {"type": "next"})
    assert engine.bot_move(state, 0) == {"type": "hand_over", "product": TK, "customer": "c04"}  # completes
    set_track(state, ("c01", 3, {}), ("c13", 0, {TK: 1}))
    assert engine.bot_move(state, 0) == {"type": "hand_over", "product": TK, "customer": "c13"}  # about to leave


def test_the_bot_avoids_cards_blocked_by_full_boards():
    state = new_game([[17, 30, 33, 34, 36], [5, 35, 37, 38, 39], [20, 40, 41, 42, 43]], ["c01"])
    set_boards(state, cooking={OK: 3, TA: 2}, stove={TK: 5}, showcase={TK: 2})
    # card 17 (prep 2, bake 1) could do nothing; 30 (prep 1, hand over 2) is the lowest that completes c01
    assert engine.bot_move(state, 0) == {"type": "choose", "cards": [30]}


def test_the_bot_clearly_beats_random_play():
    wins = 0
    for game in range(40):
        players = 2 + game % 3
        bot_seat = game % players
        state = playout(players, 1000 + game, policy={bot_seat})
        wins += engine.outcome(state)[bot_seat]["rank"] == 1
    assert wins >= 34


# The bot's hot path, written out for the search's playouts (issue 28), decides as the plain reading does -----


def _plain_simulate(table, counts):
    """The bot's card simulation as first written (``max`` over ``prep_value``/``bake_value``/``hand_over_value``):
    the reference the written-out ``Bot.simulate`` must agree with, step for step."""
    bot, points = k.bot, 0
    for process, source, target, value in (
        ("prep", "stock", "cooking", bot.prep_value),
        ("bake", "cooking", "stove", bot.bake_value),
    ):
        for _ in range(counts[process]):
            if k.total(table[target]) >= k.BOARD_LIMIT or not k.total(table[source]):
                break
            product = max((p for p in k.PRODUCTS if table[source][p]), key=lambda p: value(table, p))
            k.move_chip(table[source], table[target], product)
            points += 1
    for _ in range(counts["hand_over"]):
        showcase, customers = table["showcase"], table["customers"]
        options = [(c, p) for p in k.PRODUCTS if showcase[p] for c in customers if c["missing"].get(p)]
        if not options:
            break
        customer, product = max(options, key=lambda option: bot.hand_over_value(*option))
        points += 1 + bot.serve(table, customer, product)
    return points


def _tables_along_games(players: int, games: int):
    """The bot's table at every choice of some seeded games, half the moves random so odd tables come up."""
    engine = get_engine("konamon")
    for seed in range(games):
        rng = random.Random(seed)
        state = engine.setup(players, seed=seed)
        while not engine.is_over(state):
            seat = engine.waiting_for(state)[0]
            moves = engine.legal_moves(state, seat)
            if state["phase"] == "choose":
                yield k.Bot.table(engine._bot_table_view(state)), moves
            state = engine.play(state, seat, rng.choice(moves) if rng.random() < 0.5 else engine.bot_move(state, seat))


@pytest.mark.parametrize("players", [2, 4])
def test_the_written_out_card_simulation_takes_the_steps_of_the_plain_reading(players):
    compared = 0
    for table, _moves in _tables_along_games(players, games=6):
        for card in sorted(k.ACTIONS):
            fast, plain = k.Bot.copy_table(table), k.Bot.copy_table(table)
            assert k.bot.simulate(fast, k.ACTIONS[card]) == _plain_simulate(plain, k.ACTIONS[card])
            assert fast == plain, "the same chips moved, the same customers served"
            compared += 1
    assert compared > 1000


@pytest.mark.parametrize("players", [2, 4])
def test_a_choice_valued_with_shared_simulations_is_valued_as_alone(players):
    """``choice_value`` reuses the simulations of the cards' counts within one decision; each move's value is
    the one it gets computed alone, so the bot chooses the same card."""
    compared = 0
    for table, moves in _tables_along_games(players, games=6):
        shared: dict = {}
        for move in moves:
            assert k.bot.choice_value(table, move, shared) == k.bot.choice_value(table, move)
            compared += 1
    assert compared > 200
