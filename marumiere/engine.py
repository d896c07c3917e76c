"""マルミエール (Marumiere): a trick-taking game played with every card face down.

The rules as this project plays them are in ``shared/rules/marumiere.md``; this
module follows that file section by section (components, rounds, dealing,
bidding, tricks, scoring, view) with one small function per rule.

A card's back shows its colour and a shape whose area is proportional to its
number, drawn on screen at ``number × factor`` with a per-card factor in
[0.85, 1.15] drawn afresh every round (so a back tells the number only roughly,
and a card seen face up cannot be recognised by its size in a later round).
Views give face-down cards as colour and size (1 decimal) only: no number, and
no card id (an id such as ``red-5`` holds the number).
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path
from typing import Any

from games.engines.base import Engine, IllegalMove, Move, State, View, labelled_rng, next_rng, rank_by
from games.engines.sealing import seal

# Components ----------------------------------------------------------------

_DATA = json.loads((Path(__file__).resolve().parent / "data.json").read_text(encoding="utf-8"))

COLOURS: tuple[str, ...] = tuple(colour["name"] for colour in _DATA["colours"])
SHAPES: dict[str, str] = {colour["name"]: colour["shape"] for colour in _DATA["colours"]}
NUMBERS: tuple[int, ...] = tuple(_DATA["numbers"])
TRUMP: int = _DATA["trump"]
MISERE: int = _DATA["misere"]
SIZE_FACTOR: tuple[float, float] = tuple(_DATA["size_factor"])
SIZE_DECIMALS: int = _DATA["size_decimals"]
CARDS: tuple[str, ...] = tuple(f"{colour}-{number}" for colour in COLOURS for number in NUMBERS)
COLOUR_OF: dict[str, str] = {card: card.rsplit("-", 1)[0] for card in CARDS}
NUMBER_OF: dict[str, int] = {card: int(card.rsplit("-", 1)[1]) for card in CARDS}

PILE_SIZE = 9
TRICKS_PER_ROUND = PILE_SIZE - 1
ROUNDS_BY_PLAYERS = {2: 4, 3: 3, 4: 4}
VARIANTS = ("standard", "nobody", "self")
MOVE_FIELDS = {"pick": "pile", "bid": "position", "play": "position"}

# Every IllegalMove code, as an English template of its params (the platform translates them).
MESSAGES: dict[str, str] = {
    "game_over": "The game is over.",
    "no_such_seat": "There is no seat {seat} in this game.",
    "not_your_turn": "It is not your turn.",
    "bad_move": "That is not a move: a move is an object with a type and one field.",
    "unknown_move": "There is no move called {type} in Marumiere.",
    "wrong_phase": "You cannot {type} now: the game awaits a {phase} move.",
    "missing_field": "The {type} move needs a {field}.",
    "unexpected_field": "The {type} move has an unexpected field {field}.",
    "no_such_pile": "There is no pile {pile}: choose one of the piles on offer, 0 to {last}.",
    "no_such_position": "There is no position {position} in your row: choose 0 to 8.",
    "bid_card": "The card at position {position} is your bid card: it is not played.",
    "already_played": "You already played the card at position {position}.",
    "must_follow": "You must follow {colour}: you still have a {colour} card.",
}

# Every log event type, as an English template of its params. Events whose
# params include "only" are seen by those seats alone.
EVENTS: dict[str, str] = {
    "round_start": "Round {round} of {rounds}: {dealer} deals.",
    "pick": "{seat} takes pile {pile}.",
    "bid": "{seat} turns the card at position {position} sideways as their bid.",
    "bid_seen": "The bid card of {seat} (position {position}) shows {number}.",
    "play": "{seat} plays a {colour} card face down.",
    "trick_won": "{seat} wins trick {trick}.",
    "round_score": "{seat} bid {bid} (a {number}), took {won} tricks and scores {points}: total {total}.",
    "game_end": "The game is over: {winners} won.",
}


def _illegal(code: str, **params: Any) -> IllegalMove:
    """An IllegalMove whose message is the code's template filled with ``params``."""
    return IllegalMove(MESSAGES[code].format(**params), code=code, **params)


# Rounds ----------------------------------------------------------------------


def rounds_for(players: int) -> int:
    """How many rounds a game of ``players`` lasts (2: 4, 3: 3, 4: 4)."""
    return ROUNDS_BY_PLAYERS[players]


def next_dealer(dealer: int, players: int) -> int:
    """The dealer passes to the left (the next seat) each round."""
    return (dealer + 1) % players


def left_of(seat: int, players: int) -> int:
    """The seat to the left, i.e. the next one in seat order."""
    return (seat + 1) % players


# Dealing ---------------------------------------------------------------------


def deal_piles(cards: list[str], players: int) -> tuple[list[list[str]], list[str]]:
    """One pile of 9 per player from the shuffled cards (top first); the rest is set aside."""
    piles = [cards[i * PILE_SIZE : (i + 1) * PILE_SIZE] for i in range(players)]
    return piles, cards[players * PILE_SIZE :]


def pick_order(dealer: int, players: int) -> list[int]:
    """Who picks a pile, in order: from the dealer's left round to the dealer, who gets the last."""
    return [(dealer + k) % players for k in range(1, players + 1)]


# Bidding ---------------------------------------------------------------------


def bid_value(number: int) -> int:
    """The tricks a bid card's number promises: its number, a 9 being misère (0)."""
    return 0 if number == MISERE else number


