"""Mamma Mia! (Uwe Rosenberg, 1999) as this project plays it: ``shared/rules/mamma-mia.md``.

The module reads like the rules file: set-up, phase 1 (into the oven), phase 2
(out of the oven), the next round, the end of the game, then what each seat may
see and a simple bot. One small function per rule, named after it.

State (plain JSON data):

- ``hands``: per seat ``{"toppings": {kind: n, ...all kinds}, "recipes": [ids]}``
- ``decks``: per seat, its recipe deck, top first
- ``kitchen``: the draw pile, top first (toppings and perhaps ``"mamma-mia"``)
- ``oven``: phase 1: the cards played this round, first played first;
  phase 2: the cards not yet revealed, next to reveal first
- ``table``: face-up toppings by kind; ``used``: the used pile by kind
- ``chef``: this round's chef or ``None``; the Mamma Mia card is in the kitchen
  while ``"mamma-mia"`` is there, else in front of the chef
- ``deciding``: ``{"seat", "recipe"}`` while phase 2 awaits an owner, else ``None``
- ``log``: structured events (see ``EVENTS``); an event with ``"only": [seat]``
  is private to that seat.

Memory and the log. Under ``memory=strict`` a seat "heard" the announcements
made since its own previous turn. The log follows the same rule: the phase-1
events ``turn``, ``pass`` and ``drew`` are shown to a seat only from its own most
recent ``turn``/``pass`` event on (that event included, so a seat still sees what
it just did and a full cycle of announcements when its turn comes); older ones
are left out of its view, whatever the round. All other events (round starts,
the chef, the oven's reveal in phase 2, bakes, returns, shuffles) are public
facts and always shown. A spectator hears what any seat heard: the window
starts at the oldest of the seats' most recent turns (in plain rotation, what
the seat to move heard). Under ``memory=open`` every announcement stays shown.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from games.engines.base import Engine, IllegalMove, State, next_rng, rank_by

# --- Card data (mamma_mia/data.json, the house recipe table) ----------------------

_DATA = json.loads((Path(__file__).resolve().parent / "data.json").read_text(encoding="utf-8"))

TOPPINGS: tuple[str, ...] = tuple(_DATA["toppings"])  # the canonical order
COLOURS: tuple[str, ...] = tuple(item["colour"] for item in _DATA["colours"])  # seat order
SIGNATURES: dict[str, str] = {item["colour"]: item["signature"] for item in _DATA["colours"]}
RECIPES: dict[str, dict[str, Any]] = {item["id"]: item for item in _DATA["recipes"]}
COLOUR_RECIPES: dict[str, list[str]] = {c: [r for r, item in RECIPES.items() if item["colour"] == c] for c in COLOURS}
RECIPE_KINDS = ("classic", "bombastica", "monotoni", "minimale")
NAMED_KIND_RECIPES = ("monotoni", "minimale")  # the owner names a kind when revealed

MAMMA_MIA = "mamma-mia"
COPIES = 13  # toppings of each kind in the box
REMOVED = {2: 5, 3: 3, 4: 1, 5: 0}  # toppings of each kind back in the box, by player count
DEALT = 6  # toppings dealt to each player
HAND_LIMIT = 7  # refill up to this
ROUNDS = 3
SOURCES = ("kitchen", "recipes")


def _check_data() -> None:
    """Refuse a recipe file the engine cannot play (at import, so a bad printed set fails loudly)."""
    problems = []
    if len(set(TOPPINGS)) != len(TOPPINGS) or MAMMA_MIA in TOPPINGS or set(TOPPINGS) & set(RECIPES):
        problems.append("topping ids must be distinct from each other, the Mamma Mia card and recipe ids")
    if len(COLOURS) < 5:
        problems.append("one colour per seat, 5 seats")
    for colour in COLOURS:
        if SIGNATURES[colour] not in TOPPINGS or not COLOUR_RECIPES[colour]:
            problems.append(f"colour {colour}: unknown signature or no recipes")
    for recipe_id, card in RECIPES.items():
        extra = {"bombastica": "at_least", "monotoni": "same", "minimale": "scarcest"}.get(card["kind"])
        if card["kind"] not in RECIPE_KINDS or card["colour"] not in COLOURS or (extra and extra not in card):
            problems.append(f"recipe {recipe_id}: unknown kind or colour, or its count missing")
        if not all(kind in TOPPINGS and n >= 1 for kind, n in card["needs"].items()):
            problems.append(f"recipe {recipe_id}: needs unknown toppings")
    if problems:
        raise ValueError("mamma_mia/data.json: " + "; ".join(problems))


_check_data()

# --- What the platform renders and translates --------------------------------------------------

MESSAGES: dict[str, str] = {
    "game_over": "The game is over.",
    "not_your_turn": "It is not your move now.",
    "not_a_move": 'A move is an object with a "type".',
    "wrong_move": "Now the game expects a move of type {expected}.",
    "bad_keys": "A {type} move has exactly the keys {keys}.",
    "unknown_topping": "{topping} is not a topping.",
    "bad_count": "Play a whole number of at least 1 toppings.",
    "not_in_hand": "You do not hold {count} {topping}.",
    "must_play_topping": "You hold toppings: play 1 or more of one kind.",
    "must_pass": "You hold no topping, so you pass: topping null and count 0.",
    "no_recipe_when_passing": "A player who passes may not play a recipe.",
    "unknown_recipe": "{recipe} is not a recipe card.",
    "recipe_not_in_hand": "You do not hold the recipe {recipe}.",
    "bad_draw_source": "Draw from kitchen or recipes.",
    "must_draw": "Your hand is short: draw from the kitchen or from your recipe deck.",
    "hand_full": "Your hand is full: draw nothing (draw null).",
    "empty_source": "There is no card in {source}: draw from the other source.",
    "bad_kind": "Name one of {kinds} for {recipe}.",
    "no_kind": "{recipe} names no kind: kind must be null.",
    "bad_add": "add maps topping kinds to whole numbers of at least 1.",
    "wrong_add": "{recipe} with this kind lacks exactly {needed}: add that.",
    "wrong_add_count": "{recipe} lacks {count} toppings: add exactly that many, of any kinds.",
    "cannot_decline": "The table alone completes {recipe}: it is baked, you only choose how.",
}

EVENTS: dict[str, str] = {
    "round": "Round {round} begins; seat {first} starts.",
    "turn": "Seat {seat} put {count} {topping} into the oven, then recipe {recipe}, and drew {drew} from {draw}.",
    "pass": "Seat {seat} held no topping and passed, then drew {drew} from {draw}.",
    "drew": "You drew toppings {toppings} and recipes {recipes}.",
    "chef": "Seat {seat} is chef this round ({reason}).",
    "open": "The oven opens ({reason}); chef: seat {chef}.",
    "reveal": "Revealed from the oven: {card}.",
    "baked": "Seat {seat} baked {recipe} (kind {kind}), adding {added} from hand; used {used}.",
    "returned": "Recipe {recipe} goes back under seat {seat}'s recipe deck (declined: {declined}).",
    "shuffle": "The used toppings and the Mamma Mia card make the new kitchen of {kitchen} cards.",
    "end": "The game is over; winners: {winners}.",
    # Only in views, never in the state's log: an announcement the viewer no longer hears (strict memory).
    "forgotten": "Seat {seat} made an announcement you no longer remember ({what}).",
}

# Announcement events: subject to the memory option (see the module docstring).
HEARD_EVENTS = frozenset({"turn", "pass", "drew"})


def _plain(value: Any) -> str:
    """A param as an English reader wants it: {"salami": 2} -> "2 salami"; lists joined."""
    if isinstance(value, dict):
        return ", ".join(f"{n} {kind}" for kind, n in value.items()) or "nothing"
    if isinstance(value, (list, tuple)):
        return " or ".join(str(item) for item in value)
    return str(value)


def _illegal(code: str, **params: Any) -> IllegalMove:
    """An IllegalMove whose message is MESSAGES[code] filled with params."""
    message = MESSAGES[code].format(**{name: _plain(value) for name, value in params.items()})
    return IllegalMove(message, code=code, **params)


def _is_count(value: Any) -> bool:
    """A plain int (not a bool, not a float)."""
    return type(value) is int


def _kinds(counts: dict[str, int] | None = None) -> dict[str, int]:
    """A by-kind count with every kind present, in canonical order."""
    counts = counts or {}
    return {kind: counts.get(kind, 0) for kind in TOPPINGS}


def _positive(counts: dict[str, int]) -> dict[str, int]:
    """Only the kinds with a count, canonical order (the shape of ``add`` and log fields)."""
    return {kind: counts[kind] for kind in TOPPINGS if counts.get(kind, 0) > 0}


def owner_of(recipe_id: str) -> int:
    """The seat whose colour the recipe's back shows."""
    return COLOURS.index(RECIPES[recipe_id]["colour"])


