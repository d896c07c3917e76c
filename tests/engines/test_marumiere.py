"""マルミエール (Marumiere): the rules of shared/rules/marumiere.md, and what each seat may see.

Generic protocol properties are in test_protocol.py; this file checks the game's
own rules (rounds, dealing, bidding, tricks, scoring), the stacked deal, and
need to know: no face-down card's number or id in any view or log.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import statistics
import string
from pathlib import Path

import pytest

from games.engines import IllegalMove, get_engine
from marumiere import engine as m

engine = get_engine("marumiere")
ALL_CARDS = [f"{colour}-{number}" for colour in ("red", "blue", "yellow", "green") for number in range(1, 10)]
CARD_ID = re.compile(r"(red|blue|yellow|green)-\d")


# Helpers --------------------------------------------------------------------------


def suit(colour, numbers=range(1, 10)):
    return [f"{colour}-{n}" for n in numbers]


def canon(value):
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def new_game(rounds, dealer=0, variant="standard", seed=0, players=None):
    """A game whose first rounds are stacked: ``rounds`` is a list of pile lists."""
    players = players or len(rounds[0])
    return engine.setup(players, seed, {"variant": variant, "deal": {"dealer": dealer, "rounds": rounds}})


def act(state, *moves):
    """Play ``(seat, type, value)`` moves in order, checking each seat is the one awaited."""
    for seat, kind, value in moves:
        assert engine.waiting_for(state) == [seat], (seat, kind, value, engine.waiting_for(state))
        field = {"pick": "pile", "bid": "position", "play": "position"}[kind]
        state = engine.play(state, seat, {"type": kind, field: value})
    return state


def plays(*pairs):
    return [(seat, "play", pos) for seat, pos in pairs]


def playout(players, seed, variant="standard", bot_share=0.5):
    """Every state of a seeded game mixing bot and random moves, with the seat and move made from it."""
    chooser = random.Random(f"marumiere:{players}:{seed}:{variant}")
    state = engine.setup(players, seed, {"variant": variant})
    while not engine.is_over(state):
        (seat,) = engine.waiting_for(state)
        if chooser.random() < bot_share:
            move = engine.bot_move(state, seat)
        else:
            move = chooser.choice(engine.legal_moves(state, seat))
        yield state, seat, move
        state = engine.play(state, seat, move)
    yield state, None, None


def bot_game(players, seed, variant="standard"):
    state = engine.setup(players, seed, {"variant": variant})
    while not engine.is_over(state):
        (seat,) = engine.waiting_for(state)
        state = engine.play(state, seat, engine.bot_move(state, seat))
    return state


def events(state, kind, seat=None):
    return [event for event in engine.view(state, seat)["log"] if event["type"] == kind]


def may_see(state, owner, pos, viewer):
    """The rules file's visibility, written independently of the engine."""
    if state["bids"][owner] == pos:
        if state["phase"] == "over":
            return True
        variant = state["variant"]
        if variant == "standard":
            return state["phase"] == "play" and viewer != owner
        return variant == "self" and viewer == owner
    return state["played"][owner][pos] and [owner, pos] not in state["trick"]


# Components ---------------------------------------------------------------------


def test_thirty_six_cards_four_colours_nine_numbers_with_shapes():
    assert sorted(m.CARDS) == sorted(ALL_CARDS)
    assert m.SHAPES == {"red": "heart", "blue": "drop", "yellow": "star", "green": "clover"}
    assert m.TRUMP == 5 and m.MISERE == 9
    assert all(m.NUMBER_OF[card] == int(card[-1]) and m.COLOUR_OF[card] == card[:-2] for card in ALL_CARDS)


def test_metadata_and_options():
    assert engine.slug == "marumiere" and engine.min_players == 2 and engine.max_players == 4
    assert engine.options == {"variant": ["standard", "nobody", "self"]}
    assert engine.setup(3, 1)["variant"] == "standard"
    for bad in ({"variant": "open"}, {"memory": "open"}):
        with pytest.raises(ValueError):
            engine.setup(3, 1, bad)
    for players in (1, 5, "3", True, None):
        with pytest.raises(ValueError):
            engine.setup(players, 1)


def test_only_the_awaited_seat_has_moves_and_seats_are_ints():
    state = engine.setup(3, 1, {"deal": {"dealer": 0}})
    assert engine.legal_moves(state, 1) and engine.waiting_for(state) == [1]
    for seat in (0, 2, 1.0, True, "1", None, -2, 3):
        assert engine.legal_moves(state, seat) == []
    with pytest.raises(ValueError):
        engine.view(state, True)


def round_starts(players, seed):
    """The state at the start of each round of a bot game (its piles just dealt)."""
    state, starts = engine.setup(players, seed), []
    starts.append(state)
    while not engine.is_over(state):
        (seat,) = engine.waiting_for(state)
        before = state["round"]
        state = engine.play(state, seat, engine.bot_move(state, seat))
        if state["round"] != before:
            starts.append(state)
    return starts


def sizes_seen(view):
    """Every size a view gives: row cards, pile tops, cards of the trick."""
    return [card["size"] for row in view["rows"] for card in row] + [
        pile["top"]["size"] for pile in view["piles"]
    ] + [card["size"] for card in view["trick"]]


def test_back_sizes_are_number_times_a_factor_within_the_bounds_with_one_decimal():
    factors = []
    for seed in range(20):
        for state in round_starts(2, seed):
            for card, size in state["sizes"].items():
                number = m.NUMBER_OF[card]
                assert 0.85 * number - 0.05 <= size <= 1.15 * number + 0.05, (card, size)
                assert round(size, 1) == size and len(repr(size).split(".")[1]) == 1, size
                factors.append(size / number)
            for seat in (0, 1, None):
                assert all(round(size, 1) == size for size in sizes_seen(engine.view(state, seat)))
    assert min(factors) < 0.87 and max(factors) > 1.13, "factors spread over [0.85, 1.15]"
    assert engine.setup(4, 1)["sizes"] != engine.setup(4, 2)["sizes"]