def bid_face_visible(variant: str, bidder: int, viewer: int | None, bidding_done: bool, round_over: bool) -> bool:
    """Whether ``viewer`` (None: a spectator) may see the face of ``bidder``'s bid card now.

    standard: every other player and spectator, once everyone has bid;
    nobody: no one; self: the bidder alone, from the moment of bidding.
    Once the round is over every bid card is face up.
    """
    if round_over:
        return True
    if variant == "standard":
        return bidding_done and viewer != bidder
    if variant == "self":
        return viewer == bidder
    return False


def bid_seers(variant: str, bidder: int, players: int) -> list[int]:
    """The seats that see the face of ``bidder``'s bid card during the round."""
    return [seat for seat in range(players) if bid_face_visible(variant, bidder, seat, True, False)]


# Tricks ----------------------------------------------------------------------


def playable_positions(row: list[str], played: list[bool], bid: int | None) -> list[int]:
    """The positions a player may still play: unplayed, and not the bid card."""
    return [pos for pos in range(len(row)) if not played[pos] and pos != bid]


def must_follow(row: list[str], positions: list[int], led: str | None) -> list[int]:
    """Must follow the led colour (seen on the backs) if possible; otherwise any card.

    ``positions`` are the playable ones, so a bid card of the led colour does not oblige.
    """
    if led is None:
        return positions
    following = [pos for pos in positions if COLOUR_OF[row[pos]] == led]
    return following or positions


def trick_winner(cards: list[tuple[int, str]]) -> int:
    """The seat that takes a trick of ``(seat, card)`` in play order.

    The last-played 5 wins; without a 5, the highest card of the led colour.
    """
    fives = [seat for seat, card in cards if NUMBER_OF[card] == TRUMP]
    if fives:
        return fives[-1]
    led = COLOUR_OF[cards[0][1]]
    return max((NUMBER_OF[card], seat) for seat, card in cards if COLOUR_OF[card] == led)[1]


# Scoring ---------------------------------------------------------------------


def round_points(bid: int, won: int) -> int:
    """Points for a round from the bid (misère = 0) and the tricks won, per the scoring table."""
    if bid == 0:
        return 6 if won == 0 else -won
    if won == bid:
        return 3 if bid <= 3 else won
    return -abs(bid - won)


# Backs -----------------------------------------------------------------------


def round_sizes(seed: Any, round_number: int) -> dict[str, float]:
    """Each card's back size for one round: number × a factor in [0.85, 1.15], 1 decimal.

    Drawn afresh every round from the game's seed and the round alone, on a stream of
    its own: the draws of ``next_rng`` (first dealer, shuffles) stay what they were when
    sizes were drawn once per game, so games begun before keep their deals and their
    move logs replay unchanged.
    """
    rng = labelled_rng(seed, f"backs:{round_number}")
    low, high = SIZE_FACTOR
    return {card: round(NUMBER_OF[card] * rng.uniform(low, high), SIZE_DECIMALS) for card in CARDS}


def back(state: State, card: str) -> dict[str, Any]:
    """What anyone sees of a face-down card: its colour and its back's size."""
    return {"colour": COLOUR_OF[card], "size": state["sizes"][card]}


# Stacked deal ----------------------------------------------------------------


def check_deal(deal: Any, players: int) -> tuple[int | None, list[list[list[str]]]]:
    """The stacked deal's first dealer and rounds; ``ValueError`` if it is not valid."""
    if deal is None:
        return None, []
    if not isinstance(deal, dict):
        raise ValueError("deal must be an object with 'dealer' and 'rounds'")
    unknown = set(deal) - {"dealer", "rounds"}
    if unknown:
        raise ValueError(f"deal has unknown keys {sorted(unknown)}")
    dealer = deal.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < players):
        raise ValueError(f"deal dealer must be a seat from 0 to {players - 1}")
    rounds = deal.get("rounds", [])
    if not isinstance(rounds, list):
        raise ValueError("deal rounds must be a list")
    if len(rounds) > rounds_for(players):
        raise ValueError(f"deal has {len(rounds)} rounds; a {players}-player game has {rounds_for(players)}")
    for index, piles in enumerate(rounds, start=1):
        check_stacked_round(piles, players, index)
    return dealer, [[list(pile) for pile in piles] for piles in rounds]


def check_stacked_round(piles: Any, players: int, index: int) -> None:
    """One stacked round: one pile per player, 9 valid distinct card ids each; else ``ValueError``."""
    if not isinstance(piles, list) or len(piles) != players:
        raise ValueError(f"deal round {index} must have {players} piles")
    seen: set[str] = set()
    for pile in piles:
        if not isinstance(pile, list) or len(pile) != PILE_SIZE:
            raise ValueError(f"deal round {index}: every pile must have {PILE_SIZE} cards")
        for card in pile:
            if not isinstance(card, str) or card not in COLOUR_OF:
                raise ValueError(f"deal round {index}: {card!r} is not a card")
            if card in seen:
                raise ValueError(f"deal round {index}: {card} appears twice")
            seen.add(card)


# State -----------------------------------------------------------------------


def _fork(state: State) -> State:
    """A copy of ``state`` that ``play`` may change, cheaper than a deep copy.

    Everything ``play`` changes in place is copied; what it only ever replaces or
    appends (``sizes``, the stacked deal, log events, round results, the last
    trick) is shared with the original, never mutated.
    """
    new = dict(state)
    new["piles"] = [list(pile) for pile in state["piles"]]
    new["rows"] = [list(row) for row in state["rows"]]
    new["played"] = [list(flags) for flags in state["played"]]
    new["aside"] = list(state["aside"])
    new["bids"] = list(state["bids"])
    new["won"] = list(state["won"])
    new["scores"] = list(state["scores"])
    new["trick"] = [list(entry) for entry in state["trick"]]
    new["log"] = list(state["log"])
    new["results"] = list(state["results"])
    return new