# --- Set-up ------------------------------------------------------------------------------------


def toppings_in_play(players: int) -> list[str]:
    """Set-up 1: 13 of each kind less the removals for the player count, canonical order."""
    return [kind for kind in TOPPINGS for _ in range(COPIES - REMOVED[players])]


def check_deal(deal: Any, players: int) -> None:
    """The stacked ``deal`` must hold exactly the set-up's cards; else ``ValueError``."""
    if not isinstance(deal, dict) or set(deal) != {"first", "hands", "recipes", "kitchen"}:
        raise ValueError("deal needs exactly the keys first, hands, recipes, kitchen")
    first, hands, recipes, kitchen = deal["first"], deal["hands"], deal["recipes"], deal["kitchen"]
    if not _is_count(first) or not 0 <= first < players:
        raise ValueError("deal first must be a seat")
    if not isinstance(hands, list) or len(hands) != players:
        raise ValueError("deal hands needs one hand per seat")
    if not all(isinstance(hand, list) and len(hand) == DEALT for hand in hands):
        raise ValueError(f"each dealt hand holds {DEALT} toppings")
    if not isinstance(kitchen, list) or kitchen.count(MAMMA_MIA) != 1:
        raise ValueError("the kitchen holds the Mamma Mia card once")
    dealt = [card for hand in hands for card in hand] + [card for card in kitchen if card != MAMMA_MIA]
    if not all(isinstance(card, str) for card in dealt) or sorted(dealt) != sorted(toppings_in_play(players)):
        raise ValueError("hands and kitchen must hold exactly the toppings in play for this player count")
    if not isinstance(recipes, list) or len(recipes) != players:
        raise ValueError("deal recipes needs one deck per seat")
    for seat, deck in enumerate(recipes):
        own = COLOUR_RECIPES[COLOURS[seat]]
        if not isinstance(deck, list) or not all(isinstance(r, str) for r in deck) or sorted(deck) != sorted(own):
            raise ValueError(f"seat {seat}'s deck must be exactly the {COLOURS[seat]} recipes")


