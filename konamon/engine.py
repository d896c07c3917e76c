"""こなもんっ! (Konamon!) — the rules as ``shared/rules/konamon.md`` reads them.

A round has five phases: arrival, actions (a secret simultaneous choice, then
the revealed cards carried out one step per move in ascending action number),
out of the stove, mood and refill. Card data (60 action cards, 18 customers)
lives in ``konamon/data.json`` so a printed set can replace it.

The state is plain JSON-ready data. Chips are counted by product; every card
and chip sits in exactly one place:

- action cards: ``hands``, ``chosen`` (secret, before the reveal), ``queue``
  (revealed, waiting to be carried out), ``working`` (being carried out),
  ``deck`` (top first) or ``discard``;
- customers: ``customer_deck`` (top first), ``customers`` (the mood track),
  ``taken`` or ``gone`` (left the game);
- chips: ``stock``, ``boards`` or a customer's ``chips``.
"""

from __future__ import annotations

import json
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

from games.engines.base import Engine, IllegalMove, Move, State, View, next_rng, rank_by
from games.engines.sealing import seal

# Card data -------------------------------------------------------------------

DATA_FILE = Path(__file__).with_name("data.json")


def _load_data(path: Path) -> dict[str, Any]:
    """The house card data, checked once at import."""
    with path.open(encoding="utf-8") as handle:
        data = json.load(handle)
    products = tuple(product["id"] for product in data["products"])
    numbers = sorted(card["number"] for card in data["actions"])
    ids = [customer["id"] for customer in data["customers"]]
    if len(set(numbers)) != len(numbers) or len(set(ids)) != len(ids):
        raise ValueError(f"{path}: duplicate action numbers or customer ids")
    for customer in data["customers"]:
        if not 1 <= len(customer["orders"]) <= 4 or not set(customer["orders"]) <= set(products):
            raise ValueError(f"{path}: bad order list for {customer['id']}")
        if customer["effect"] not in ("none", "hurry", "treat", "snack", "draw", "critic"):
            raise ValueError(f"{path}: unknown effect for {customer['id']}")
    return data


DATA = _load_data(DATA_FILE)
PRODUCTS: tuple[str, ...] = tuple(product["id"] for product in DATA["products"])  # the canonical order
CHIPS_PER_PRODUCT: int = DATA["chips_per_product"]
ACTIONS: dict[int, dict[str, int]] = {
    card["number"]: {"prep": card["prep"], "bake": card["bake"], "hand_over": card["hand_over"]}
    for card in DATA["actions"]
}
# A card's counts as a key: the bot's simulations depend only on these (60 cards, 14 kinds).
ACTION_COUNTS: dict[int, tuple[int, ...]] = {card: tuple(counts.values()) for card, counts in ACTIONS.items()}
CUSTOMERS: dict[str, dict[str, Any]] = {customer["id"]: customer for customer in DATA["customers"]}
ORDERS: dict[str, dict[str, int]] = {
    cid: {product: customer["orders"].count(product) for product in PRODUCTS if product in customer["orders"]}
    for cid, customer in CUSTOMERS.items()
}

# Rule constants ----------------------------------------------------------------

BOARD_LIMIT = 5  # chips on each board
HAND_SIZE = 5
PAIR_LIMIT = 90  # two players: the two action numbers add up to this or less
ARRIVAL_MOOD = 3
HURRY_MOOD = 2
PROCESSES = ("prep", "bake", "hand_over")

# Messages and events, for the platform to render and translate ----------------

MESSAGES: dict[str, str] = {
    "game_over": "The game is over.",
    "bad_seat": "There is no seat {seat}.",
    "not_your_turn": "It is not your turn.",
    "bad_move": "A move is an object with a type.",
    "unexpected_move": "Now the move must be one of: {expected}.",
    "bad_keys": "This move takes exactly the keys: {keys}.",
    "bad_cards": "Give the cards you play as a list of {count} action number(s).",
    "not_in_hand": "Card {card} is not in your hand.",
    "same_card": "You cannot use card {card} twice.",
    "not_ascending": "List your two cards in ascending order.",
    "pair_over_90": "Cards {first} and {second} add up to {total}, more than 90.",
    "discard_with_pair": "When you play two cards, discard must be null.",
    "must_play_pair": "You hold two cards that add up to 90 or less: play two cards.",
    "discard_required": "Playing a single card, you discard one other card from your hand.",
    "unknown_product": "{product} is not a product.",
    "not_current_process": "Now you carry out {process}.",
    "stock_empty": "The stock has no {product}.",
    "cooking_lacks": "The cooking board has no {product}.",
    "showcase_lacks": "The showcase has no {product}.",
    "customer_absent": "Customer {customer} is not on the mood track.",
    "not_ordered": "Customer {customer} does not need {product}.",
    "keep_count": "Keep exactly {room} chip(s) from the stove.",
    "keep_order": "List the kept chips in the canonical product order.",
    "keep_not_on_stove": "The stove does not hold that many {product}.",
}