def test_a_cards_size_is_drawn_afresh_every_round():
    changed = total = 0
    for seed in range(5):
        starts = round_starts(4, seed)
        assert [state["round"] for state in starts] == [1, 2, 3, 4]
        for before, after in itertools.pairwise(starts):
            assert after["sizes"] == m.round_sizes(seed, after["round"])
            changed += sum(before["sizes"][card] != after["sizes"][card] for card in m.CARDS)
            total += len(m.CARDS)
    # A 1 only takes sizes 0.9-1.2 (4 values), so it keeps its size now and then; most cards change.
    assert changed > 0.75 * total, f"{changed} of {total} sizes changed between rounds"


def test_a_card_seen_face_up_is_not_recognised_by_its_size_in_the_next_round():
    """Within a round a size names at most a few cards; from one round to the next that mapping breaks."""
    same = 0
    for seed in range(10):
        first, second = round_starts(3, seed)[:2]
        for card in m.CARDS:
            same += first["sizes"][card] == second["sizes"][card] and m.NUMBER_OF[card] >= 6
    assert same < 0.2 * 10 * 16, same


def test_eights_and_nines_overlap_often_over_many_deals():
    """The rules: an 8 is 6.8-9.2 and a 9 is 7.7-10.4, so a back in between tells neither for sure."""
    eights, nines = set(), set()
    for seed in range(300):
        sizes = m.round_sizes(seed, 1 + seed % 4)
        eights |= {size for card, size in sizes.items() if m.NUMBER_OF[card] == 8}
        nines |= {size for card, size in sizes.items() if m.NUMBER_OF[card] == 9}
    assert min(eights) <= 6.9 and max(eights) >= 9.1 and min(nines) <= 7.8 and max(nines) >= 10.3
    shared = eights & nines
    assert len(shared) >= 10, sorted(shared)
    both = [size for seed in range(300) for card, size in m.round_sizes(seed, 1).items() if m.NUMBER_OF[card] in (8, 9)]
    assert sum(size in shared for size in both) > 0.4 * len(both), "most 8s and 9s have a size either can have"


def test_a_stored_state_from_before_per_round_sizes_plays_on_and_replays_the_same_deals():
    """A game stored by the engine before issue 14 (one factor in [0.92, 1.08] per game, 2 decimals;
    tests/engines/data/marumiere_before_i14.json, made with that engine) plays on to its end, with the
    new sizes from its next round on; and its moves replay with the new engine to the same state but
    for this round's sizes, which are what the data migration writes (0005_i14_marumiere_backs_per_round)."""
    stored = json.loads((Path(__file__).parent / "data" / "marumiere_before_i14.json").read_text())
    old = stored["state"]
    assert any(round(size, 1) != size for size in old["sizes"].values()), "the fixture has 2-decimal sizes"
    replayed = engine.setup(stored["players"], stored["seed"], stored["options"])
    for seat, move in stored["moves"]:
        replayed = engine.play(replayed, seat, move)
    assert {**replayed, "sizes": None} == {**old, "sizes": None}, "same deals, moves, tricks and log"
    assert replayed["sizes"] == m.round_sizes(stored["seed"], old["round"])
    state, rounds = json.loads(json.dumps(old)), {old["round"]}
    while not engine.is_over(state):
        (seat,) = engine.waiting_for(state)
        state = engine.play(state, seat, engine.bot_move(state, seat))
        if state["round"] not in rounds:
            rounds.add(state["round"])
            assert state["sizes"] == m.round_sizes(stored["seed"], state["round"])
    assert rounds == {2, 3} and len(engine.outcome(state)) == 3


# Rounds, dealing -----------------------------------------------------------------


@pytest.mark.parametrize(("players", "rounds"), [(2, 4), (3, 3), (4, 4)])
def test_round_count_and_dealer_rotating_left(players, rounds):
    first_dealers = set()
    for seed in range(6):
        state = bot_game(players, seed)
        starts = events(state, "round_start")
        assert [e["round"] for e in starts] == list(range(1, rounds + 1))
        assert all(e["rounds"] == rounds for e in starts)
        first = starts[0]["dealer"]
        first_dealers.add(first)
        assert [e["dealer"] for e in starts] == [(first + k) % players for k in range(rounds)]
        assert [r["dealer"] for r in state["results"]] == [e["dealer"] for e in starts]
        assert len(events(state, "trick_won")) == 8 * rounds
        if players == 2:
            assert sorted(e["dealer"] for e in starts) == [0, 0, 1, 1], "in 2 players each deals twice"
    assert len(first_dealers) > 1, "the first dealer is random"