def _log(state: State, event_type: str, **params: Any) -> None:
    """Append a structured event to the log."""
    state["log"].append({"type": event_type, **params})


def start_round(state: State) -> None:
    """Shuffle (or take the stacked deal), make the piles, and await the first pick."""
    players = state["players"]
    index = state["round"] - 1
    if index < len(state["deal"]):
        cards = [card for pile in state["deal"][index] for card in pile]
        dealt = set(cards)
        cards += [card for card in CARDS if card not in dealt]
    else:
        cards = list(CARDS)
        next_rng(state).shuffle(cards)
    state["sizes"] = round_sizes(state["seed"], state["round"])
    state["piles"], state["aside"] = deal_piles(cards, players)
    state["rows"] = [[] for _ in range(players)]
    state["played"] = [[False] * PILE_SIZE for _ in range(players)]
    state["bids"] = [None] * players
    state["won"] = [0] * players
    state["trick"] = []
    state["last_trick"] = None
    state["tricks_played"] = 0
    state["leader"] = state["dealer"]
    state["phase"] = "pick"
    state["turn"] = left_of(state["dealer"], players)
    _log(state, "round_start", round=state["round"], rounds=state["rounds"], dealer=state["dealer"])


def take_pile(state: State, seat: int, pile: int) -> None:
    """``seat`` takes a pile and lays it out as its row, top card at position 0, never reordered."""
    state["rows"][seat] = state["piles"].pop(pile)
    _log(state, "pick", seat=seat, pile=pile)
    following = left_of(seat, state["players"])
    if following == state["dealer"]:
        state["rows"][following] = state["piles"].pop()
        _log(state, "pick", seat=following, pile=0, last=True)
        state["phase"] = "bid"
    state["turn"] = following


def turn_bid_card(state: State, seat: int, position: int) -> None:
    """``seat`` turns one card of its row sideways as its bid; bidding goes round from the dealer."""
    state["bids"][seat] = position
    if state.get("sealed"):
        # A commitment to the bid card's face, which its bidder does not know: at the round's end the
        # salt shows the face scored is the face turned.
        _log(state, "bid", seat=seat, position=position, commitment=_sealed_face(state, "bid", seat, position)[0])
    else:
        _log(state, "bid", seat=seat, position=position)
    if state["variant"] == "self":
        _log_bid_seen(state, seat)
    following = left_of(seat, state["players"])
    state["turn"] = following
    if following == state["dealer"]:
        show_bids(state)
        state["phase"] = "play"


def _sealed_face(state: State, what: str, seat: int, position: int) -> tuple[str, str]:
    """(commitment, salt) of the face of ``seat``'s card at ``position``, bid or played face down this round
    (``games.engines.sealing``); the committed choice is ``{"number": face}``."""
    number = NUMBER_OF[state["rows"][seat][position]]
    return seal(state, f"marumiere-{what}:{state['round']}:{seat}:{position}", {"number": number})


def _log_bid_seen(state: State, seat: int) -> None:
    """Log the face of ``seat``'s bid card for the seats that see it now."""
    position = state["bids"][seat]
    number = NUMBER_OF[state["rows"][seat][position]]
    only = bid_seers(state["variant"], seat, state["players"])
    if only:
        _log(state, "bid_seen", seat=seat, position=position, number=number, only=only)


def show_bids(state: State) -> None:
    """Once everyone has bid, the standard variant shows each bid card to the other players."""
    if state["variant"] != "standard":
        return
    players = state["players"]
    for k in range(players):
        _log_bid_seen(state, (state["dealer"] + k) % players)


def play_card(state: State, seat: int, position: int) -> None:
    """``seat`` plays a card face down to the trick; the trick completes when everyone has played."""
    state["played"][seat][position] = True
    state["trick"].append([seat, position])
    colour = COLOUR_OF[state["rows"][seat][position]]
    if state.get("sealed"):
        commitment = _sealed_face(state, "play", seat, position)[0]
        _log(state, "play", seat=seat, position=position, colour=colour, commitment=commitment)
    else:
        _log(state, "play", seat=seat, position=position, colour=colour)
    if len(state["trick"]) == state["players"]:
        complete_trick(state)
    else:
        state["turn"] = left_of(seat, state["players"])


def complete_trick(state: State) -> None:
    """All the trick's cards turn face up; the winner takes it and leads the next."""
    rows = state["rows"]
    cards_played = state["trick"]
    winner = trick_winner([(seat, rows[seat][pos]) for seat, pos in cards_played])
    state["won"][winner] += 1
    state["tricks_played"] += 1
    state["last_trick"] = {"cards": cards_played, "winner": winner}
    state["trick"] = []
    state["leader"] = state["turn"] = winner
    cards = face_up(state, cards_played)
    if state.get("sealed"):
        for card in cards:
            card["salt"] = _sealed_face(state, "play", card["seat"], card["position"])[1]
    _log(state, "trick_won", trick=state["tricks_played"], seat=winner, cards=cards)
    if state["tricks_played"] == TRICKS_PER_ROUND:
        score_round(state)