EVENTS: dict[str, str] = {
    "round": "Round {round} begins.",
    "deal": "Seat {seat} is dealt {cards}.",  # private
    "arrival": "Customer {customer} arrives at mood {mood} (effect: {effect}).",
    "hurry": "Customer {customer} is in a hurry: mood {mood}.",
    "treat": "Customer {customer} brings a treat: a cooked {product} goes from the stock to the showcase.",
    "snack": "Customer {customer} snacks: a {product} goes from the showcase to the stock.",
    "penalty": "Seat {seat} loses {points} point(s) ({cause}).",
    "draw": "Seat {seat} draws {count} action card(s).",
    "drew": "Seat {seat} draws {cards}.",  # private
    "reshuffle": "The discard pile ({cards} cards) is shuffled into a new action deck.",
    "chose": "Seat {seat} has chosen.",
    "choice": "Seat {seat} secretly chooses {cards}.",  # private, before the reveal
    "choice_discard": "Seat {seat} secretly sets card {card} aside to discard.",  # private, before the reveal
    "reveal": "Seat {seat} plays {cards}.",
    "discard": "Seat {seat} discards card {card}.",
    "card": "Seat {seat} carries out card {card} (prep {prep}, bake {bake}, hand over {hand_over}).",
    "prep": "Seat {seat} preps a {product}.",
    "bake": "Seat {seat} bakes a {product}.",
    "hand_over": "Seat {seat} hands a {product} to customer {customer}.",
    "take": "Seat {seat} completes the order of customer {customer} and scores {bonus} bonus point(s).",
    "next": "Seat {seat} ends {process} early.",
    "blocked": "Seat {seat} cannot {process} any more ({unused} unused).",
    "done": "Card {card} of seat {seat} is done.",
    "unload": "Seat {seat} moves {keep} from the stove to the showcase; {back} return to the stock.",
    "leave": "Customer {customer} leaves angry (bonus {bonus}).",
    "end": "The game ends; winners: {winners}.",
}


def _illegal(code: str, **params: Any) -> IllegalMove:
    """An ``IllegalMove`` with the message of ``code``."""
    return IllegalMove(MESSAGES[code].format(**params), code=code, **params)


def log(state: State, kind: str, **params: Any) -> None:
    """Append a structured event; ``only=[seat]`` marks it private."""
    params["type"] = kind
    state["log"].append(params)


def _is_int(value: Any) -> bool:
    """A JSON integer (``bool`` is not one)."""
    return type(value) is int


# Small helpers on boards and customers ----------------------------------------


def no_chips() -> dict[str, int]:
    """A board or stock holding nothing, by product."""
    return dict.fromkeys(PRODUCTS, 0)


def total(chips: dict[str, int]) -> int:
    """The number of chips in a by-product count."""
    return sum(chips.values())


def missing(customer: dict[str, Any]) -> dict[str, int]:
    """What a customer's order still lacks, by product (only the lacking ones)."""
    chips = customer["chips"]
    return {p: n - chips.get(p, 0) for p, n in ORDERS[customer["id"]].items() if n > chips.get(p, 0)}


def lacks(customer: dict[str, Any], product: str) -> bool:
    """Whether the customer's order still lacks ``product``."""
    return ORDERS[customer["id"]].get(product, 0) > customer["chips"].get(product, 0)


def find_customer(state: State, cid: Any) -> dict[str, Any] | None:
    """The customer ``cid`` on the mood track, if present."""
    for customer in state["customers"]:
        if customer["id"] == cid:
            return customer
    return None


def leaders(state: State) -> list[int]:
    """The seat(s) with the most points."""
    best = max(state["points"])
    return [seat for seat, points in enumerate(state["points"]) if points == best]


def lose_points(state: State, seats: list[int], amount: int, cause: str) -> None:
    """Take ``amount`` off each seat's points, never below 0."""
    for seat in seats:
        lost = min(amount, state["points"][seat])
        if lost:
            state["points"][seat] -= lost
            log(state, "penalty", seat=seat, points=lost, cause=cause)


def move_chip(source: dict[str, int], target: dict[str, int], product: str) -> None:
    """Move one chip of ``product``."""
    source[product] -= 1
    target[product] = target.get(product, 0) + 1


def has_pair(hand: list[int]) -> bool:
    """Whether two cards of ``hand`` add up to 90 or less."""
    low = sorted(hand)[:2]
    return len(low) == 2 and low[0] + low[1] <= PAIR_LIMIT


def copy_konamon_state(state: State) -> State:
    """A copy deep enough that changing it never changes ``state``.

    Faster than ``copy.deepcopy``: log events, ``chosen`` entries, ``played``
    lists and ``queue`` pairs are never changed in place, so they are shared.
    """
    new = dict(state)
    new["hands"] = [list(hand) for hand in state["hands"]]
    new["deck"] = list(state["deck"])
    new["discard"] = list(state["discard"])
    new["customer_deck"] = list(state["customer_deck"])
    new["customers"] = [{**c, "chips": dict(c["chips"])} for c in state["customers"]]
    new["taken"] = [list(taken) for taken in state["taken"]]
    new["gone"] = list(state["gone"])
    new["points"] = list(state["points"])
    new["boards"] = {name: dict(chips) for name, chips in state["boards"].items()}
    new["stock"] = dict(state["stock"])
    new["chosen"] = list(state["chosen"])
    new["played"] = list(state["played"])
    new["queue"] = list(state["queue"])
    if state["working"] is not None:
        new["working"] = {**state["working"], "left": dict(state["working"]["left"])}
    new["log"] = list(state["log"])
    return new


# Set-up -----------------------------------------------------------------------


def check_deal(deal: Any, players: int) -> None:
    """``ValueError`` unless ``deal`` is a complete stacked deal for ``players``."""
    if not isinstance(deal, dict) or set(deal) != {"hands", "actions", "customers"}:
        raise ValueError("deal takes exactly the keys hands, actions, customers")
    hands, actions, customers = deal["hands"], deal["actions"], deal["customers"]
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError(f"deal needs one hand per seat ({players})")
    for hand in hands:
        if not isinstance(hand, list) or len(hand) != HAND_SIZE:
            raise ValueError(f"each dealt hand holds {HAND_SIZE} cards")
    if not isinstance(actions, list) or not isinstance(customers, list):
        raise ValueError("deal actions and customers are lists")
    cards = [card for hand in hands for card in hand] + actions
    if not all(_is_int(card) for card in cards) or sorted(cards) != sorted(ACTIONS):
        raise ValueError("deal must hold every action card exactly once")
    if not all(isinstance(cid, str) for cid in customers) or sorted(customers) != sorted(CUSTOMERS):
        raise ValueError("deal must hold every customer exactly once")