def shuffled_setup(state: State) -> dict[str, Any]:
    """Set-up 2-5 with the seeded shuffle: deal, kitchen, recipe decks and first player."""
    players = state["players"]
    rng = next_rng(state)
    toppings = toppings_in_play(players)
    rng.shuffle(toppings)
    hands = [toppings[seat * DEALT : (seat + 1) * DEALT] for seat in range(players)]
    kitchen = toppings[players * DEALT :] + [MAMMA_MIA]
    rng.shuffle(kitchen)
    decks = []
    for seat in range(players):
        deck = list(COLOUR_RECIPES[COLOURS[seat]])
        rng.shuffle(deck)
        decks.append(deck)
    return {"first": rng.randrange(players), "hands": hands, "recipes": decks, "kitchen": kitchen}


def new_round(state: State, first: int) -> None:
    """A round begins: the given player starts, the oven is empty, nobody is chef yet."""
    state["first"] = first
    state["turn"] = first
    state["chef"] = None
    state["phase"] = 1
    state["quiet"] = 0
    state["oven"] = []
    state["round_start"] = len(state["log"])
    state["log"].append({"type": "round", "round": state["round"], "first": first})


# --- Phase 1: into the oven --------------------------------------------------------------------


def has_topping(hand: dict[str, Any]) -> bool:
    """Whether the hand holds any topping (else its owner passes)."""
    return any(hand["toppings"].values())


def hand_size(hand: dict[str, Any]) -> int:
    """Cards in a hand: toppings and recipes."""
    return sum(hand["toppings"].values()) + len(hand["recipes"])


def source_cards(state: State, seat: int, source: str) -> int:
    """How many cards a refill source holds for that seat."""
    return len(state["kitchen"]) if source == "kitchen" else len(state["decks"][seat])


def allowed_sources(state: State, seat: int) -> list[str]:
    """Refill [reading]: a source with no card may not be chosen while the other has cards."""
    stocked = [source for source in SOURCES if source_cards(state, seat, source)]
    return stocked or list(SOURCES)


def check_turn(state: State, seat: int, move: dict[str, Any]) -> None:
    """Raise IllegalMove unless ``move`` is a legal phase-1 turn for ``seat``."""
    _check_keys(move, ("type", "topping", "count", "recipe", "draw"))
    hand = state["hands"][seat]
    topping, count, recipe, draw = move["topping"], move["count"], move["recipe"], move["draw"]
    if has_topping(hand):
        if topping is None:
            raise _illegal("must_play_topping")
        if not isinstance(topping, str) or topping not in TOPPINGS:
            raise _illegal("unknown_topping", topping=str(topping))
        if not _is_count(count) or count < 1:
            raise _illegal("bad_count")
        if hand["toppings"][topping] < count:
            raise _illegal("not_in_hand", topping=topping, count=count)
        if recipe is not None:
            if not isinstance(recipe, str) or recipe not in RECIPES:
                raise _illegal("unknown_recipe", recipe=str(recipe))
            if recipe not in hand["recipes"]:
                raise _illegal("recipe_not_in_hand", recipe=recipe)
    else:
        if topping is not None or not _is_count(count) or count != 0:
            raise _illegal("must_pass")
        if recipe is not None:
            raise _illegal("no_recipe_when_passing")
    left = hand_size(hand) - count - (recipe is not None)
    if left >= HAND_LIMIT:
        if draw is not None:
            raise _illegal("hand_full")
        return
    if draw is None:
        raise _illegal("must_draw")
    if not isinstance(draw, str) or draw not in SOURCES:
        raise _illegal("bad_draw_source")
    if draw not in allowed_sources(state, seat):
        raise _illegal("empty_source", source=draw)


def put_toppings_in_oven(state: State, seat: int, topping: str, count: int) -> None:
    """Phase 1a: toppings of one kind from hand onto the oven, announced."""
    state["hands"][seat]["toppings"][topping] -= count
    state["oven"].extend([topping] * count)


def put_recipe_in_oven(state: State, seat: int, recipe: str) -> None:
    """Phase 1b: at most one recipe from hand onto the oven, face up."""
    state["hands"][seat]["recipes"].remove(recipe)
    state["oven"].append(recipe)


def draw_from_kitchen(state: State, seat: int, wanted: int, drawn: dict[str, Any]) -> None:
    """Refill from the kitchen; the Mamma Mia card goes in front of its drawer (the chef) and is replaced."""
    hand, kitchen = state["hands"][seat], state["kitchen"]
    while wanted and kitchen:
        card = kitchen.pop(0)
        if card == MAMMA_MIA:
            state["chef"] = seat
            drawn["mamma_mia"] = True
            continue
        hand["toppings"][card] += 1
        drawn["toppings"][card] = drawn["toppings"].get(card, 0) + 1
        wanted -= 1


def draw_from_recipes(state: State, seat: int, wanted: int, drawn: dict[str, Any]) -> None:
    """Refill from one's own recipe deck, top first; a short deck gives what it has."""
    deck = state["decks"][seat]
    cards = deck[:wanted]
    del deck[:wanted]
    state["hands"][seat]["recipes"].extend(cards)
    drawn["recipes"].extend(cards)


def refill(state: State, seat: int, source: str | None) -> dict[str, Any]:
    """Phase 1c: draw up to 7 from one source; returns what was drawn."""
    drawn: dict[str, Any] = {"toppings": {}, "recipes": [], "mamma_mia": False}
    wanted = HAND_LIMIT - hand_size(state["hands"][seat])
    if source == "kitchen":
        draw_from_kitchen(state, seat, wanted, drawn)
    elif source == "recipes":
        draw_from_recipes(state, seat, wanted, drawn)
    return drawn