def score_round(state: State) -> None:
    """After the 8th trick the bid cards turn face up and each player scores; then the next round or the end."""
    players = state["players"]
    seats = []
    for seat in range(players):
        position = state["bids"][seat]
        number = NUMBER_OF[state["rows"][seat][position]]
        bid = bid_value(number)
        won = state["won"][seat]
        points = round_points(bid, won)
        state["scores"][seat] += points
        seats.append({"seat": seat, "position": position, "number": number, "bid": bid, "won": won, "points": points})
        if state.get("sealed"):
            seats[-1]["salt"] = _sealed_face(state, "bid", seat, position)[1]
        _log(state, "round_score", **seats[-1], total=state["scores"][seat])
    state["results"].append({"round": state["round"], "dealer": state["dealer"], "seats": seats})
    if state["round"] == state["rounds"]:
        end_game(state)
    else:
        state["round"] += 1
        state["dealer"] = next_dealer(state["dealer"], players)
        start_round(state)


def end_game(state: State) -> None:
    """After the last round the highest total wins; ties share the place."""
    state["phase"] = "over"
    state["turn"] = None
    best = max(state["scores"])
    _log(state, "game_end", winners=[seat for seat, score in enumerate(state["scores"]) if score == best])


# Views -----------------------------------------------------------------------


def face_up(state: State, cards: list[list[int]]) -> list[dict[str, Any]]:
    """Played cards, given as ``[seat, position]``, turned face up."""
    rows = state["rows"]
    return [
        {"seat": seat, "position": pos, "colour": COLOUR_OF[rows[seat][pos]], "number": NUMBER_OF[rows[seat][pos]]}
        for seat, pos in cards
    ]


def face_visible(state: State, owner: int, position: int, viewer: int | None) -> bool:
    """Whether ``viewer`` may see the face of the card at ``position`` of ``owner``'s row."""
    if state["bids"][owner] == position:
        over = state["phase"] == "over"
        return bid_face_visible(state["variant"], owner, viewer, state["phase"] in ("play", "over"), over)
    if not state["played"][owner][position]:
        return False
    return [owner, position] not in state["trick"]


def _row_view(state: State, owner: int, viewer: int | None) -> list[dict[str, Any]]:
    """A row as ``viewer`` sees it: backs, bid and played flags, faces where visible."""
    row = state["rows"][owner]
    bid = state["bids"][owner]
    played = state["played"][owner]
    sizes = state["sizes"]
    in_trick = {pos for seat, pos in state["trick"] if seat == owner}
    bid_seen = bid is not None and face_visible(state, owner, bid, viewer)
    cards = []
    for pos, card in enumerate(row):
        entry = {"colour": COLOUR_OF[card], "size": sizes[card], "bid": pos == bid, "played": played[pos]}
        if bid_seen if pos == bid else played[pos] and pos not in in_trick:
            entry["number"] = NUMBER_OF[card]
        cards.append(entry)
    return cards


def _bids_view(state: State, viewer: int | None) -> list[dict[str, Any] | None]:
    """Each seat's bid: null until it bid, then its position, plus number and bid once visible."""
    bids: list[dict[str, Any] | None] = []
    for seat, position in enumerate(state["bids"]):
        if position is None:
            bids.append(None)
            continue
        entry: dict[str, Any] = {"position": position}
        if face_visible(state, seat, position, viewer):
            number = NUMBER_OF[state["rows"][seat][position]]
            entry.update(number=number, bid=bid_value(number))
        bids.append(entry)
    return bids


def _log_view(state: State, viewer: int | None) -> list[dict[str, Any]]:
    """The events ``viewer`` may see, oldest first, as fresh copies."""
    events = []
    for event in state["log"]:
        only = event.get("only")
        if only is not None and viewer not in only:
            continue
        copied = dict(event)
        if "cards" in copied:
            copied["cards"] = [dict(card) for card in copied["cards"]]
        for key in ("only", "winners"):
            if key in copied:
                copied[key] = list(copied[key])
        events.append(copied)
    return events


def _view(state: State, viewer: int | None, *, with_log: bool = True) -> View:
    """The view of ``viewer``; the bot reads it without the log."""
    players = state["players"]
    rows = state["rows"]
    last = state["last_trick"]
    last_trick = None
    if last is not None:
        last_trick = {"cards": face_up(state, last["cards"]), "winner": last["winner"]}
    view: View = {
        "seat": viewer,
        "round": state["round"],
        "rounds": state["rounds"],
        "players": players,
        "variant": state["variant"],
        "phase": state["phase"],
        "waiting_for": [] if state["turn"] is None else [state["turn"]],
        "scores": list(state["scores"]),
        "dealer": state["dealer"],
        "leader": state["leader"],
        "piles": [{"top": back(state, pile[0]), "count": len(pile)} for pile in state["piles"]],
        "rows": [_row_view(state, seat, viewer) for seat in range(players)],
        "bids": _bids_view(state, viewer),
        "trick": [{"seat": seat, "position": pos, **back(state, rows[seat][pos])} for seat, pos in state["trick"]],
        "last_trick": last_trick,
        "tricks_played": state["tricks_played"],
        "tricks_won": list(state["won"]),
        "results": [{**result, "seats": [dict(entry) for entry in result["seats"]]} for result in state["results"]],
    }
    if with_log:
        view["log"] = _log_view(state, viewer)
    return view