def test_first_dealer_is_deterministic_per_seed_and_stackable():
    assert engine.setup(4, 7)["dealer"] == engine.setup(4, 7)["dealer"]
    for dealer in range(3):
        state = engine.setup(3, 7, {"deal": {"dealer": dealer, "rounds": []}})
        assert state["dealer"] == dealer
        assert engine.waiting_for(state) == [(dealer + 1) % 3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_piles_of_nine_rest_set_aside_unseen(players):
    state = engine.setup(players, 3)
    assert len(state["piles"]) == players and all(len(pile) == 9 for pile in state["piles"])
    assert len(state["aside"]) == 36 - 9 * players
    for seat in [None, *range(players)]:
        view = engine.view(state, seat)
        assert view["phase"] == "pick"
        assert view["rows"] == [[] for _ in range(players)]
        assert [set(pile) for pile in view["piles"]] == [{"top", "count"}] * players
        assert all(set(pile["top"]) == {"colour", "size"} for pile in view["piles"])
        assert "aside" not in canon(view)


def test_picking_from_the_dealers_left_dealer_last_rows_in_pile_order():
    piles = [suit("red"), suit("blue"), suit("yellow"), suit("green", [9, 8, 7, 6, 5, 4, 3, 2, 1])]
    state = new_game([piles], dealer=2)
    assert engine.waiting_for(state) == [3]
    assert engine.legal_moves(state, 3) == [{"type": "pick", "pile": k} for k in range(4)]
    state = act(state, (3, "pick", 3))  # green, reversed
    tops = [pile["top"]["colour"] for pile in engine.view(state, None)["piles"]]
    assert tops == ["red", "blue", "yellow"], "the piles on offer keep the dealing order"
    state = act(state, (0, "pick", 1), (1, "pick", 0))  # blue, then red
    assert state["phase"] == "bid" and engine.waiting_for(state) == [2], "the dealer got the last pile and bids first"
    assert state["rows"] == [suit("blue"), suit("red"), suit("yellow"), piles[3]]
    picks = events(state, "pick")
    assert [(e["seat"], e["pile"]) for e in picks] == [(3, 3), (0, 1), (1, 0), (2, 0)]
    assert picks[-1]["last"] is True
    view = engine.view(state, 0)
    assert view["piles"] == []
    assert [card["colour"] for card in view["rows"][3]] == ["green"] * 9
    sizes = [card["size"] for card in view["rows"][3]]
    assert sizes == [state["sizes"][card] for card in piles[3]], "top card at position 0, never reordered"


def test_two_players_one_pick_then_dealer_takes_the_other():
    state = new_game([[suit("red"), suit("blue")]], dealer=1)
    assert engine.waiting_for(state) == [0]
    state = act(state, (0, "pick", 1))
    assert state["rows"] == [suit("blue"), suit("red")]
    assert state["phase"] == "bid" and engine.waiting_for(state) == [1]


# Bidding ------------------------------------------------------------------------


def test_bidding_goes_round_from_the_dealer_and_the_dealer_leads():
    state = engine.setup(4, 11, {"deal": {"dealer": 1}})
    state = act(state, (2, "pick", 0), (3, "pick", 0), (0, "pick", 0))
    assert engine.legal_moves(state, 1) == [{"type": "bid", "position": p} for p in range(9)]
    state = act(state, (1, "bid", 3), (2, "bid", 0), (3, "bid", 8), (0, "bid", 4))
    view = engine.view(state, None)
    assert view["phase"] == "play" and view["leader"] == 1 and engine.waiting_for(state) == [1]
    assert [bid["position"] for bid in view["bids"]] == [4, 3, 0, 8]
    assert [[card["bid"] for card in row].index(True) for row in view["rows"]] == [4, 3, 0, 8]


def test_bid_value_nine_is_misere():
    assert [m.bid_value(n) for n in range(1, 10)] == [1, 2, 3, 4, 5, 6, 7, 8, 0]


def bid_phase_states(variant):
    """A 3-player game after the first bid, and after all bids."""
    state = new_game([[suit("red"), suit("blue"), suit("green")]], dealer=0, variant=variant)
    state = act(state, (1, "pick", 1), (2, "pick", 1))  # rows: red, blue, green
    one = act(state, (0, "bid", 2))  # red-3
    everyone = act(one, (1, "bid", 6), (2, "bid", 8))  # blue-7, green-9
    return one, everyone


def bid_numbers(state, viewer):
    return [bid and bid.get("number") for bid in engine.view(state, viewer)["bids"]]


def test_standard_variant_others_see_bid_cards_once_everyone_has_bid():
    one, everyone = bid_phase_states("standard")
    for viewer in [None, 0, 1, 2]:
        assert bid_numbers(one, viewer) == [None, None, None], "nobody sees a bid before all have bid"
    assert bid_numbers(everyone, 0) == [None, 7, 9]
    assert bid_numbers(everyone, 1) == [3, None, 9]
    assert bid_numbers(everyone, 2) == [3, 7, None]
    assert bid_numbers(everyone, None) == [3, 7, 9], "spectators see every bid card"
    assert engine.view(everyone, 1)["bids"][2] == {"position": 8, "number": 9, "bid": 0}
    assert engine.view(everyone, 1)["rows"][0][2]["number"] == 3
    assert "number" not in engine.view(everyone, 0)["rows"][0][2], "the bidder does not see their own bid"
    seen = events(everyone, "bid_seen", 1)
    assert [(e["seat"], e["number"], e["only"]) for e in seen] == [(0, 3, [1, 2]), (2, 9, [0, 1])]
    assert events(everyone, "bid_seen", None) == []


def test_nobody_variant_hides_every_bid_card_until_the_round_ends():
    one, everyone = bid_phase_states("nobody")
    for state, viewer in itertools.product((one, everyone), [None, 0, 1, 2]):
        assert bid_numbers(state, viewer) == [None, None, None]
        assert events(state, "bid_seen", viewer) == []


def test_self_variant_only_the_bidder_sees_their_card_from_the_moment_of_bidding():
    one, everyone = bid_phase_states("self")
    assert bid_numbers(one, 0) == [3, None, None]
    assert bid_numbers(one, 1) == [None, None, None] and bid_numbers(one, None) == [None, None, None]
    assert bid_numbers(everyone, 0) == [3, None, None]
    assert bid_numbers(everyone, 1) == [None, 7, None]
    assert bid_numbers(everyone, 2) == [None, None, 9]
    assert bid_numbers(everyone, None) == [None, None, None]
    assert [(e["seat"], e["only"]) for e in events(everyone, "bid_seen", 2)] == [(2, [2])]


@pytest.mark.parametrize("variant", ["standard", "nobody", "self"])
def test_after_a_round_its_bid_cards_are_face_up_for_everyone(variant):
    state = engine.setup(3, 5, {"variant": variant})
    while state["round"] == 1:
        (seat,) = engine.waiting_for(state)
        state = engine.play(state, seat, engine.bot_move(state, seat))
    for viewer in [None, 0, 1, 2]:
        view = engine.view(state, viewer)
        (result,) = view["results"]
        assert all("number" in entry and "bid" in entry for entry in result["seats"])
        scores = [e for e in view["log"] if e["type"] == "round_score"]
        assert [e["number"] for e in scores] == [entry["number"] for entry in result["seats"]]
    final = bot_game(3, 5, variant)
    for viewer in [None, 0, 1, 2]:
        rows = engine.view(final, viewer)["rows"]
        assert all("number" in card for row in rows for card in row), "at the end every card is face up"


# Tricks --------------------------------------------------------------------------


def test_last_played_five_wins_a_trick_with_several_fives():
    # Four single-colour rows: every follower is void in the led colour.
    piles = [suit("red", [5, 1, 2, 3, 4, 6, 7, 8, 9]), suit("blue", [5, 1, 2, 3, 4, 6, 7, 8, 9])]
    piles += [suit("yellow", [9, 1, 2, 3, 4, 5, 6, 7, 8]), suit("green", [5, 1, 2, 3, 4, 6, 7, 8, 9])]
    state = new_game([piles], dealer=0)
    state = act(state, (1, "pick", 1), (2, "pick", 1), (3, "pick", 1))
    assert [row[0] for row in state["rows"]] == ["red-5", "blue-5", "yellow-9", "green-5"]
    state = act(state, (0, "bid", 7), (1, "bid", 7), (2, "bid", 7), (3, "bid", 7))
    state = act(state, *plays((0, 0), (1, 0), (2, 0)))
    assert engine.view(state, None)["trick"] == [
        {"seat": s, "position": 0, "colour": c, "size": state["sizes"][f"{c}-{n}"]}
        for s, c, n in [(0, "red", 5), (1, "blue", 5), (2, "yellow", 9)]
    ]
    state = act(state, *plays((3, 0)))
    last = engine.view(state, 2)["last_trick"]
    assert last["winner"] == 3 and state["won"] == [0, 0, 0, 1]
    assert [(c["colour"], c["number"]) for c in last["cards"]] == [("red", 5), ("blue", 5), ("yellow", 9), ("green", 5)]
    # No 5: the highest card of the led colour wins, however high the others.
    state = act(state, *plays((3, 1), (0, 8), (1, 8), (2, 8)))
    assert engine.view(state, 0)["last_trick"]["winner"] == 3 and state["won"] == [0, 0, 0, 2]
    assert engine.view(state, 0)["leader"] == 3


def test_trick_winner_rule():
    assert m.trick_winner([(0, "red-9"), (1, "red-8"), (2, "blue-9")]) == 0
    assert m.trick_winner([(0, "red-1"), (1, "blue-9"), (2, "red-2")]) == 2
    assert m.trick_winner([(0, "red-9"), (1, "blue-5"), (2, "red-8")]) == 1
    assert m.trick_winner([(0, "red-5"), (1, "red-9"), (2, "green-5"), (3, "yellow-5")]) == 3
    assert m.trick_winner([(0, "red-5"), (1, "green-5"), (2, "red-9")]) == 1
    assert m.trick_winner([(0, "green-1"), (1, "red-9"), (2, "blue-9"), (3, "yellow-9")]) == 0


def misere_round():
    """Seat 0 (dealer) holds red 1-9 and bids the 9 (misère); seat 1 holds blue 1-9 and bids the 1."""
    state = new_game([[suit("red"), suit("blue")]], dealer=0)
    state = act(state, (1, "pick", 1), (0, "bid", 8), (1, "bid", 0))
    # Trick 1: red-5 led, blue-5 played after it: the last 5 wins.
    return act(state, *plays((0, 4), (1, 4)))


def test_a_whole_round_misere_failed_and_made():
    state = misere_round()
    assert state["won"] == [0, 1] and engine.waiting_for(state) == [1]
    # Seat 1 leads blue every time; seat 0 has no blue and loses each trick.
    for red, blue in zip([0, 1, 2, 3, 5, 6, 7], [1, 2, 3, 5, 6, 7, 8], strict=True):
        state = act(state, *plays((1, blue), (0, red)))
    assert state["round"] == 2 and state["dealer"] == 1
    assert state["scores"] == [6, -7], "misère made: +6; bid 1 with 8 tricks: -7"
    (result,) = state["results"]
    assert result["seats"] == [
        {"seat": 0, "position": 8, "number": 9, "bid": 0, "won": 0, "points": 6},
        {"seat": 1, "position": 0, "number": 1, "bid": 1, "won": 8, "points": -7},
    ]
    assert engine.view(state, 0)["last_trick"] is None, "a new round starts with no trick taken"
    assert engine.view(state, 0)["tricks_won"] == [0, 0]


def test_must_follow_the_led_colour_seen_on_the_back():
    # Dealer 1 leads blue; seat 0 holds blue-1 in hand and blue-2 as its bid card.
    state = new_game(
        [[suit("red", range(1, 8)) + ["blue-1", "blue-2"], suit("blue", range(3, 10)) + suit("green", [1, 2])]],
        dealer=1,
    )
    state = act(state, (0, "pick", 0), (1, "bid", 8), (0, "bid", 8), (1, "play", 0))
    assert engine.legal_moves(state, 0) == [{"type": "play", "position": 7}]
    with pytest.raises(IllegalMove) as refused:
        engine.play(state, 0, {"type": "play", "position": 0})
    assert refused.value.code == "must_follow" and refused.value.params == {"colour": "blue"}


def test_a_bid_card_of_the_led_colour_does_not_oblige_to_follow():
    # Seat 0's only blue card is its bid card: it may play any card.
    state = new_game([[suit("red", range(1, 9)) + ["blue-1"], suit("blue", range(2, 10)) + ["green-1"]]], dealer=1)
    state = act(state, (0, "pick", 0), (1, "bid", 8), (0, "bid", 8), (1, "play", 0))
    assert engine.legal_moves(state, 0) == [{"type": "play", "position": p} for p in range(8)]
    with pytest.raises(IllegalMove) as refused:
        engine.play(state, 0, {"type": "play", "position": 8})
    assert refused.value.code == "bid_card" and refused.value.params == {"position": 8}


def test_a_played_card_cannot_be_played_again_and_the_leader_may_lead_anything():
    state = misere_round()
    state = act(state, *plays((1, 1)))
    assert engine.legal_moves(state, 0) == [{"type": "play", "position": p} for p in (0, 1, 2, 3, 5, 6, 7)]
    with pytest.raises(IllegalMove) as refused:
        engine.play(state, 0, {"type": "play", "position": 4})
    assert refused.value.code == "already_played"


def test_eight_tricks_per_round_with_the_eight_non_bid_cards():
    state = engine.setup(4, 21)
    while state["round"] == 1:
        (seat,) = engine.waiting_for(state)
        before = state
        state = engine.play(state, seat, engine.bot_move(state, seat))
    assert sum(before["won"]) == 7 and all(sum(flags) == 7 or sum(flags) == 8 for flags in before["played"])
    (result,) = state["results"]
    assert sum(entry["won"] for entry in result["seats"]) == 8


# Scoring --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bid", "won", "points"),
    [
        # bid 1-3 made: +3
        (1, 1, 3),
        (2, 2, 3),
        (3, 3, 3),
        # bid 4-8 made: +won
        (4, 4, 4),
        (5, 5, 5),
        (6, 6, 6),
        (7, 7, 7),
        (8, 8, 8),
        # misère made: +6
        (0, 0, 6),
        # bid 1-8 missed: -|bid - won|
        (1, 0, -1),
        (1, 8, -7),
        (3, 1, -2),
        (4, 6, -2),
        (8, 0, -8),
        (5, 4, -1),
        # misère missed: -won
        (0, 1, -1),
        (0, 3, -3),
        (0, 8, -8),
    ],
)
def test_scoring_table(bid, won, points):
    assert m.round_points(bid, won) == points