def new_state(players: int, seed: Any) -> State:
    """The table before the deal: one raw and one cooked chip of each product out."""
    stock = dict.fromkeys(PRODUCTS, CHIPS_PER_PRODUCT - 2)
    return {
        "seed": seed,
        "rng": 0,
        "players": players,
        "round": 0,
        "phase": "choose",
        "hands": [[] for _ in range(players)],
        "deck": [],
        "discard": [],
        "customer_deck": [],
        "customers": [],
        "taken": [[] for _ in range(players)],
        "gone": [],
        "points": [0] * players,
        "boards": {"cooking": dict.fromkeys(PRODUCTS, 1), "stove": no_chips(), "showcase": dict.fromkeys(PRODUCTS, 1)},
        "stock": stock,
        "chosen": [None] * players,
        "played": [None] * players,
        "queue": [],
        "working": None,
        "last_actor": None,
        "log": [],
    }


def deal_cards(state: State, deal: dict[str, Any] | None) -> None:
    """Shuffle (or stack) the action and customer decks and deal 5 cards to each seat."""
    if deal is None:
        rng = next_rng(state)
        actions = sorted(ACTIONS)
        rng.shuffle(actions)
        customers = sorted(CUSTOMERS)
        rng.shuffle(customers)
        hands = [actions[seat * HAND_SIZE : (seat + 1) * HAND_SIZE] for seat in range(state["players"])]
        actions = actions[state["players"] * HAND_SIZE :]
    else:
        hands, actions, customers = deal["hands"], deal["actions"], deal["customers"]
    state["hands"] = [sorted(hand) for hand in hands]
    state["deck"] = list(actions)
    state["customer_deck"] = list(customers)
    for seat, hand in enumerate(state["hands"]):
        log(state, "deal", seat=seat, cards=list(hand), only=[seat])


# Phase 1: arrival ---------------------------------------------------------------


def start_round(state: State) -> None:
    """A new round: clear the last reveal, then the arrival phase and the choice."""
    state["round"] += 1
    state["chosen"] = [None] * state["players"]
    state["played"] = [None] * state["players"]
    state["last_actor"] = None
    state["phase"] = "choose"
    log(state, "round", round=state["round"])
    arrival(state)


def arrival(state: State) -> None:
    """Reveal the top customer at mood 3 and resolve its effect (none left: nobody arrives)."""
    if not state["customer_deck"]:
        return
    cid = state["customer_deck"].pop(0)
    customer = {"id": cid, "mood": ARRIVAL_MOOD, "chips": {}}
    state["customers"].append(customer)
    effect = CUSTOMERS[cid]["effect"]
    log(state, "arrival", customer=cid, mood=ARRIVAL_MOOD, effect=effect)
    ARRIVAL_EFFECTS[effect](state, customer)


def effect_none(state: State, customer: dict[str, Any]) -> None:
    """Nothing happens."""


def effect_hurry(state: State, customer: dict[str, Any]) -> None:
    """The customer is placed at mood 2 instead of 3."""
    customer["mood"] = HURRY_MOOD
    log(state, "hurry", customer=customer["id"], mood=HURRY_MOOD)


def effect_treat(state: State, customer: dict[str, Any]) -> None:
    """A cooked chip of the first ordered product goes from the stock to the showcase, if possible."""
    product = CUSTOMERS[customer["id"]]["orders"][0]
    showcase = state["boards"]["showcase"]
    if state["stock"][product] and total(showcase) < BOARD_LIMIT:
        move_chip(state["stock"], showcase, product)
        log(state, "treat", customer=customer["id"], product=product)


def effect_snack(state: State, customer: dict[str, Any]) -> None:
    """A chip of the product the showcase holds most of (tie: canonical order) goes back to the stock."""
    showcase = state["boards"]["showcase"]
    if total(showcase):
        product = max(PRODUCTS, key=lambda p: showcase[p])  # max keeps the first of equals
        move_chip(showcase, state["stock"], product)
        log(state, "snack", customer=customer["id"], product=product)


def effect_draw(state: State, customer: dict[str, Any]) -> None:
    """Every player draws 1 action card, in seat order: each chooses from 6 this round (the refill
    tops hands up to 5 again, and a hand still above 5 keeps its cards)."""
    for seat in range(state["players"]):
        draw_cards(state, seat, 1)


def effect_critic(state: State, customer: dict[str, Any]) -> None:
    """The player(s) with the most points lose 1 point (never below 0)."""
    lose_points(state, leaders(state), 1, "critic")


ARRIVAL_EFFECTS = {
    "none": effect_none,
    "hurry": effect_hurry,
    "treat": effect_treat,
    "snack": effect_snack,
    "draw": effect_draw,
    "critic": effect_critic,
}


# Phase 2: actions -----------------------------------------------------------------


def choose(state: State, seat: int, cards: list[int], discard: int | None) -> None:
    """Put the chosen card(s), and a discard, face down; reveal once everyone has chosen."""
    hand = state["hands"][seat]
    for card in [*cards, discard]:
        if card is not None:
            hand.remove(card)
    state["chosen"][seat] = {"cards": list(cards), "discard": discard}
    if state.get("sealed"):
        # Everyone sees at once a commitment to the choice; the reveal gives the salt that opens it.
        log(state, "chose", seat=seat, commitment=seal(state, choice_label(state, seat), state["chosen"][seat])[0])
    else:
        log(state, "chose", seat=seat)
    log(state, "choice", seat=seat, cards=list(cards), only=[seat])
    if discard is not None:
        log(state, "choice_discard", seat=seat, card=discard, only=[seat])
    if all(choice is not None for choice in state["chosen"]):
        reveal(state)


def choice_label(state: State, seat: int) -> str:
    """What names a seat's choice of a round for its salt (``games.engines.sealing``)."""
    return f"konamon:{state['round']}:{seat}"