def announce(state: State, seat: int, move: dict[str, Any], drawn: dict[str, Any]) -> None:
    """Log the turn (public), the new chef (public) and what was drawn (the drawer's eyes only)."""
    count = sum(drawn["toppings"].values()) + len(drawn["recipes"])
    log = state["log"]
    if move["topping"] is None:
        log.append({"type": "pass", "seat": seat, "draw": move["draw"], "drew": count})
    else:
        log.append(
            {
                "type": "turn",
                "seat": seat,
                "topping": move["topping"],
                "count": move["count"],
                "recipe": move["recipe"],
                "draw": move["draw"],
                "drew": count,
            }
        )
    if drawn["mamma_mia"]:
        log.append({"type": "chef", "seat": seat, "reason": MAMMA_MIA})
    if count:
        toppings = _positive(drawn["toppings"])
        log.append({"type": "drew", "seat": seat, "only": [seat], "toppings": toppings, "recipes": drawn["recipes"]})


def stalled(state: State) -> bool:
    """Stall rule [reading]: a full cycle of passes in which no card moved ends phase 1."""
    return state["quiet"] >= state["players"]


def play_turn(state: State, seat: int, move: dict[str, Any]) -> None:
    """One phase-1 turn: toppings, perhaps a recipe, refill; then phase 1 may end."""
    before = len(state["kitchen"]) + len(state["decks"][seat])
    if move["topping"] is not None:
        put_toppings_in_oven(state, seat, move["topping"], move["count"])
        if move["recipe"] is not None:
            put_recipe_in_oven(state, seat, move["recipe"])
    drawn = refill(state, seat, move["draw"])
    announce(state, seat, move, drawn)
    moved = move["topping"] is not None or len(state["kitchen"]) + len(state["decks"][seat]) != before
    state["quiet"] = 0 if moved else state["quiet"] + 1
    if not state["kitchen"]:
        end_phase_1(state, "kitchen")
    elif stalled(state):
        end_phase_1(state, "stall")
    else:
        state["turn"] = (seat + 1) % state["players"]


def end_phase_1(state: State, reason: str) -> None:
    """Phase 1 ends (last kitchen card drawn, or the stall rule); with no chef, the starter is chef."""
    if state["chef"] is None:
        state["chef"] = state["first"]
        state["log"].append({"type": "chef", "seat": state["first"], "reason": "stall"})
    state["phase"] = 2
    state["turn"] = None
    state["log"].append({"type": "open", "chef": state["chef"], "reason": reason})
    run_oven(state)


# --- Phase 2: out of the oven ------------------------------------------------------------------


def fixed_way(kind: str | None, needs: dict[str, int], table: dict[str, int], hand: dict[str, int]) -> list:
    """A recipe with fixed needs: the way to bake it (kind, add, needs), if the hand covers the shortfall."""
    add = {k: n - table[k] for k, n in needs.items() if n > table[k]}
    if all(hand[k] >= n for k, n in add.items()):
        return [(kind, _positive(add), needs)]
    return []


def scarcest_kinds(card: dict[str, Any], table: dict[str, int]) -> list[str]:
    """Minimale [reading]: the table's kinds with at least 1 card, not on the card, having the fewest."""
    candidates = [kind for kind in TOPPINGS if table[kind] >= 1 and kind not in card["needs"]]
    if not candidates:
        return []
    fewest = min(table[kind] for kind in candidates)
    return [kind for kind in candidates if table[kind] == fewest]


def monotoni_kinds(card: dict[str, Any]) -> list[str]:
    """Monotoni: any kind the owner names, except the card's own (signature) kind."""
    return [kind for kind in TOPPINGS if kind not in card["needs"]]


def multisets(hand: dict[str, int], size: int, kinds: tuple[str, ...] = TOPPINGS) -> list[dict[str, int]]:
    """Every way to take ``size`` toppings from the hand's counts, as canonical by-kind dicts."""
    if size == 0:
        return [{}]
    if not kinds:
        return []
    first, rest = kinds[0], kinds[1:]
    ways = []
    for take in range(min(hand[first], size), -1, -1):
        for tail in multisets(hand, size - take, rest):
            ways.append({first: take, **tail} if take else tail)
    return ways


def bombastica_ways(card: dict[str, Any], table: dict[str, int], hand: dict[str, int]) -> list:
    """Bombastica: 15+ toppings of any kinds, using all of the table; the owner may add the shortfall."""
    short = card["at_least"] - sum(table.values())
    if short <= 0:
        return [(None, {}, None)]
    return [(None, add, None) for add in multisets(hand, short)]


def ways_to_bake(recipe: str, table: dict[str, int], hand: dict[str, int]) -> list:
    """Every way the owner can bake this recipe now: (named kind, toppings added from hand, needs).

    ``needs`` is ``None`` for Bombastica, which uses the whole table.
    """
    card = RECIPES[recipe]
    if card["kind"] == "classic":
        return fixed_way(None, card["needs"], table, hand)
    if card["kind"] == "bombastica":
        return bombastica_ways(card, table, hand)
    if card["kind"] == "monotoni":
        kinds, extra = monotoni_kinds(card), card["same"]
    else:
        kinds, extra = scarcest_kinds(card, table), card["scarcest"]
    ways = []
    for kind in kinds:
        needs = dict(card["needs"])
        needs[kind] = needs.get(kind, 0) + extra
        ways.extend(fixed_way(kind, needs, table, hand))
    return ways


def table_alone_bakes(ways: list) -> bool:
    """Whether some way needs nothing from hand (then the recipe is always baked)."""
    return any(not add for _, add, _ in ways)


def needs_decision(ways: list) -> bool:
    """Decisions [reading]: ask only where there is a choice (how, or whether to add at all)."""
    return len(ways) > 1 or (len(ways) == 1 and not table_alone_bakes(ways))