def test_scores_are_running_totals_and_the_highest_total_wins_with_shared_ties():
    state = bot_game(3, 8)
    totals = [sum(r["seats"][seat]["points"] for r in state["results"]) for seat in range(3)]
    assert state["scores"] == totals == engine.view(state, None)["scores"]
    state = {**state, "scores": [5, 9, 9]}
    assert engine.outcome(state) == [
        {"seat": 0, "rank": 3, "score": 5},
        {"seat": 1, "rank": 1, "score": 9},
        {"seat": 2, "rank": 1, "score": 9},
    ]


# Stacked deal ---------------------------------------------------------------------


def test_stacked_rounds_then_seeded_shuffles():
    rounds = [[suit("red"), suit("blue")], [suit("yellow"), suit("green")]]
    state = new_game(rounds, dealer=1, seed=4)
    assert state["piles"] == rounds[0]
    assert sorted(state["aside"]) == sorted(suit("yellow") + suit("green"))
    other = new_game(rounds, dealer=1, seed=5)
    assert other["sizes"] != state["sizes"], "later randomness still comes from the seed"
    seen_piles = []
    while not engine.is_over(state):
        if state["phase"] == "pick" and not state["rows"][(state["dealer"] + 1) % 2]:
            seen_piles.append(state["piles"])
        (seat,) = engine.waiting_for(state)
        state = engine.play(state, seat, engine.bot_move(state, seat))
    assert seen_piles[:2] == rounds
    assert seen_piles[2] != seen_piles[3] and seen_piles[2] not in rounds