def _bot_view(state: State, seat: int) -> View:
    """The part of ``seat``'s view the bot reads: some of ``_view``'s keys, with the same values.

    The phase and the player count; the piles' tops while picking, else the rows
    (backs, flags and the faces this seat may see), the trick and the tricks won.
    Cheaper than the whole view, which a bot move would otherwise build each time.
    """
    view: View = {"seat": seat, "players": state["players"], "phase": state["phase"]}
    if state["phase"] == "pick":
        view["piles"] = [{"top": back(state, pile[0]), "count": len(pile)} for pile in state["piles"]]
        return view
    rows = state["rows"]
    view["rows"] = [_row_view(state, owner, seat) for owner in range(state["players"])]
    view["trick"] = [{"seat": owner, "position": pos, **back(state, rows[owner][pos])} for owner, pos in state["trick"]]
    view["tricks_won"] = list(state["won"])
    return view


# Moves -----------------------------------------------------------------------


def _shown(value: Any) -> Any:
    """A move field as a message param: ints and strings as they are, anything else as its repr."""
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return value
    return repr(value)


def _is_seat(state: State, seat: Any) -> bool:
    """Whether ``seat`` is a seat of this game (an int, not a bool, in range)."""
    return isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < state["players"]


def _check_move(state: State, seat: Any, move: Any) -> tuple[str, int]:
    """The move's type and field value if ``seat`` may make it now; else ``IllegalMove``."""
    if state["phase"] == "over":
        raise _illegal("game_over")
    if not _is_seat(state, seat):
        raise _illegal("no_such_seat", seat=_shown(seat))
    if seat != state["turn"]:
        raise _illegal("not_your_turn")
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise _illegal("bad_move")
    kind = move["type"]
    if kind not in MOVE_FIELDS:
        raise _illegal("unknown_move", type=kind)
    if kind != state["phase"]:
        raise _illegal("wrong_phase", type=kind, phase=state["phase"])
    field = MOVE_FIELDS[kind]
    if field not in move:
        raise _illegal("missing_field", type=kind, field=field)
    for key in move:
        if key not in ("type", field):
            raise _illegal("unexpected_field", type=kind, field=_shown(key))
    value = move[field]
    valid_int = isinstance(value, int) and not isinstance(value, bool)
    if kind == "pick":
        if not valid_int or not 0 <= value < len(state["piles"]):
            raise _illegal("no_such_pile", pile=_shown(value), last=len(state["piles"]) - 1)
        return kind, value
    if not valid_int or not 0 <= value < PILE_SIZE:
        raise _illegal("no_such_position", position=_shown(value))
    if kind == "play":
        _check_play(state, seat, value)
    return kind, value


def _check_play(state: State, seat: int, position: int) -> None:
    """Refuse the bid card, a played card, and a card that breaks must-follow."""
    if state["bids"][seat] == position:
        raise _illegal("bid_card", position=position)
    if state["played"][seat][position]:
        raise _illegal("already_played", position=position)
    allowed = _legal_positions(state, seat)
    if position not in allowed:
        raise _illegal("must_follow", colour=_led_colour(state))


def _led_colour(state: State) -> str | None:
    """The colour led in the trick in progress (it shows on the back), or None."""
    if not state["trick"]:
        return None
    seat, pos = state["trick"][0]
    return COLOUR_OF[state["rows"][seat][pos]]


def _legal_positions(state: State, seat: int) -> list[int]:
    """The positions ``seat`` may play now."""
    row = state["rows"][seat]
    return must_follow(row, playable_positions(row, state["played"][seat], state["bids"][seat]), _led_colour(state))


# The engine ------------------------------------------------------------------