def bake(state: State, seat: int, recipe: str, way: tuple) -> None:
    """The pizza is baked: the toppings it uses (table and added) go to the used pile, the recipe to its owner."""
    kind, add, needs = way
    table, used, hand = state["table"], state["used"], state["hands"][seat]["toppings"]
    for topping, n in add.items():
        hand[topping] -= n
        table[topping] += n
    if needs is None:  # Bombastica uses every table topping
        needs = dict(table)
    for topping, n in needs.items():
        table[topping] -= n
        used[topping] += n
    state["baked"][seat].append(recipe)
    state["log"].append(
        {"type": "baked", "seat": seat, "recipe": recipe, "kind": kind, "added": dict(add), "used": _positive(needs)}
    )


def send_back(state: State, seat: int, recipe: str, declined: bool) -> None:
    """An unbaked recipe goes face down under its owner's recipe deck (not shuffled)."""
    state["decks"][seat].append(recipe)
    state["log"].append({"type": "returned", "seat": seat, "recipe": recipe, "declined": declined})


def reveal_recipe(state: State, recipe: str) -> bool:
    """Check a revealed recipe; bake or return it when nobody has a choice. True if its owner must decide."""
    seat = owner_of(recipe)
    ways = ways_to_bake(recipe, state["table"], state["hands"][seat]["toppings"])
    if not ways:
        send_back(state, seat, recipe, declined=False)
        return False
    if needs_decision(ways):
        state["deciding"] = {"seat": seat, "recipe": recipe}
        return True
    bake(state, seat, recipe, ways[0])
    return False


def run_oven(state: State) -> None:
    """Reveal the oven in play order until an owner must decide or the oven is empty."""
    oven, log = state["oven"], state["log"]
    while oven:
        card = oven.pop(0)
        log.append({"type": "reveal", "card": card})
        if card in TOPPINGS:
            state["table"][card] += 1
        elif reveal_recipe(state, card):
            return
    end_round(state)


def check_decision(state: State, seat: int, move: dict[str, Any]) -> tuple | None:
    """Raise IllegalMove unless ``move`` is a legal phase-2 decision; returns the chosen way (None: decline)."""
    recipe = state["deciding"]["recipe"]
    ways = ways_to_bake(recipe, state["table"], state["hands"][seat]["toppings"])
    if move["type"] == "decline":
        _check_keys(move, ("type",))
        if table_alone_bakes(ways):
            raise _illegal("cannot_decline", recipe=recipe)
        return None
    _check_keys(move, ("type", "kind", "add"))
    kind, add = move["kind"], move["add"]
    named = RECIPES[recipe]["kind"] in NAMED_KIND_RECIPES
    kinds = sorted({way[0] for way in ways}, key=TOPPINGS.index) if named else []
    if named and (not isinstance(kind, str) or kind not in kinds):
        raise _illegal("bad_kind", recipe=recipe, kinds=kinds)
    if not named and kind is not None:
        raise _illegal("no_kind", recipe=recipe)
    if not isinstance(add, dict) or not all(k in TOPPINGS and _is_count(n) and n >= 1 for k, n in add.items()):
        raise _illegal("bad_add")
    hand = state["hands"][seat]["toppings"]
    for topping, n in add.items():
        if hand[topping] < n:
            raise _illegal("not_in_hand", topping=topping, count=n)
    for way in ways:
        if way[0] == kind and way[1] == add:
            return way
    if RECIPES[recipe]["kind"] == "bombastica":
        raise _illegal("wrong_add_count", recipe=recipe, count=sum(ways[0][1].values()))
    needed = next(way[1] for way in ways if way[0] == kind)
    raise _illegal("wrong_add", recipe=recipe, needed=needed)


def decide(state: State, seat: int, way: tuple | None) -> None:
    """The owner's decision: bake one way, or decline (back under the deck); then the oven goes on."""
    recipe = state["deciding"]["recipe"]
    state["deciding"] = None
    if way is None:
        send_back(state, seat, recipe, declined=True)
    else:
        bake(state, seat, recipe, way)
    run_oven(state)


# --- Next round, end of the game ---------------------------------------------------------------


def new_kitchen(state: State) -> None:
    """The used pile and the Mamma Mia card (and, after a stall, the undrawn kitchen) shuffled: the new kitchen."""
    kitchen = state["kitchen"] + [kind for kind in TOPPINGS for _ in range(state["used"][kind])]
    if MAMMA_MIA not in kitchen:
        kitchen.append(MAMMA_MIA)
    next_rng(state).shuffle(kitchen)
    state["kitchen"] = kitchen
    state["used"] = _kinds()
    state["log"].append({"type": "shuffle", "kitchen": len(kitchen)})


def end_round(state: State) -> None:
    """After the last oven card: leftovers stay on the table; the chef starts the next round, or the game ends."""
    if state["round"] >= ROUNDS:
        state["over"] = True
        state["turn"] = None
        ranks = ranking(state)
        state["log"].append({"type": "end", "winners": [seat for seat, rank in enumerate(ranks) if rank == 1]})
        return
    new_kitchen(state)
    state["round"] += 1
    new_round(state, state["chef"])


def ranking(state: State) -> list[int]:
    """End of the game: most baked recipes; tie: most toppings left in hand; still tied: shared place."""
    keys = [(len(state["baked"][seat]), sum(hand["toppings"].values())) for seat, hand in enumerate(state["hands"])]
    return rank_by(keys)


# --- Moves -------------------------------------------------------------------------------------


def _check_keys(move: dict[str, Any], keys: tuple[str, ...]) -> None:
    """A move has exactly its type's keys."""
    if set(move) != set(keys):
        raise _illegal("bad_keys", type=move["type"], keys=list(keys))