@pytest.mark.parametrize(
    "deal",
    [
        "red-1",
        ["red-1"],
        {"dealer": 2},
        {"dealer": -1},
        {"dealer": True},
        {"dealer": "0"},
        {"rounds": "x"},
        {"rounds": [[suit("red")]]},  # one pile for two players
        {"rounds": [[suit("red"), suit("blue"), suit("green")]]},  # three piles
        {"rounds": [[suit("red"), suit("blue", range(1, 9))]]},  # eight cards
        {"rounds": [[suit("red"), suit("blue") + ["green-1"]]]},  # ten cards
        {"rounds": [[suit("red"), suit("blue", range(1, 9)) + ["red-1"]]]},  # duplicate across piles
        {"rounds": [[suit("red", [1, 1, 2, 3, 4, 5, 6, 7, 8]), suit("blue")]]},  # duplicate in a pile
        {"rounds": [[suit("red"), suit("blue", range(1, 9)) + ["purple-1"]]]},
        {"rounds": [[suit("red"), suit("blue", range(1, 9)) + ["red-10"]]]},
        {"rounds": [[suit("red"), suit("blue", range(1, 9)) + [9]]]},
        {"rounds": [[suit("red"), "blue"]]},
        {"rounds": [[suit("red"), suit("blue")]] * 5},  # a 2-player game has 4 rounds
        {"rounds": [[suit("red"), suit("blue")], None]},
        {"dealer": 0, "rounds": [], "extra": 1},
    ],
)
def test_stacked_deal_validation(deal):
    with pytest.raises(ValueError):
        engine.setup(2, 1, {"deal": deal})


def test_stacked_deal_accepts_partial_and_full_rounds():
    engine.setup(2, 1, {"deal": {"dealer": 0, "rounds": [[suit("red"), suit("blue")]] * 4}})
    engine.setup(4, 1, {"deal": {"rounds": [[suit("red"), suit("blue"), suit("yellow"), suit("green")]]}})
    engine.setup(3, 1, {"deal": {"dealer": 2}})
    assert engine.setup(3, 1, {"deal": None}) == engine.setup(3, 1)


# Moves refused ---------------------------------------------------------------------


def refusal(state, seat, move):
    with pytest.raises(IllegalMove) as refused:
        engine.play(state, seat, move)
    error = refused.value
    assert error.code in m.MESSAGES
    assert error.message == m.MESSAGES[error.code].format(**error.params)
    json.dumps(error.params)
    return error.code