def reveal(state: State) -> None:
    """Turn the choices face up and line the cards up in ascending action number."""
    queue = []
    for seat, choice in enumerate(state["chosen"]):
        state["played"][seat] = choice["cards"]
        if state.get("sealed"):
            salt = seal(state, choice_label(state, seat), choice)[1]
            log(state, "reveal", seat=seat, cards=choice["cards"], discard=choice["discard"], salt=salt)
        else:
            log(state, "reveal", seat=seat, cards=choice["cards"])
        if choice["discard"] is not None:
            state["discard"].append(choice["discard"])
            log(state, "discard", seat=seat, card=choice["discard"])
        queue.extend([card, seat] for card in choice["cards"])
    state["chosen"] = [None] * state["players"]
    state["queue"] = sorted(queue)
    state["phase"] = "act"
    carry_out(state)


def carry_out(state: State) -> None:
    """Run the cards until a step waits for its owner; then out of the stove."""
    while True:
        if state["working"] is None:
            if not state["queue"]:
                out_of_stove(state)
                return
            start_card(state)
        working = state["working"]
        process = working["process"]
        if working["left"][process] and STEP_POSSIBLE[process](state):
            return
        end_process(state, early=False)


def start_card(state: State) -> None:
    """The next card in action-number order comes up; its owner acts (last actor so far)."""
    card, seat = state["queue"].pop(0)
    state["working"] = {"seat": seat, "card": card, "process": "prep", "left": dict(ACTIONS[card])}
    state["last_actor"] = seat
    log(state, "card", seat=seat, card=card, **ACTIONS[card])


def end_process(state: State, *, early: bool) -> None:
    """End the current process (early by ``next``, or by itself); after hand-over the card is done."""
    working = state["working"]
    process = working["process"]
    unused = working["left"][process]
    if early:
        log(state, "next", seat=working["seat"], process=process)
    elif unused:
        log(state, "blocked", seat=working["seat"], process=process, unused=unused)
    working["left"][process] = 0
    if process == "hand_over":
        finish_card(state)
    else:
        working["process"] = PROCESSES[PROCESSES.index(process) + 1]


def finish_card(state: State) -> None:
    """The played card goes to the discard pile."""
    working = state["working"]
    state["discard"].append(working["card"])
    log(state, "done", seat=working["seat"], card=working["card"])
    state["working"] = None


def prep_possible(state: State) -> bool:
    """Prep needs a chip in the stock and room on the cooking board."""
    return total(state["stock"]) > 0 and total(state["boards"]["cooking"]) < BOARD_LIMIT


def bake_possible(state: State) -> bool:
    """Bake needs a chip on the cooking board and room on the stove."""
    return total(state["boards"]["cooking"]) > 0 and total(state["boards"]["stove"]) < BOARD_LIMIT


def hand_over_possible(state: State) -> bool:
    """Hand-over needs a showcase chip that an open order lacks."""
    showcase = state["boards"]["showcase"]
    return any(showcase[p] and lacks(c, p) for c in state["customers"] for p in PRODUCTS)


STEP_POSSIBLE = {"prep": prep_possible, "bake": bake_possible, "hand_over": hand_over_possible}


def use_step(state: State, seat: int) -> None:
    """A step carried out: 1 point, one count used; the process may end by itself."""
    state["points"][seat] += 1
    state["working"]["left"][state["working"]["process"]] -= 1
    carry_out(state)


def prep(state: State, seat: int, product: str) -> None:
    """Take a chip from the stock and put it raw on the cooking board."""
    move_chip(state["stock"], state["boards"]["cooking"], product)
    log(state, "prep", seat=seat, product=product)
    use_step(state, seat)


def bake(state: State, seat: int, product: str) -> None:
    """Move a chip from the cooking board to the stove."""
    move_chip(state["boards"]["cooking"], state["boards"]["stove"], product)
    log(state, "bake", seat=seat, product=product)
    use_step(state, seat)


def hand_over(state: State, seat: int, product: str, cid: str) -> None:
    """Move a cooked chip from the showcase onto a customer; a filled order is taken."""
    customer = find_customer(state, cid)
    move_chip(state["boards"]["showcase"], customer["chips"], product)
    log(state, "hand_over", seat=seat, product=product, customer=cid)
    if not missing(customer):
        take_customer(state, seat, customer)
    use_step(state, seat)


def take_customer(state: State, seat: int, customer: dict[str, Any]) -> None:
    """The player takes the customer card and its bonus; its chips go back to the stock."""
    state["customers"].remove(customer)
    for product, count in customer["chips"].items():
        state["stock"][product] += count
    state["taken"][seat].append(customer["id"])
    bonus = CUSTOMERS[customer["id"]]["bonus"]
    state["points"][seat] += bonus
    log(state, "take", seat=seat, customer=customer["id"], bonus=bonus)


# Phase 3: out of the stove ------------------------------------------------------------


def keep_options(stove: dict[str, int], room: int) -> list[list[str]]:
    """Every choice of ``room`` stove chips, as canonical-order lists, each multiset once."""
    return [
        list(keep)
        for keep in combinations_with_replacement(PRODUCTS, room)
        if all(keep.count(p) <= stove[p] for p in PRODUCTS)
    ]


def showcase_room(state: State) -> int:
    """Free places in the showcase."""
    return BOARD_LIMIT - total(state["boards"]["showcase"])


def out_of_stove(state: State) -> None:
    """The last actor moves the stove chips, cooked, to the showcase; asks only for a real choice."""
    stove = state["boards"]["stove"]
    room = showcase_room(state)
    if total(stove) <= room:
        unload(state, [p for p in PRODUCTS for _ in range(stove[p])])
        return
    options = keep_options(stove, room)
    if len(options) == 1:
        unload(state, options[0])
        return
    state["phase"] = "unload"