def turn_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Every legal phase-1 turn of the seat to move."""
    hand = state["hands"][seat]
    size = hand_size(hand)
    sources = allowed_sources(state, seat)
    if not has_topping(hand):
        draws = [None] if size >= HAND_LIMIT else sources
        return [{"type": "turn", "topping": None, "count": 0, "recipe": None, "draw": d} for d in draws]
    moves = []
    for topping in TOPPINGS:
        for count in range(1, hand["toppings"][topping] + 1):
            for recipe in [None, *hand["recipes"]]:
                left = size - count - (recipe is not None)
                for draw in [None] if left >= HAND_LIMIT else sources:
                    moves.append({"type": "turn", "topping": topping, "count": count, "recipe": recipe, "draw": draw})
    return moves


def decision_moves(state: State, seat: int) -> list[dict[str, Any]]:
    """Every legal phase-2 decision of the owner asked."""
    recipe = state["deciding"]["recipe"]
    ways = ways_to_bake(recipe, state["table"], state["hands"][seat]["toppings"])
    moves = [{"type": "bake", "kind": kind, "add": dict(add)} for kind, add, _ in ways]
    if not table_alone_bakes(ways):
        moves.append({"type": "decline"})
    return moves


def copy_state(state: State) -> State:
    """A copy deep enough that play never changes its input (log events are never changed once written)."""
    new = dict(state)
    new["hands"] = [{"toppings": dict(h["toppings"]), "recipes": list(h["recipes"])} for h in state["hands"]]
    new["decks"] = [list(deck) for deck in state["decks"]]
    new["baked"] = [list(baked) for baked in state["baked"]]
    new["kitchen"] = list(state["kitchen"])
    new["oven"] = list(state["oven"])
    new["table"] = dict(state["table"])
    new["used"] = dict(state["used"])
    new["options"] = dict(state["options"])
    new["deciding"] = dict(state["deciding"]) if state["deciding"] else None
    new["log"] = list(state["log"])
    return new


# --- What each seat may see --------------------------------------------------------------------


def memory_start(state: State, seat: int | None) -> int:
    """The log index from which a seat heard the announcements (see the module docstring)."""
    if state["options"]["memory"] == "open":
        return 0
    log, players = state["log"], state["players"]
    latest: dict[int, int] = {}
    for index in range(len(log) - 1, -1, -1):
        event = log[index]
        if event["type"] in ("turn", "pass") and event["seat"] not in latest:
            latest[event["seat"]] = index
            if seat is not None and event["seat"] == seat:
                return index
            if len(latest) == players:
                break
    if seat is not None or len(latest) < players:
        return 0
    return min(latest.values())


def visible_log(state: State, seat: int | None, since: int = 0, copy: bool = True) -> list[dict[str, Any]]:
    """The events from ``since`` on that the seat may see, private markers stripped. An announcement the
    seat heard but no longer remembers (strict memory) stays in its place as a ``forgotten`` event naming
    only the seat and whether it was a play (``turn`` or ``pass``, not which) or the seat's own draw: the
    log says that something was forgotten without saying what, and each viewer's log only ever grows."""
    start = memory_start(state, seat)
    events = []
    log = state["log"]
    for index in range(since, len(log)):
        event = log[index]
        if "only" in event and seat not in event["only"]:
            continue
        if index < start and event["type"] in HEARD_EVENTS:
            what = "draw" if event["type"] == "drew" else "play"
            events.append({"type": "forgotten", "seat": event.get("seat", seat), "what": what})
            continue
        if copy or "only" in event:
            event = {
                k: (list(v) if isinstance(v, list) else dict(v) if isinstance(v, dict) else v)
                for k, v in event.items()
                if k != "only"
            }
        events.append(event)
    return events


def oven_top(state: State) -> str | None:
    """Phase 1: the oven's top card is face up; phase 2: the pile is face down."""
    return state["oven"][-1] if state["phase"] == 1 and state["oven"] else None


def make_view(state: State, seat: int | None, since: int = 0, copy: bool = True) -> dict[str, Any]:
    """The view of ``seat`` (``since`` trims the log for the bot's own cheap look)."""
    players = state["players"]
    hand = None
    if seat is not None:
        own = state["hands"][seat]
        hand = {"toppings": dict(own["toppings"]), "recipes": list(own["recipes"])}
    return {
        "seat": seat,
        "round": state["round"],
        "phase": state["phase"],
        "waiting_for": engine.waiting_for(state),
        "scores": [len(baked) for baked in state["baked"]],
        "log": visible_log(state, seat, since, copy),
        "players": players,
        "memory": state["options"]["memory"],
        "colours": list(COLOURS[:players]),
        "first": state["first"],
        "turn": state["turn"],
        "hand": hand,
        "hand_sizes": [hand_size(h) for h in state["hands"]],
        "recipe_decks": [len(deck) for deck in state["decks"]],
        "kitchen": len(state["kitchen"]),
        "chef": state["chef"],
        "oven": {"size": len(state["oven"]), "top": oven_top(state)},
        "table": dict(state["table"]),
        "used": sum(state["used"].values()),
        "baked": [list(baked) for baked in state["baked"]],
        "deciding": dict(state["deciding"]) if state["deciding"] else None,
        "over": state["over"],
    }


# --- The bot: it looks only at its own view ----------------------------------------------------

# How many toppings of each kind an unheard oven card is worth, on average, once other recipes ate theirs.
UNHEARD_TOPPING_SHARE = 0.8
# The least score (10 sure, 6 guessed, less the cards it costs) for which the bot plays a recipe.
PLAY_THRESHOLD = 3.0