def test_every_message_code_is_reachable_and_readable():
    codes = set()
    picking = new_game([[suit("red"), suit("blue"), suit("green")]], dealer=0)
    codes.add(refusal(picking, 0, {"type": "pick", "pile": 0}))
    codes.add(refusal(picking, 3, {"type": "pick", "pile": 0}))
    codes.add(refusal(picking, "1", {"type": "pick", "pile": 0}))
    codes.add(refusal(picking, 1, ["pick", 0]))
    codes.add(refusal(picking, 1, {"pile": 0}))
    codes.add(refusal(picking, 1, {"type": "draw"}))
    codes.add(refusal(picking, 1, {"type": "bid", "position": 0}))
    codes.add(refusal(picking, 1, {"type": "pick"}))
    codes.add(refusal(picking, 1, {"type": "pick", "pile": 0, "position": 1}))
    codes.add(refusal(picking, 1, {"type": "pick", "pile": 3}))
    codes.add(refusal(picking, 1, {"type": "pick", "pile": True}))
    bidding = act(picking, (1, "pick", 0), (2, "pick", 0))
    codes.add(refusal(bidding, 0, {"type": "bid", "position": 9}))
    codes.add(refusal(bidding, 0, {"type": "bid", "position": 1.0}))
    state = misere_round()
    codes.add(refusal(state, 1, {"type": "play", "position": 4}))
    codes.add(refusal(state, 1, {"type": "play", "position": 0}))
    state = new_game(
        [[suit("red", range(1, 8)) + ["blue-1", "blue-2"], suit("blue", range(3, 10)) + suit("green", [1, 2])]],
        dealer=1,
    )
    state = act(state, (0, "pick", 0), (1, "bid", 8), (0, "bid", 8), (1, "play", 0))
    codes.add(refusal(state, 0, {"type": "play", "position": 0}))
    codes.add(refusal(bot_game(2, 1), 0, {"type": "play", "position": 0}))
    assert codes == set(m.MESSAGES)


def test_message_templates_name_their_params():
    for code, template in m.MESSAGES.items():
        names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert names <= {"seat", "type", "phase", "field", "pile", "last", "position", "colour"}, code


# Need to know ---------------------------------------------------------------------


def sampled_states(players, variant, seed, every=5):
    """Every ``every``-th state of a mixed bot/random game, and its last."""
    states = [state for state, _, _ in playout(players, seed, variant)]
    return states[::every] + [states[-1]]


def test_views_hold_faces_exactly_where_the_rules_allow():
    for players, variant in itertools.product((2, 3, 4), ("standard", "nobody", "self")):
        for state in sampled_states(players, variant, seed=players, every=3):
            for viewer in [None, *range(players)]:
                view = engine.view(state, viewer)
                text = canon(view)
                assert not CARD_ID.search(text), "a card id in a view gives its number away"
                for owner, row in enumerate(view["rows"]):
                    for pos, card in enumerate(row):
                        assert ("number" in card) == bool(may_see(state, owner, pos, viewer)), (owner, pos, viewer)
                        assert set(card) - {"number"} == {"colour", "size", "bid", "played"}
                for entry in view["trick"]:
                    assert "number" not in entry, "the trick in progress is face down"
                for event in view["log"]:
                    if event["type"] == "play":
                        assert "number" not in event, "a play event must not carry the face"


def swap_hidden(state, first, second):
    """A copy of ``state`` where two cards of one colour, at places given as (kind, i, j), trade places and backs."""
    twin = json.loads(json.dumps(state))

    def place(kind, i, j):
        return twin[kind][i] if kind != "aside" else twin["aside"], (j if kind != "aside" else i)

    (list_a, index_a), (list_b, index_b) = place(*first), place(*second)
    card_a, card_b = list_a[index_a], list_b[index_b]
    list_a[index_a], list_b[index_b] = card_b, card_a
    twin["sizes"][card_a], twin["sizes"][card_b] = state["sizes"][card_b], state["sizes"][card_a]
    return twin


def hidden_places(state, viewer):
    """Where the cards are whose face ``viewer`` may not see, by colour."""
    places = {}
    view = engine.view(state, viewer)
    for owner, row in enumerate(state["rows"]):
        for pos, card in enumerate(row):
            if "number" not in view["rows"][owner][pos]:
                places.setdefault(m.COLOUR_OF[card], []).append(("rows", owner, pos))
    for i, pile in enumerate(state["piles"]):
        for j, card in enumerate(pile):
            places.setdefault(m.COLOUR_OF[card], []).append(("piles", i, j))
    for i, card in enumerate(state["aside"]):
        places.setdefault(m.COLOUR_OF[card], []).append(("aside", i, None))
    return places


@pytest.mark.parametrize("players", [2, 3, 4])
def test_need_to_know_states_differing_in_hidden_faces_look_the_same(players):
    """Swapping face-down cards (and their backs) changes no view, log or bot move of that seat."""
    chooser = random.Random(players)
    checked = 0
    for variant in ("standard", "nobody", "self"):
        for state in sampled_states(players, variant, seed=10 + players, every=3 + players):
            for viewer in [None, *range(players)]:
                view = canon(engine.view(state, viewer))
                awaited = viewer is not None and engine.waiting_for(state) == [viewer]
                bot = engine.bot_move(state, viewer) if awaited else None
                for spots in hidden_places(state, viewer).values():
                    if len(spots) < 2:
                        continue
                    first, second = chooser.sample(spots, 2)
                    twin = swap_hidden(state, first, second)
                    assert canon(engine.view(twin, viewer)) == view, (variant, viewer, first, second)
                    if awaited:
                        assert engine.bot_move(twin, viewer) == bot, "the bot read a hidden face"
                        assert engine.legal_moves(twin, viewer) == engine.legal_moves(state, viewer)
                    checked += 1
    assert checked > 100


def visible_to(state, card, viewer):
    """Whether ``viewer`` may see ``card``'s face in ``state`` (rules-file reading, written here)."""
    for owner, row in enumerate(state["rows"]):
        if card in row:
            return may_see(state, owner, row.index(card), viewer)
    return False