def unload(state: State, keep: list[str]) -> None:
    """Kept stove chips go to the showcase, the rest to the stock; then the round goes on."""
    boards = state["boards"]
    back = []
    for product in keep:
        move_chip(boards["stove"], boards["showcase"], product)
    for product in PRODUCTS:
        back.extend([product] * boards["stove"][product])
        state["stock"][product] += boards["stove"][product]
        boards["stove"][product] = 0
    if keep or back:
        log(state, "unload", seat=state["last_actor"], keep=list(keep), back=back)
    end_round(state)


# Phases 4 and 5: mood, refill, end -----------------------------------------------------


def end_round(state: State) -> None:
    """Mood, refill, then the end check or the next round."""
    mood(state)
    refill(state)
    if game_ends(state):
        finish_game(state)
    else:
        start_round(state)


def mood(state: State) -> None:
    """Customers at mood 0 leave (their bonuses taken off the leaders); the others move down."""
    customers_leave(state)
    for customer in state["customers"]:
        customer["mood"] -= 1


def customers_leave(state: State) -> None:
    """Every customer at mood 0 leaves the game; its chips go to the stock."""
    leaving = [customer for customer in state["customers"] if customer["mood"] == 0]
    penalty = 0
    for customer in leaving:
        state["customers"].remove(customer)
        for product, count in customer["chips"].items():
            state["stock"][product] += count
        state["gone"].append(customer["id"])
        bonus = CUSTOMERS[customer["id"]]["bonus"]
        penalty += bonus
        log(state, "leave", customer=customer["id"], bonus=bonus)
    if penalty:
        lose_points(state, leaders(state), penalty, "mood")


def refill(state: State) -> None:
    """Every player draws up to 5 cards, in seat order (a hand above 5 keeps its cards)."""
    for seat, hand in enumerate(state["hands"]):
        if len(hand) < HAND_SIZE:
            draw_cards(state, seat, HAND_SIZE - len(hand))


def draw_cards(state: State, seat: int, count: int) -> None:
    """Draw from the top of the action deck, reshuffling the discard pile when the deck is empty."""
    drawn = []
    for _ in range(count):
        if not state["deck"]:
            reshuffle(state)
        if not state["deck"]:
            break
        drawn.append(state["deck"].pop(0))
    state["hands"][seat] = sorted(state["hands"][seat] + drawn)
    log(state, "draw", seat=seat, count=len(drawn))
    log(state, "drew", seat=seat, cards=drawn, only=[seat])


def reshuffle(state: State) -> None:
    """Shuffle the discard pile into a new action deck."""
    if state["discard"]:
        cards = sorted(state["discard"])
        next_rng(state).shuffle(cards)
        state["deck"] = cards
        state["discard"] = []
        log(state, "reshuffle", cards=len(cards))


def game_ends(state: State) -> bool:
    """After a refill: the customer deck is empty and no customer is on the mood track."""
    return not state["customer_deck"] and not state["customers"]


def final_ranks(state: State) -> list[int]:
    """Most points, then most customers taken; still tied share the rank."""
    return rank_by([(points, len(taken)) for points, taken in zip(state["points"], state["taken"], strict=True)])


def finish_game(state: State) -> None:
    """The game is over."""
    state["phase"] = "over"
    winners = [seat for seat, rank in enumerate(final_ranks(state)) if rank == 1]
    log(state, "end", winners=winners)


# Move checks ---------------------------------------------------------------------------


def _check_keys(move: dict[str, Any], keys: tuple[str, ...]) -> None:
    """The move has exactly ``keys``."""
    if set(move) != set(keys):
        raise _illegal("bad_keys", keys=", ".join(keys))


def _check_in_hand(hand: list[int], card: Any) -> None:
    """``card`` is an action number in ``hand``."""
    if not _is_int(card) or card not in hand:
        raise _illegal("not_in_hand", card=card)


def check_choose(state: State, seat: int, move: dict[str, Any]) -> tuple[list[int], int | None]:
    """The cards and discard of a legal ``choose`` move."""
    hand = state["hands"][seat]
    two_players = state["players"] == 2
    _check_keys(move, ("type", "cards", "discard") if two_players else ("type", "cards"))
    cards = move["cards"]
    if not isinstance(cards, list) or not 1 <= len(cards) <= (2 if two_players else 1):
        raise _illegal("bad_cards", count="1 or 2" if two_players else "1")
    for card in cards:
        _check_in_hand(hand, card)
    if not two_players:
        return list(cards), None
    discard = move["discard"]
    if len(cards) == 2:
        first, second = cards
        if first == second:
            raise _illegal("same_card", card=first)
        if first > second:
            raise _illegal("not_ascending")
        if first + second > PAIR_LIMIT:
            raise _illegal("pair_over_90", first=first, second=second, total=first + second)
        if discard is not None:
            raise _illegal("discard_with_pair")
        return list(cards), None
    if has_pair(hand):
        raise _illegal("must_play_pair")
    if discard is None:
        raise _illegal("discard_required")
    _check_in_hand(hand, discard)
    if discard == cards[0]:
        raise _illegal("same_card", card=discard)
    return list(cards), discard


def _check_product(move: dict[str, Any]) -> str:
    """The move's product, a known one."""
    product = move["product"]
    if not isinstance(product, str) or product not in PRODUCTS:
        raise _illegal("unknown_product", product=product)
    return product