def estimated_oven(view: dict[str, Any]) -> tuple[dict[str, float], dict[str, int]]:
    """What the table will hold when a recipe played now is revealed: (estimate with the unheard oven cards
    guessed, the part known from the table and the announcements heard)."""
    certain = dict(view["table"])
    heard = [e for e in view["log"] if e["type"] in ("turn", "pass")]
    heard_cards = sum(e["count"] + (e["recipe"] is not None) for e in heard if e["type"] == "turn")
    unheard = max(0, view["oven"]["size"] - heard_cards)
    hand = view["hand"]["toppings"]
    in_play = COPIES - REMOVED[view["players"]]
    seen = {k: certain[k] + hand[k] + sum(e["count"] for e in heard if e.get("topping") == k) for k in TOPPINGS}
    weights = {k: max(0, in_play - seen[k]) for k in TOPPINGS}
    total = sum(weights.values()) or 1
    guess = {k: unheard * UNHEARD_TOPPING_SHARE * weights[k] / total for k in TOPPINGS}
    estimate = {k: certain[k] + guess[k] for k in TOPPINGS}
    for event in heard:
        if event["type"] != "turn":
            continue
        for pool in (estimate, certain):
            pool[event["topping"]] += event["count"]
            if event["recipe"] is not None:
                consume(pool, event["recipe"])
    return estimate, certain


def consume(pool: dict[str, float], recipe: str) -> None:
    """Guess what an earlier recipe in the oven takes from the table when revealed (if the table has it)."""
    card = RECIPES[recipe]
    if card["kind"] == "bombastica":
        if sum(pool.values()) >= card["at_least"]:
            for kind in TOPPINGS:
                pool[kind] = 0
        return
    needs = dict(card["needs"])
    if card["kind"] in NAMED_KIND_RECIPES:
        options = [k for k in TOPPINGS if k not in needs and pool[k] >= 1]
        if not options:
            return
        pick = max(options, key=pool.get) if card["kind"] == "monotoni" else min(options, key=pool.get)
        needs[pick] = card.get("same") or card.get("scarcest")
    if all(pool[kind] >= n for kind, n in needs.items()):
        for kind, n in needs.items():
            pool[kind] -= n


def floor_counts(pool: dict[str, float]) -> dict[str, int]:
    """Whole cards only."""
    return {k: int(v) for k, v in pool.items()}


def missing_cards(needs: dict[str, int], table: dict[str, int], hand: dict[str, int], extra: tuple = ()) -> int | None:
    """How many cards the hand must add to these needs (plus ``extra``: (kind, n)), or None if it cannot."""
    total = 0
    for kind, n in (*needs.items(), *extra):
        missing = n - table[kind]
        if missing > 0:
            if hand[kind] < missing:
                return None
            total += missing
    return total


def cheapest_add(recipe: str, table: dict[str, int], hand: dict[str, int]) -> int | None:
    """Fewest cards from hand that bake the recipe against this table, or None if it cannot (the bot's
    fast count of what ``ways_to_bake`` would list)."""
    card = RECIPES[recipe]
    if card["kind"] == "bombastica":  # any kinds will do
        short = max(0, card["at_least"] - sum(table.values()))
        return short if sum(hand.values()) >= short else None
    if card["kind"] == "classic":
        return missing_cards(card["needs"], table, hand)
    if card["kind"] == "monotoni":
        kinds, n = monotoni_kinds(card), card["same"]
    else:
        kinds, n = scarcest_kinds(card, table), card["scarcest"]
    counts = [missing_cards(card["needs"], table, hand, ((kind, n),)) for kind in kinds]
    return min((c for c in counts if c is not None), default=None)


def kinds_wanted(recipes: list[str], pool: dict[str, float]) -> dict[str, float]:
    """How much the hand's recipes still want each kind on the table."""
    wanted = dict.fromkeys(TOPPINGS, 0.0)
    for recipe in recipes:
        card = RECIPES[recipe]
        for kind, n in card["needs"].items():
            wanted[kind] += max(0.0, n - pool[kind])
    return wanted


def choose_turn(view: dict[str, Any]) -> dict[str, Any]:
    """A phase-1 turn: play a recipe when the oven (heard and guessed) plus the hand can bake it."""
    hand = view["hand"]
    toppings, recipes = hand["toppings"], hand["recipes"]
    if not any(toppings.values()):
        return {"type": "turn", "topping": None, "count": 0, "recipe": None, "draw": choose_draw(view, 0, False)}
    estimate, known = estimated_oven(view)
    pools = ((floor_counts(known), 10.0), (floor_counts(estimate), 6.0))  # (table, confidence)
    best = None  # (score, kind, count, recipe)
    for recipe in recipes:
        needs = RECIPES[recipe]["needs"]
        for kind in TOPPINGS:
            have = toppings[kind]
            if not have:
                continue
            count = max(1, min(have, needs.get(kind, 0) - int(estimate[kind])))
            after = dict(toppings)
            after[kind] -= count
            for pool, confidence in pools:
                table = dict(pool)
                table[kind] += count
                add = cheapest_add(recipe, table, after)
                if add is not None:
                    score = confidence - add - 0.2 * count
                    if best is None or score > best[0]:
                        best = (score, kind, count, recipe)
                    break
    if best is not None and best[0] >= PLAY_THRESHOLD:
        _, kind, count, recipe = best
    else:
        kind, count, recipe = choose_toppings_only(toppings, recipes, estimate)
    return {
        "type": "turn",
        "topping": kind,
        "count": count,
        "recipe": recipe,
        "draw": choose_draw(view, count + (recipe is not None), recipe is not None),
    }