@pytest.mark.parametrize(("players", "variant"), [(2, "standard"), (3, "self"), (4, "nobody"), (4, "standard")])
def test_need_to_know_through_the_whole_history_logs_included(players, variant):
    """Two games dealt alike but for two same-coloured cards (backs swapped too), same moves:
    each seat's views, logs and bot moves agree until one of the two faces is shown to it."""
    chooser = random.Random(f"history:{players}:{variant}")
    first = engine.setup(players, 40 + players, {"variant": variant})
    dealt = first["piles"]
    options = {"variant": variant, "deal": {"dealer": first["dealer"], "rounds": [dealt]}}
    original = engine.setup(players, 40 + players, options)
    moves = []
    state = original
    while state["round"] == 1:
        (seat,) = engine.waiting_for(state)
        move = (
            engine.bot_move(state, seat) if chooser.random() < 0.5 else chooser.choice(engine.legal_moves(state, seat))
        )
        moves.append((seat, move))
        state = engine.play(state, seat, move)
    compared = 0
    for viewer in [None, *range(players)]:
        for _ in range(6):
            colour = chooser.choice(["red", "blue", "yellow", "green"])
            a, b = chooser.sample(suit(colour), 2)
            swap = {a: b, b: a}
            twin_piles = [[swap.get(card, card) for card in pile] for pile in dealt]
            twin = engine.setup(
                players, 40 + players, {**options, "deal": {"dealer": first["dealer"], "rounds": [twin_piles]}}
            )
            twin["sizes"][a], twin["sizes"][b] = original["sizes"][b], original["sizes"][a]
            state = original
            for seat, move in moves:
                if visible_to(state, a, viewer) or visible_to(state, b, viewer):
                    break
                assert canon(engine.view(twin, viewer)) == canon(engine.view(state, viewer)), (viewer, a, b, move)
                if seat == viewer:
                    assert engine.bot_move(twin, seat) == engine.bot_move(state, seat)
                compared += 1
                state, twin = engine.play(state, seat, move), engine.play(twin, seat, move)
    assert compared > 100


def test_logs_keep_private_events_to_their_seats():
    for variant in ("standard", "nobody", "self"):
        state = bot_game(4, 2, variant)
        everyone = [e for e in state["log"] if "only" not in e]
        assert engine.view(state, None)["log"] == everyone
        for seat in range(4):
            log = engine.view(state, seat)["log"]
            assert all("only" not in e or seat in e["only"] for e in log)
            assert len(log) == len(everyone) + sum(1 for e in state["log"] if seat in e.get("only", []))
        for event in state["log"]:
            if event["type"] == "bid_seen":
                assert event["only"] == (
                    [event["seat"]] if variant == "self" else [s for s in range(4) if s != event["seat"]]
                )
        assert variant != "nobody" or not any(e["type"] == "bid_seen" for e in state["log"])


def test_every_event_type_is_documented_and_its_template_fills():
    seen = set()
    for variant in ("standard", "self"):
        state = bot_game(3, 4, variant)
        for event in state["log"]:
            seen.add(event["type"])
            params = {k: v for k, v in event.items() if k != "type"}
            m.EVENTS[event["type"]].format(**params)
    assert seen == set(m.EVENTS)


# Conservation, determinism, purity ------------------------------------------------


def test_every_card_in_exactly_one_place_in_every_state():
    for players in (2, 3, 4):
        for state, _, _ in playout(players, seed=30 + players):
            places = [card for pile in state["piles"] for card in pile]
            places += [card for row in state["rows"] for card in row] + state["aside"]
            assert sorted(places) == sorted(ALL_CARDS)
            trick_cards = [tuple(entry) for entry in state["trick"]]
            assert len(set(trick_cards)) == len(trick_cards)
            assert all(state["played"][seat][pos] for seat, pos in trick_cards)
            assert all(pos != state["bids"][seat] for seat, pos in trick_cards)
            if state["phase"] == "play":
                played = sum(sum(flags) for flags in state["played"])
                assert played == players * state["tricks_played"] + len(state["trick"])
                assert sum(state["won"]) == state["tricks_played"]


def test_same_seed_and_moves_same_game_and_json_round_trips():
    trace = [(canon(s), canon(move)) for s, _, move in playout(3, 77, "self")]
    assert trace == [(canon(s), canon(move)) for s, _, move in playout(3, 77, "self")]
    state = json.loads(trace[40][0])
    seat, move = engine.waiting_for(state)[0], json.loads(trace[40][1])
    assert canon(engine.play(state, seat, move)) == trace[41][0]
    assert canon(engine.setup(4, 1)) != canon(engine.setup(4, 2))


def test_play_view_legal_moves_and_bot_change_nothing():
    for state, seat, move in itertools.islice(playout(4, 9), 0, 200, 7):
        before = canon(state)
        if seat is not None:
            after = engine.play(state, seat, move)
            engine.bot_move(state, seat)
            engine.legal_moves(state, seat)
            after["log"].append({"type": "tamper"})
            after["rows"][0].append("x")
        for viewer in [None, 0, 1, 2, 3]:
            view = engine.view(state, viewer)
            for event in view["log"]:
                event["tamper"] = True
        assert canon(state) == before


def test_no_global_randomness_no_clock():
    source = Path(m.__file__).read_text(encoding="utf-8")
    for forbidden in ("import random", "import time", "datetime", "django", "open("):
        assert forbidden not in source, forbidden
    random.seed(1)
    first = engine.setup(4, 3)
    random.seed(2)
    assert engine.setup(4, 3) == first


# View keys --------------------------------------------------------------------------


def test_view_keys():
    state = misere_round()
    view = engine.view(state, 0)
    for key in ("seat", "round", "waiting_for", "scores", "log", "dealer", "piles", "rows", "trick", "last_trick"):
        assert key in view
    assert {"tricks_won", "leader", "phase", "bids", "rounds", "players", "variant", "results"} <= set(view)
    assert view["seat"] == 0 and view["round"] == 1 and view["rounds"] == 4 and view["dealer"] == 0
    assert view["phase"] == "play" and view["leader"] == 1 and view["waiting_for"] == [1]
    assert view["piles"] == [] and view["trick"] == [] and view["tricks_won"] == [0, 1]
    assert view["last_trick"] == {
        "cards": [
            {"seat": 0, "position": 4, "colour": "red", "number": 5},
            {"seat": 1, "position": 4, "colour": "blue", "number": 5},
        ],
        "winner": 1,
    }
    assert view["rows"][0][4] == {
        "colour": "red",
        "size": state["sizes"]["red-5"],
        "bid": False,
        "played": True,
        "number": 5,
    }
    assert view["rows"][0][0] == {"colour": "red", "size": state["sizes"]["red-1"], "bid": False, "played": False}
    assert view["rows"][1][0] == {
        "colour": "blue",
        "size": state["sizes"]["blue-1"],
        "bid": True,
        "played": False,
        "number": 1,
    }
    play_events = [e for e in view["log"] if e["type"] == "play"]
    assert play_events[0] == {"type": "play", "seat": 0, "position": 4, "colour": "red"}
    with pytest.raises(ValueError):
        engine.view(state, 2)