def check_step(state: State, move: dict[str, Any]) -> None:
    """A legal prep/bake/hand_over step or ``next`` for the working card."""
    kind = move["type"]
    process = state["working"]["process"]
    if kind not in (*PROCESSES, "next"):
        raise _illegal("unexpected_move", expected=f"{process}, next")
    if kind == "next":
        _check_keys(move, ("type",))
        return
    if kind != process:
        raise _illegal("not_current_process", process=process)
    _check_keys(move, ("type", "product", "customer") if kind == "hand_over" else ("type", "product"))
    product = _check_product(move)
    boards = state["boards"]
    if kind == "prep" and not state["stock"][product]:
        raise _illegal("stock_empty", product=product)
    if kind == "bake" and not boards["cooking"][product]:
        raise _illegal("cooking_lacks", product=product)
    if kind == "hand_over":
        if not boards["showcase"][product]:
            raise _illegal("showcase_lacks", product=product)
        cid = move["customer"]
        customer = find_customer(state, cid) if isinstance(cid, str) else None
        if customer is None:
            raise _illegal("customer_absent", customer=cid)
        if not lacks(customer, product):
            raise _illegal("not_ordered", customer=cid, product=product)


def check_unload(state: State, move: dict[str, Any]) -> list[str]:
    """The kept chips of a legal ``unload`` move."""
    _check_keys(move, ("type", "keep"))
    keep = move["keep"]
    room = showcase_room(state)
    if not isinstance(keep, list) or len(keep) != room:
        raise _illegal("keep_count", room=room)
    for product in keep:
        if not isinstance(product, str) or product not in PRODUCTS:
            raise _illegal("unknown_product", product=product)
    if keep != sorted(keep, key=PRODUCTS.index):
        raise _illegal("keep_order")
    for product in PRODUCTS:
        if keep.count(product) > state["boards"]["stove"][product]:
            raise _illegal("keep_not_on_stove", product=product)
    return list(keep)


# The engine -------------------------------------------------------------------------------