def choose_toppings_only(toppings: dict[str, int], recipes: list[str], estimate: dict[str, float]) -> tuple:
    """No recipe to play: feed the oven with what the hand's recipes lack, else shed one spare card."""
    wanted = kinds_wanted(recipes, estimate)
    useful = [k for k in TOPPINGS if toppings[k] and wanted[k] >= 1]
    if useful:
        kind = max(useful, key=lambda k: (wanted[k], toppings[k]))
        return kind, min(toppings[kind], int(wanted[kind])), None
    kind = max((k for k in TOPPINGS if toppings[k]), key=lambda k: (toppings[k] - wanted[k], -TOPPINGS.index(k)))
    return kind, 1, None


def choose_draw(view: dict[str, Any], played: int, recipe_played: bool) -> str | None:
    """Refill from the recipe deck when short of recipes (and not of toppings), else from the kitchen."""
    hand = view["hand"]
    toppings = sum(hand["toppings"].values()) - (played - recipe_played)
    recipes = len(hand["recipes"]) - recipe_played
    if toppings + recipes >= HAND_LIMIT:
        return None
    deck, kitchen = view["recipe_decks"][view["seat"]], view["kitchen"]
    if (deck and recipes <= 1 and toppings >= 3) or not kitchen:
        return "recipes"
    return "kitchen"


def choose_decision(view: dict[str, Any]) -> dict[str, Any]:
    """Bake whenever possible, adding the fewest cards and sparing the kinds the hand's recipes want."""
    hand = view["hand"]
    ways = ways_to_bake(view["deciding"]["recipe"], view["table"], hand["toppings"])
    if not ways:
        return {"type": "decline"}
    wanted = kinds_wanted(hand["recipes"], dict.fromkeys(TOPPINGS, 0.0))
    kind, add, _ = min(ways, key=lambda w: (sum(w[1].values()), sum(wanted[k] * n for k, n in w[1].items())))
    return {"type": "bake", "kind": kind, "add": dict(add)}


# --- The protocol ------------------------------------------------------------------------------


class MammaMia(Engine):
    """Mamma Mia! for 2-5 players, 3 rounds."""

    slug = "mamma-mia"
    name = "Mamma Mia!"
    min_players = 2
    max_players = 5
    options = {"memory": ["strict", "open"]}

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """A new game: toppings removed and dealt, kitchen and recipe decks shuffled (or the stacked deal)."""
        players = self.check_players(players)
        options = self.check_options(options, extra=("deal", "sealed"))
        deal = options.pop("deal", None)
        options.pop("sealed", None)  # nothing is chosen in secret in Mamma Mia!: every play is announced
        state: State = {
            "seed": seed,
            "rng": 0,
            "players": players,
            "options": options,
            "round": 1,
            "phase": 1,
            "over": False,
            "table": _kinds(),
            "used": _kinds(),
            "baked": [[] for _ in range(players)],
            "deciding": None,
            "log": [],
        }
        if deal is None:
            deal = shuffled_setup(state)
        else:
            check_deal(deal, players)
        state["hands"] = [{"toppings": _kinds(), "recipes": []} for _ in range(players)]
        for seat, dealt in enumerate(deal["hands"]):
            for card in dealt:
                state["hands"][seat]["toppings"][card] += 1
        state["kitchen"] = list(deal["kitchen"])
        state["decks"] = [list(deck[1:]) for deck in deal["recipes"]]
        for seat, deck in enumerate(deal["recipes"]):
            state["hands"][seat]["recipes"].append(deck[0])
        new_round(state, deal["first"])
        return state

    def waiting_for(self, state: State) -> list[int]:
        """The seat to move in phase 1, or the owner deciding in phase 2; [] once over."""
        if state["over"]:
            return []
        if state["phase"] == 1:
            return [state["turn"]]
        return [state["deciding"]["seat"]]

    def legal_moves(self, state: State, seat: int) -> list[dict[str, Any]]:
        """Every distinct legal move of ``seat`` now ([] when not awaited)."""
        if not _is_count(seat) or seat not in self.waiting_for(state):
            return []
        if state["phase"] == 1:
            return turn_moves(state, seat)
        return decision_moves(state, seat)

    def play(self, state: State, seat: int, move: dict[str, Any]) -> State:
        """The state after ``seat`` plays ``move``; IllegalMove if it is not legal now."""
        if state["over"]:
            raise _illegal("game_over")
        if not _is_count(seat) or seat not in self.waiting_for(state):
            raise _illegal("not_your_turn")
        if not isinstance(move, dict) or "type" not in move:
            raise _illegal("not_a_move")
        expected = ["turn"] if state["phase"] == 1 else ["bake", "decline"]
        if not isinstance(move["type"], str) or move["type"] not in expected:
            raise _illegal("wrong_move", expected=expected)
        if state["phase"] == 1:
            check_turn(state, seat, move)
            new = copy_state(state)
            play_turn(new, seat, move)
        else:
            way = check_decision(state, seat, move)
            new = copy_state(state)
            decide(new, seat, way)
        return new

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (None: a spectator): see the rules file's view keys."""
        if seat is not None and (not _is_count(seat) or not 0 <= seat < state["players"]):
            raise ValueError(f"no seat {seat!r}")
        return make_view(state, seat)

    def is_over(self, state: State) -> bool:
        """Whether phase 2 of round 3 is done."""
        return state["over"]

    def outcome(self, state: State) -> list[dict[str, int]]:
        """Each seat's rank (most baked, then most toppings in hand) and score (baked recipes)."""
        ranks = ranking(state)
        return [{"seat": seat, "rank": rank, "score": len(state["baked"][seat])} for seat, rank in enumerate(ranks)]

    def bot_move(self, state: State, seat: int) -> dict[str, Any]:
        """A sensible legal move chosen from the seat's own view of this round only."""
        view = make_view(state, seat, since=state["round_start"], copy=False)
        if state["phase"] == 1:
            return choose_turn(view)
        return choose_decision(view)


engine = MammaMia()