class Marumiere(Engine):
    """マルミエール: trick-taking with every card face down, the backs showing colour and size."""

    slug = "marumiere"
    name = "マルミエール"
    min_players = 2
    max_players = 4
    options = {"variant": list(VARIANTS)}
    per_event_log = True  # _log_view keeps each event by its "only" alone

    def setup(self, players: int, seed: int, options: dict[str, Any] | None = None) -> State:
        """A new game: a random first dealer (or the stacked one), round 1 dealt with its backs' sizes."""
        players = self.check_players(players)
        options = self.check_options(options)
        dealer, deal = check_deal(options.get("deal"), players)
        state: State = {
            "seed": seed,
            "rng": 0,
            "players": players,
            "variant": options["variant"],
            "rounds": rounds_for(players),
            "round": 1,
            "deal": deal,
            "scores": [0] * players,
            "results": [],
            "log": [],
        }
        if options.get("sealed"):
            state["sealed"] = True  # commitments to faces in the log (absent in games dealt before)
        # Draw 0 was the per-game sizes before they became per round (round_sizes); it is still
        # spent so that the first dealer and every shuffle stay those of games dealt before.
        next_rng(state)
        drawn = next_rng(state).randrange(players)
        state["dealer"] = drawn if dealer is None else dealer
        start_round(state)
        return state

    def waiting_for(self, state: State) -> list[int]:
        """The one seat whose pick, bid or card the game awaits; [] once over."""
        return [] if state["turn"] is None else [state["turn"]]

    def legal_moves(self, state: State, seat: int) -> list[Move]:
        """Every pile, bid position or playable position of ``seat`` now; [] when not awaited."""
        if not _is_seat(state, seat) or seat != state["turn"]:
            return []
        phase = state["phase"]
        if phase == "pick":
            return [{"type": "pick", "pile": pile} for pile in range(len(state["piles"]))]
        if phase == "bid":
            return [{"type": "bid", "position": pos} for pos in range(PILE_SIZE)]
        return [{"type": "play", "position": pos} for pos in _legal_positions(state, seat)]

    def play(self, state: State, seat: int, move: Move) -> State:
        """The state after ``seat`` picks a pile, bids or plays; ``IllegalMove`` if it may not."""
        kind, value = _check_move(state, seat, move)
        new = _fork(state)
        if kind == "pick":
            take_pile(new, seat, value)
        elif kind == "bid":
            turn_bid_card(new, seat, value)
        else:
            play_card(new, seat, value)
        return new

    def view(self, state: State, seat: int | None) -> View:
        """Backs, bid and played flags for all; faces only where this seat may see them."""
        if seat is not None and not _is_seat(state, seat):
            raise ValueError(f"no seat {seat!r} in this game")
        return _view(state, seat)

    def sealed_choices(self, log: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Each bid card's and face-down card's commitment, opened by the round's scores (bids) or the trick's
        face-up cards (plays): ``{"number": face}`` and its salt."""
        found: list[dict[str, Any]] = []
        waiting: dict[tuple[str, int, int], dict[str, Any]] = {}
        current = 0

        def opened(kind: str, card: dict[str, Any]) -> None:
            entry = waiting.pop((kind, card["seat"], card["position"]), None)
            if entry is not None and "salt" in card:
                entry["salt"], entry["choice"] = card["salt"], {"number": card["number"]}

        for event in log:
            kind = event.get("type")
            if kind == "round_start":
                current = event["round"]
            elif kind in ("bid", "play") and "commitment" in event:
                key = (kind, event["seat"], event["position"])
                waiting[key] = {"round": current, "seat": event["seat"], "kind": kind, "position": event["position"]}
                waiting[key].update(commitment=event["commitment"], salt=None, choice=None)
                found.append(waiting[key])
            elif kind == "trick_won":
                for card in event["cards"]:
                    opened("play", card)
            elif kind == "round_score":
                opened("bid", event)
        return found

    def is_over(self, state: State) -> bool:
        """Whether the last round has been scored."""
        return state["phase"] == "over"

    def outcome(self, state: State) -> list[dict[str, int]]:
        """Each seat's total and rank (highest total first, ties share a rank)."""
        scores = state["scores"]
        ranks = rank_by([(score,) for score in scores])
        return [{"seat": seat, "rank": ranks[seat], "score": scores[seat]} for seat in range(state["players"])]

    def bot_move(self, state: State, seat: int) -> Move:
        """A move chosen from ``seat``'s own view only: read sizes, bid to match, then play to make the bid."""
        moves = self.legal_moves(state, seat)
        if not moves:
            raise _illegal("game_over") if state["turn"] is None else _illegal("not_your_turn")
        if len(moves) == 1:  # forced: no view to build
            return moves[0]
        return bot_choice(_bot_view(state, seat), seat, moves)


# The bot ---------------------------------------------------------------------
#
# It reads only its own view (the part _bot_view builds): the backs' colours
# and sizes, the faces it may see, the flags, the trick and the tricks won.


# A view's size is number × factor rounded to SIZE_DECIMALS: within half a step of the product.
SIZE_HALF_STEP = 0.5 * 10**-SIZE_DECIMALS


@functools.lru_cache(maxsize=4096)
def size_candidates(size: float) -> tuple[int, ...]:
    """The numbers a back of this size can have: number × factor rounds to the size."""
    low, high = SIZE_FACTOR
    first = max(NUMBERS[0], math.ceil((size - SIZE_HALF_STEP) / high - 1e-9))
    last = min(NUMBERS[-1], math.floor((size + SIZE_HALF_STEP) / low + 1e-9))
    return tuple(range(first, last + 1)) or (min(NUMBERS, key=lambda n: abs(n - size)),)


Beliefs = dict[tuple[int, int], dict[int, float]]
Means = dict[tuple[int, int], float]


def estimate_numbers(view: View) -> tuple[Beliefs, Means]:
    """For every face-down card in the rows, a distribution over its number and its mean,
    from faces seen and back sizes.

    Within a colour, the face-down cards take distinct numbers among those no
    face has shown, each allowed by its size; every such assignment is weighted
    by the chance of the sizes given the numbers (a factor spread proportional
    to n, hence 1/n per card).
    """
    beliefs: Beliefs = {}
    means: Means = {}
    known: dict[str, set[int]] = {colour: set() for colour in COLOURS}
    unknown: dict[str, tuple[list[float], list[tuple[int, int]]]] = {colour: ([], []) for colour in COLOURS}
    for seat, row in enumerate(view["rows"]):
        for pos, card in enumerate(row):
            if "number" in card:
                known[card["colour"]].add(card["number"])
            else:
                sizes, places = unknown[card["colour"]]
                sizes.append(card["size"])
                places.append((seat, pos))
    for colour, (sizes, places) in unknown.items():
        if sizes:
            colour_distributions, colour_means = colour_beliefs(tuple(sizes), frozenset(known[colour]))
            beliefs.update(zip(places, colour_distributions, strict=True))
            means.update(zip(places, colour_means, strict=True))
    return beliefs, means


@functools.lru_cache(maxsize=4096)
def colour_beliefs(
    sizes: tuple[float, ...], known: frozenset[int]
) -> tuple[tuple[dict[int, float], ...], tuple[float, ...]]:
    """The number distributions of a colour's face-down cards of these sizes, given the numbers seen,
    and their means. (Cached: callers must not change the dicts.)"""
    options = tuple(size_options(size, known) for size in sizes)
    distributions = colour_marginals(options)
    return distributions, tuple(expected(belief) for belief in distributions)


def size_options(size: float, known: frozenset[int]) -> tuple[int, ...]:
    """The numbers a back of this size can have that no face has shown."""
    candidates = size_candidates(size)
    if known.isdisjoint(candidates):
        return candidates
    return tuple(n for n in candidates if n not in known)


@functools.lru_cache(maxsize=4096)
def colour_marginals(options: tuple[tuple[int, ...], ...]) -> tuple[dict[int, float], ...]:
    """Each card's number distribution over the assignments of distinct numbers from its ``options``.

    An assignment weighs the product of 1/n over its numbers. If no assignment is
    consistent, each card falls back to its options weighted 1/n alone. (Cached:
    callers must not change the dicts.)

    A card with a single option is that number whatever the others are (and so is
    its fallback), so only the cards with a choice are enumerated, after the single
    ones in the order fewest options first, dividing the weights in the same order
    as enumerating every card would: the results are the same to the last bit.
    """
    if all(len(opts) == 1 for opts in options):  # the commonest case: nothing to choose
        return tuple({opts[0]: 1.0} for opts in options)
    order = sorted(range(len(options)), key=lambda i: len(options[i]))
    choosing = [i for i in order if len(options[i]) > 1]
    totals: dict[int, dict[int, float]] = {i: dict.fromkeys(options[i], 0.0) for i in choosing}
    chosen: dict[int, int] = {}
    used: set[int] = set()

    def assign(depth: int, weight: float) -> None:
        if depth == len(choosing):
            for i in choosing:
                totals[i][chosen[i]] += weight
            return
        i = choosing[depth]
        for number in options[i]:
            if number not in used:
                used.add(number)
                chosen[i] = number
                assign(depth + 1, weight / number)
                used.discard(number)

    weight = 1.0
    for i in order[: len(order) - len(choosing)]:
        if not options[i] or options[i][0] in used:
            break  # no consistent assignment: every card falls back
        used.add(options[i][0])
        weight /= options[i][0]
    else:
        if choosing:
            assign(0, weight)
    marginals = []
    for i, opts in enumerate(options):
        if len(opts) == 1:
            marginals.append({opts[0]: 1.0})
            continue
        total = totals.get(i, {})
        mass = sum(total.values())
        if mass > 0:
            marginals.append({n: w / mass for n, w in total.items() if w > 0})
        else:
            fallback = opts or list(NUMBERS)
            weight = sum(1 / n for n in fallback)
            marginals.append({n: (1 / n) / weight for n in fallback})
    return tuple(marginals)


def expected(belief: dict[int, float]) -> float:
    """The mean of a number distribution."""
    mean = 0  # summed in order from 0, like sum()
    for n, p in belief.items():
        mean += n * p
    return mean


def belief_of(view: View, beliefs: Beliefs, seat: int, pos: int) -> dict[int, float]:
    """The distribution of a card's number: certain if its face is in the view, else estimated."""
    card = view["rows"][seat][pos]
    return {card["number"]: 1.0} if "number" in card else beliefs[seat, pos]


# Chance that a card of this number takes a trick, by player count (measured in bot games).
WIN_CHANCE = {
    2: {1: 0.11, 2: 0.29, 3: 0.37, 4: 0.38, 5: 0.97, 6: 0.48, 7: 0.57, 8: 0.62, 9: 0.7},
    3: {1: 0.02, 2: 0.07, 3: 0.08, 4: 0.14, 5: 0.95, 6: 0.21, 7: 0.29, 8: 0.42, 9: 0.62},
    4: {1: 0.01, 2: 0.01, 3: 0.02, 4: 0.04, 5: 0.96, 6: 0.08, 7: 0.17, 8: 0.27, 9: 0.52},
}


# How often a follower who can beat a card is assumed to do so.
FOLLOWER_BEATS = 0.7


def trick_distribution(chances: list[float], before: list[float] | None = None) -> list[float]:
    """P(exactly k tricks) when each card wins independently with its chance
    (added to the distribution ``before`` of other cards' tricks, if given)."""
    dist = [1.0] if before is None else before
    for p in chances:
        loses = 1 - p
        below = 0.0  # P(k - 1 tricks) before this card
        nxt = []
        for q in dist:  # k tricks: k before and this card loses, or k - 1 before and it wins
            nxt.append(q * loses + below * p)
            below = q
        nxt.append(below * p)
        dist = nxt
    return dist


def bot_choice(view: View, seat: int, moves: list[Move]) -> Move:
    """The bot's move for its view, among the legal ``moves``."""
    phase = view["phase"]
    if len(moves) == 1:
        return moves[0]
    if phase == "pick":
        return bot_pick(view, moves)
    beliefs, means = estimate_numbers(view)
    if phase == "bid":
        return bot_bid(view, seat, beliefs)
    return bot_play(view, seat, beliefs, means, moves)


def bot_pick(view: View, moves: list[Move]) -> Move:
    """Take the pile whose top looks like a 5 (a trump), else the one with the biggest top."""

    def appeal(move: Move) -> tuple[bool, float]:
        top = view["piles"][move["pile"]]["top"]
        return (size_candidates(top["size"]) == (TRUMP,), top["size"])

    return max(moves, key=appeal)


def bot_bid(view: View, seat: int, beliefs: Beliefs) -> Move:
    """Turn the card whose likely number best matches the tricks the other 8 cards should take."""
    chances_by_number = WIN_CHANCE[view["players"]]
    row = view["rows"][seat]
    belief = [belief_of(view, beliefs, seat, pos) for pos in range(len(row))]
    chance = [sum(p * chances_by_number[n] for n, p in belief[pos].items()) for pos in range(len(row))]
    # The cards before each position, added once: leaving a card out then adds only those after it.
    before = [[1.0]]
    for pos in range(len(row) - 1):
        before.append(trick_distribution([chance[pos]], before[pos]))
    best_pos, best_value = 0, -math.inf
    for pos in range(len(row)):
        dist = trick_distribution(chance[pos + 1 :], before[pos])
        value = sum(
            p_number * p_won * points
            for number, p_number in belief[pos].items()
            for p_won, points in zip(dist, bid_points(number), strict=True)
        )
        if value > best_value + 1e-9:
            best_pos, best_value = pos, value
    return {"type": "bid", "position": best_pos}


@functools.cache
def bid_points(number: int) -> tuple[int, ...]:
    """The points a bid card of this number scores for each count of tricks won, 0 to 8."""
    return tuple(round_points(bid_value(number), won) for won in range(TRICKS_PER_ROUND + 1))


def bot_target(view: View, seat: int, beliefs: Beliefs) -> int:
    """The tricks the bot believes it bid: its bid card's face if seen, else the likeliest number."""
    position = next(pos for pos, card in enumerate(view["rows"][seat]) if card["bid"])
    belief = belief_of(view, beliefs, seat, position)
    return bid_value(max(belief, key=lambda n: (belief[n], -n)))


def bot_play(view: View, seat: int, beliefs: Beliefs, est: Means, moves: list[Move]) -> Move:
    """Play the card whose chance of taking this trick best keeps the bid reachable.

    After this trick the bot's 5s will still win by themselves, and its other
    strong cards may win if it wants: a card costs the tricks it would likely
    leave it over or under its bid.
    """
    players = view["players"]
    need = bot_target(view, seat, beliefs) - view["tricks_won"][seat]
    trick = view["trick"]
    led = trick[0]["colour"] if trick else None
    followers = [(seat + k) % players for k in range(1, players - len(trick))]
    row = view["rows"][seat]
    hand = [pos for pos, card in enumerate(row) if playable(card)]
    chances = WIN_CHANCE[players]
    five = {pos: is_five(est[seat, pos]) for pos in hand}
    fives = sum(five.values())
    flexible = {pos: 0.0 if five[pos] else chances[round(est[seat, pos])] for pos in hand}
    all_flexible = sum(flexible.values())
    keep_strong = need > fives

    def miss(pos: int, win: int) -> float:
        short = need - win - (fives - five[pos])
        return -short if short < 0 else max(0.0, short - (all_flexible - flexible[pos]))

    played = [(entry["colour"], est[entry["seat"], entry["position"]]) for entry in trick]
    hands = [
        hand_threat([(card["colour"], est[other, p]) for p, card in enumerate(view["rows"][other]) if playable(card)])
        for other in followers
    ]

    def cost(move: Move) -> tuple[float, float]:
        pos = move["position"]
        chance = win_chance(row[pos]["colour"], est[seat, pos], led, played, hands)
        expected_miss = chance * miss(pos, 1) + (1 - chance) * miss(pos, 0)
        strength = 10.0 if five[pos] else est[seat, pos]
        return (round(expected_miss, 2), strength if keep_strong else -strength)

    return min(moves, key=cost)


def playable(card: dict[str, Any]) -> bool:
    """Whether a card of a row's view is still in its owner's hand: neither played nor the bid."""
    return not card["played"] and not card["bid"]


def is_five(number: float) -> bool:
    """Whether an estimated number is taken for a 5: within half a unit of it."""
    return abs(number - TRUMP) < 0.5


HandThreat = tuple[dict[str, tuple[bool, float]], bool]


def hand_threat(hand: list[tuple[str, float]]) -> HandThreat:
    """What of a follower's hand of ``(colour, estimated number)`` cards can beat a card: for each colour
    it holds, whether it holds a 5 of it and its highest estimate; and whether it holds any 5.

    Summed up once per decision rather than read again for every card the bot could play.
    """
    held: dict[str, tuple[bool, float]] = {}
    for colour, number in hand:
        five = is_five(number)
        if colour in held:
            has_five, highest = held[colour]
            held[colour] = (has_five or five, max(highest, number))
        else:
            held[colour] = (five, number)
    return held, any(has_five for has_five, _ in held.values())


def win_chance(
    colour: str, number: float, led: str | None, played: list[tuple[str, float]], hands: list[HandThreat]
) -> float:
    """The bot's estimate that a card takes the trick, from the cards already played and the followers' hands.

    Played cards are ``(colour, estimated number)``, hands as ``hand_threat`` sums
    them up. A follower who can beat the card (following with a higher card or
    the led 5, or trumping when void) is assumed to do so with chance ``FOLLOWER_BEATS``.
    """
    led = led or colour
    five = is_five(number)
    if not five and (colour != led or any(is_five(n) or (c == led and n > number) for c, n in played)):
        return 0.0
    chance = 1.0
    for held, any_five in hands:
        if led in held:
            led_five, highest = held[led]
            beats = led_five or (not five and highest > number)
        else:
            beats = any_five
        if beats:
            chance *= 1 - FOLLOWER_BEATS
    return chance


engine = Marumiere()