class Konamon(Engine):
    """こなもんっ! for 2–4 players."""

    slug = "konamon"
    name = "こなもんっ! (Konamon!)"
    min_players = 2
    max_players = 4
    options: dict[str, list[Any]] = {}
    per_event_log = True  # the view's log keeps each event by its "only" alone

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """A new game: chips out, decks shuffled (or stacked by ``deal``), round 1 begun."""
        players = self.check_players(players)
        deal = self.check_options(options).get("deal")
        if deal is not None:
            check_deal(deal, players)
        state = new_state(players, seed)
        if self.check_options(options).get("sealed"):
            state["sealed"] = True  # commitments to the choices in the log (absent in games dealt before)
        deal_cards(state, deal)
        start_round(state)
        return state

    def waiting_for(self, state: State) -> list[int]:
        """Seats still to choose, the working card's owner, or the last actor unloading."""
        phase = state["phase"]
        if phase == "choose":
            return [seat for seat, choice in enumerate(state["chosen"]) if choice is None]
        if phase == "act":
            return [state["working"]["seat"]]
        if phase == "unload":
            return [state["last_actor"]]
        return []

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every distinct legal move of ``seat`` now."""
        if seat not in self.waiting_for(state):
            return []
        phase = state["phase"]
        if phase == "choose":
            return self._choose_moves(state, seat)
        if phase == "unload":
            options = keep_options(state["boards"]["stove"], showcase_room(state))
            return [{"type": "unload", "keep": keep} for keep in options]
        return [*self._step_moves(state), {"type": "next"}]

    def _choose_moves(self, state: State, seat: int) -> list[Move]:
        """One card (3–4 players); pairs to 90, or else card + discard (2 players)."""
        hand = sorted(state["hands"][seat])
        if state["players"] > 2:
            return [{"type": "choose", "cards": [card]} for card in hand]
        pairs = [
            {"type": "choose", "cards": [a, b], "discard": None}
            for i, a in enumerate(hand)
            for b in hand[i + 1 :]
            if a + b <= PAIR_LIMIT
        ]
        if pairs:
            return pairs
        return [{"type": "choose", "cards": [a], "discard": d} for a in hand for d in hand if d != a]

    def _step_moves(self, state: State) -> list[Move]:
        """The possible steps of the current process."""
        process = state["working"]["process"]
        boards = state["boards"]
        if process == "prep":
            return [{"type": "prep", "product": p} for p in PRODUCTS if state["stock"][p]]
        if process == "bake":
            return [{"type": "bake", "product": p} for p in PRODUCTS if boards["cooking"][p]]
        return [
            {"type": "hand_over", "product": p, "customer": c["id"]}
            for p in PRODUCTS
            if boards["showcase"][p]
            for c in state["customers"]
            if lacks(c, p)
        ]

    def play(self, state: State, seat: int, move: Move) -> State:
        """The next state after ``seat`` plays ``move``; ``IllegalMove`` if it is not legal now."""
        if state["phase"] == "over":
            raise _illegal("game_over")
        if not _is_int(seat) or not 0 <= seat < state["players"]:
            raise _illegal("bad_seat", seat=seat)
        if seat not in self.waiting_for(state):
            raise _illegal("not_your_turn")
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            raise _illegal("bad_move")
        phase = state["phase"]
        if phase == "choose":
            if move["type"] != "choose":
                raise _illegal("unexpected_move", expected="choose")
            cards, discard = check_choose(state, seat, move)
            new = copy_konamon_state(state)
            choose(new, seat, cards, discard)
        elif phase == "unload":
            if move["type"] != "unload":
                raise _illegal("unexpected_move", expected="unload")
            keep = check_unload(state, move)
            new = copy_konamon_state(state)
            unload(new, keep)
        else:
            check_step(state, move)
            new = copy_konamon_state(state)
            self._step(new, seat, move)
        return new

    def _step(self, state: State, seat: int, move: Move) -> None:
        """Carry out a checked step or ``next``."""
        kind = move["type"]
        if kind == "next":
            end_process(state, early=True)
            carry_out(state)
        elif kind == "prep":
            prep(state, seat, move["product"])
        elif kind == "bake":
            bake(state, seat, move["product"])
        else:
            hand_over(state, seat, move["product"], move["customer"])

    def view(self, state: State, seat: int | None) -> View:
        """Everything ``seat`` may know: the public table, own hand and own secret choice."""
        if seat is not None and (not _is_int(seat) or not 0 <= seat < state["players"]):
            raise ValueError(f"no seat {seat!r}")
        phase = state["phase"]
        own_choice = state["chosen"][seat] if seat is not None else None
        working = state["working"]
        return {
            "seat": seat,
            "round": state["round"],
            "waiting_for": self.waiting_for(state),
            "scores": list(state["points"]),
            "phase": phase,
            "players": state["players"],
            "hand": sorted(state["hands"][seat]) if seat is not None else None,
            "choice": dict(own_choice, cards=list(own_choice["cards"])) if own_choice else None,
            "chosen": [phase != "choose" or choice is not None for choice in state["chosen"]],
            "hand_sizes": [len(hand) for hand in state["hands"]],
            **self._table_view(state),
            "customer_deck": len(state["customer_deck"]),
            "action_deck": len(state["deck"]),
            "discard_pile": list(state["discard"]),
            "taken": [list(taken) for taken in state["taken"]],
            "gone": list(state["gone"]),
            "played": [list(cards) if cards is not None else None for cards in state["played"]],
            "queue": [{"card": card, "seat": owner} for card, owner in state["queue"]],
            "working": {**working, "left": dict(working["left"])} if working else None,
            "last_actor": state["last_actor"],
            "unload": {"seat": state["last_actor"], "room": showcase_room(state)} if phase == "unload" else None,
            "over": phase == "over",
            "log": [
                {key: list(value) if isinstance(value, list) else value for key, value in event.items()}
                for event in state["log"]
                if "only" not in event or seat in event["only"]
            ],
        }

    def _table_view(self, state: State) -> View:
        """The public table part of every view (what the bot reads): boards, stock, customers."""
        return {
            "boards": {name: dict(chips) for name, chips in state["boards"].items()},
            "stock": dict(state["stock"]),
            "customers": [self._customer_view(customer) for customer in state["customers"]],
        }

    @staticmethod
    def _customer_view(customer: dict[str, Any]) -> dict[str, Any]:
        """A customer on the mood track, with its card data and what it still lacks."""
        card = CUSTOMERS[customer["id"]]
        return {
            "id": customer["id"],
            "mood": customer["mood"],
            "chips": {p: customer["chips"][p] for p in PRODUCTS if customer["chips"].get(p)},
            "missing": missing(customer),
            "name": dict(card["name"]),
            "bonus": card["bonus"],
            "orders": list(card["orders"]),
            "effect": card["effect"],
        }

    def sealed_choices(self, log: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each "chose" commitment, opened by the same seat's next "reveal" (its cards, discard and salt)."""
        found: list[dict[str, Any]] = []
        waiting: dict[int, dict[str, Any]] = {}
        current = 0
        for event in log:
            kind = event.get("type")
            if kind == "round":
                current = event["round"]
            elif kind == "chose" and "commitment" in event:
                entry = {"round": current, "seat": event["seat"], "kind": "choice", "commitment": event["commitment"]}
                waiting[event["seat"]] = {**entry, "salt": None, "choice": None}
                found.append(waiting[event["seat"]])
            elif kind == "reveal" and "salt" in event and event["seat"] in waiting:
                entry = waiting.pop(event["seat"])
                entry["salt"] = event["salt"]
                entry["choice"] = {"cards": list(event["cards"]), "discard": event["discard"]}
        return found

    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""
        return state["phase"] == "over"

    def outcome(self, state: State) -> list[dict[str, int]]:
        """Ranks by points, then customers taken; tied seats share a rank."""
        if not self.is_over(state):
            raise ValueError("the game is not over")
        ranks = final_ranks(state)
        return [{"seat": seat, "rank": ranks[seat], "score": state["points"][seat]} for seat in range(state["players"])]

    def bot_move(self, state: State, seat: int) -> Move:
        """A greedy move chosen from the seat's own legal moves and the public table of its view."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise _illegal("game_over") if self.is_over(state) else _illegal("not_your_turn")
        return bot.obvious_move(moves) or bot.choose_move(self._bot_table_view(state), moves)

    @staticmethod
    def _bot_table_view(state: State) -> View:
        """The public table as the bot reads it: the part of ``_table_view`` it uses (boards, stock, and each
        customer's id, mood, bonus and what it lacks), the boards and stock not copied (the bot only reads them;
        its simulations work on copies). The search's playouts ask for it at every bot move (issue 28)."""
        return {
            "boards": state["boards"],
            "stock": state["stock"],
            "customers": [
                {"id": c["id"], "mood": c["mood"], "bonus": CUSTOMERS[c["id"]]["bonus"], "missing": missing(c)}
                for c in state["customers"]
            ],
        }


# The bot ---------------------------------------------------------------------------------