# The bot ------------------------------------------------------------------------------


def test_bot_estimates_numbers_from_sizes():
    assert m.size_candidates(1.0) == (1,)
    assert m.size_candidates(4.9) == (5,)
    assert m.size_candidates(7.4) == (7, 8)
    assert m.size_candidates(8.0) == (7, 8, 9)
    assert m.size_candidates(10.2) == (9,)
    marginals = m.colour_marginals(((7, 8), (8, 9), (9,)))
    assert marginals[2] == {9: 1.0} and marginals[1] == {8: 1.0} and marginals[0] == {7: 1.0}


def test_a_single_option_is_certain_even_when_the_options_clash():
    assert m.colour_marginals(((7,), (7,), (7, 8))) == ({7: 1.0}, {7: 1.0}, {7: 8 / 15, 8: 7 / 15})
    assert m.colour_marginals(((6,), (6, 7), (7, 8))) == ({6: 1.0}, {7: 1.0}, {8: 1.0})
    assert m.colour_marginals(((), (4,))) == (m.colour_marginals(((),))[0], {4: 1.0})


def test_trick_distribution_goes_on_from_the_cards_before():
    chances = [0.11, 0.97, 0.5, 0.38, 0.02]
    assert m.trick_distribution(chances[2:], m.trick_distribution(chances[:2])) == m.trick_distribution(chances)
    assert m.trick_distribution([0.5, 0.5]) == [0.25, 0.5, 0.25]


def test_a_follower_beats_by_following_higher_or_trumping_when_void():
    hand = m.hand_threat([("red", 3.0), ("red", 8.0), ("blue", 4.96)])
    assert hand == ({"red": (False, 8.0), "blue": (True, 4.96)}, True)
    lose = 1 - m.FOLLOWER_BEATS
    assert m.win_chance("red", 7.0, None, [], [hand]) == lose  # the red 8 follows higher
    assert m.win_chance("red", 9.0, None, [], [hand]) == 1.0  # it must follow and cannot beat a 9
    assert m.win_chance("green", 2.0, None, [], [hand]) == lose  # void in green: it trumps with its 5
    assert m.win_chance("red", 9.0, "blue", [], [hand]) == 0.0  # not the led colour


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_bot_reads_part_of_its_seats_view_with_the_same_values(players):
    """What the bot reads is a subset of the seat's own view (so it knows no more than the seat)."""
    checked = 0
    for variant in ("standard", "nobody", "self"):
        for state, seat, _ in playout(players, 30 + players, variant):
            if seat is not None:
                read = m._bot_view(state, seat)
                full = engine.view(state, seat)
                assert read == {key: full[key] for key in read}, (variant, seat)
                checked += 1
    assert checked > 200


def test_bot_is_deterministic_and_legal():
    for state, seat, _ in itertools.islice(playout(3, 12), 0, 150, 3):
        if seat is not None:
            move = engine.bot_move(state, seat)
            assert move in engine.legal_moves(state, seat)
            assert engine.bot_move(json.loads(json.dumps(state)), seat) == move
    with pytest.raises(IllegalMove):
        engine.bot_move(bot_game(2, 3), 0)


def test_bot_clearly_beats_random_play():
    """Over 40 seeded 4-player games, one bot among three random players."""
    bot_scores, random_scores, bot_wins = [], [], 0
    for game in range(40):
        bot = game % 4
        chooser = random.Random(f"bot-vs-random:{game}")
        state = engine.setup(4, 500 + game, {"variant": ("standard", "nobody", "self")[game % 3]})
        while not engine.is_over(state):
            (seat,) = engine.waiting_for(state)
            move = engine.bot_move(state, seat) if seat == bot else chooser.choice(engine.legal_moves(state, seat))
            state = engine.play(state, seat, move)
        bot_scores.append(state["scores"][bot])
        random_scores += [score for seat, score in enumerate(state["scores"]) if seat != bot]
        bot_wins += engine.outcome(state)[bot]["rank"] == 1
    assert statistics.mean(bot_scores) > statistics.mean(random_scores) + 5
    assert bot_wins >= 25, f"the bot won {bot_wins} of 40 (fair share 10)"


def test_bot_tries_to_make_its_bid():
    """Bots make their bid far more often than random players do."""
    made = {"bot": 0, "random": 0}
    for game in range(12):
        for who in made:
            chooser = random.Random(game)
            state = engine.setup(4, 900 + game)
            while not engine.is_over(state):
                (seat,) = engine.waiting_for(state)
                move = engine.bot_move(state, seat) if who == "bot" else chooser.choice(engine.legal_moves(state, seat))
                state = engine.play(state, seat, move)
            made[who] += sum(entry["bid"] == entry["won"] for r in state["results"] for entry in r["seats"])
    assert made["bot"] > 2 * made["random"], made


def test_bot_picks_the_pile_whose_top_can_only_be_a_trump_over_a_bigger_top():
    view = {"piles": [{"top": {"colour": "red", "size": 8.1}}, {"top": {"colour": "blue", "size": 5.0}}]}
    moves = [{"type": "pick", "pile": 0}, {"type": "pick", "pile": 1}]
    assert m.size_candidates(5.0) == (m.TRUMP,)
    assert m.bot_pick(view, moves) == {"type": "pick", "pile": 1}