class Bot:
    """A greedy player that sees only its legal moves and the public table of its view.

    Steps are always taken (each scores a point); products go where open
    orders need them; hand-overs complete orders first, then serve the
    customers closest to leaving. A card is chosen by simulating it on the
    visible table.
    """

    @staticmethod
    def obvious_move(moves: list[Move]) -> Move | None:
        """The only move, or the only step (a step always scores a point); else ``None``."""
        if len(moves) == 1 or (len(moves) == 2 and moves[1]["type"] == "next"):
            return moves[0]
        return None

    def choose_move(self, view: View, moves: list[Move]) -> Move:
        """The bot's move among ``moves``, from the public table ``view`` alone."""
        kind = moves[0]["type"]
        table = self.table(view)
        if kind == "choose":
            simulated: dict[tuple, tuple[int, dict[str, Any]]] = {}
            return max(moves, key=lambda move: self.choice_value(table, move, simulated))
        if kind == "unload":
            return max(moves, key=lambda move: self.keep_value(table, move["keep"]))
        steps = [move for move in moves if move["type"] != "next"]
        return max(steps, key=lambda move: self.step_value(table, move))

    @staticmethod
    def table(view: View) -> dict[str, Any]:
        """The visible boards and open orders, with their total need (simulations work on a copy)."""
        customers = [
            {"id": c["id"], "mood": c["mood"], "bonus": c["bonus"], "missing": dict(c["missing"])}
            for c in view["customers"]
        ]
        need = no_chips()
        for customer in customers:
            for product, count in customer["missing"].items():
                need[product] += count
        return {"stock": view["stock"], **view["boards"], "customers": customers, "need": need}

    @staticmethod
    def copy_table(table: dict[str, Any]) -> dict[str, Any]:
        """A copy of ``table`` to simulate on."""
        trial = {key: dict(value) for key, value in table.items() if key != "customers"}
        trial["customers"] = [{**c, "missing": dict(c["missing"])} for c in table["customers"]]
        return trial

    def step_value(self, table: dict[str, Any], move: Move) -> tuple:
        """How good a step of a legal move is."""
        product = move["product"]
        if move["type"] == "prep":
            return self.prep_value(table, product)
        if move["type"] == "bake":
            return self.bake_value(table, product)
        customer = next(c for c in table["customers"] if c["id"] == move["customer"])
        return self.hand_over_value(customer, product)

    @staticmethod
    def prep_value(table: dict[str, Any], product: str) -> tuple:
        """Prep what open orders need beyond the chips already on the boards."""
        on_boards = table["cooking"][product] + table["stove"][product] + table["showcase"][product]
        return (table["need"][product] - on_boards,)

    @staticmethod
    def bake_value(table: dict[str, Any], product: str) -> tuple:
        """Bake what open orders need beyond the chips already baking or cooked."""
        return (table["need"][product] - table["stove"][product] - table["showcase"][product],)

    @staticmethod
    def hand_over_value(customer: dict[str, Any], product: str) -> tuple:
        """Complete orders first (big bonus first), then serve the customers closest to leaving."""
        left = sum(customer["missing"].values())
        return (left == 1, customer["bonus"] if left == 1 else 0, -customer["mood"], -left)

    @staticmethod
    def keep_value(table: dict[str, Any], keep: list[str]) -> int:
        """How many kept chips fill open orders not already covered by the showcase."""
        need = table["need"]
        return sum(min(keep.count(p), max(0, need[p] - table["showcase"][p])) for p in PRODUCTS)

    def choice_value(self, table: dict[str, Any], move: Move, simulated: dict[tuple, Any] | None = None) -> tuple:
        """Points the card(s) would score on the visible table; then lower numbers, then a high discard.

        ``simulated``: the tables after each run of cards already simulated in this decision, by their counts.
        A simulation depends only on the table and the cards' counts, and 60 cards have 14 kinds of counts, so
        a hand's dozens of pairs need a few simulations, not two each: the search's playouts call this for
        every choice of every seat (issue 28: most of a strong Konamon! decision's time)."""
        simulated = {} if simulated is None else simulated
        points, trial, run = 0, table, ()
        for card in move["cards"]:
            run += (ACTION_COUNTS[card],)
            if run not in simulated:
                after = self.copy_table(trial)
                simulated[run] = (points + self.simulate(after, ACTIONS[card]), after)
            points, trial = simulated[run]
        return (points, -sum(move["cards"]), move.get("discard") or 0)

    def simulate(self, table: dict[str, Any], counts: dict[str, int]) -> int:
        """Carry out a card greedily on ``table``, as the bot would; the points it scores.

        Each step takes the product (or customer) of the highest ``prep_value``/``bake_value``/``hand_over_value``,
        the first in ``PRODUCTS`` order (then the track's order) on a tie, as ``max`` would; written out
        because the search's playouts run it millions of times (issue 28)."""
        stock, cooking, stove, showcase = table["stock"], table["cooking"], table["stove"], table["showcase"]
        need = table["need"]
        points = 0
        for _ in range(counts["prep"]):
            if sum(cooking.values()) >= BOARD_LIMIT:
                break
            best, best_value = None, 0
            for p in PRODUCTS:
                if stock[p]:
                    value = need[p] - cooking[p] - stove[p] - showcase[p]
                    if best is None or value > best_value:
                        best, best_value = p, value
            if best is None:  # the stock is empty
                break
            stock[best] -= 1
            cooking[best] += 1
            points += 1
        for _ in range(counts["bake"]):
            if sum(stove.values()) >= BOARD_LIMIT:
                break
            best, best_value = None, 0
            for p in PRODUCTS:
                if cooking[p]:
                    value = need[p] - stove[p] - showcase[p]
                    if best is None or value > best_value:
                        best, best_value = p, value
            if best is None:  # nothing is cooking
                break
            cooking[best] -= 1
            stove[best] += 1
            points += 1
        for _ in range(counts["hand_over"]):
            # A customer's hand-over value does not depend on the product: one value per customer.
            values = {c["id"]: self.hand_over_value(c, "") for c in table["customers"]}
            best, best_value = None, None
            for p in PRODUCTS:
                if showcase[p]:
                    for c in table["customers"]:
                        if c["missing"].get(p) and (best is None or values[c["id"]] > best_value):
                            best, best_value = (c, p), values[c["id"]]
            if best is None:
                break
            points += 1 + self.serve(table, *best)
        return points

    @staticmethod
    def serve(table: dict[str, Any], customer: dict[str, Any], product: str) -> int:
        """Hand a showcase chip to ``customer`` on ``table``; the bonus it scores."""
        table["showcase"][product] -= 1
        table["need"][product] -= 1
        customer["missing"][product] -= 1
        if not customer["missing"][product]:
            del customer["missing"][product]
        if customer["missing"]:
            return 0
        table["customers"].remove(customer)
        return customer["bonus"]


bot = Bot()
engine = Konamon()
