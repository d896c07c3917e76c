"""マルミエール (Marumiere): rows of face-down cards whose backs show colour and size.

Backs are drawn by ``marumiere.card_backs`` (area proportional to the
view's ``size``), so a page never shows more than the view: a face number is
printed only where the view gives ``number``. Every move is one click: a pile
by its top back, a card of the row by its back; buttons post one legal move.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext_lazy, ngettext, pgettext_lazy
from django.utils.translation import gettext as _

from games.ui import names
from games.ui.base import GameUI, Move, Players, View, at, move_value, plural_count
from marumiere.card_backs import MAX_SIZE, card_back_svg
from marumiere.engine import size_candidates
from marumiere.names import SUIT_NAMES, SUIT_SHAPES

DATA_FILE = Path(__file__).resolve().parent / "data.json"
TRUMP = 5
MISERE = 9
TRICKS_PER_ROUND = 8
# One scale for every back on the page (card_backs.MAX_SIZE), so equal sizes always look equal.
PORTRAIT = (60, 84)
SIDEWAYS = (84, 60)

PHASE_NAMES = {
    "pick": pgettext_lazy("marumiere phase", "picking piles"),
    "bid": pgettext_lazy("marumiere phase", "bidding"),
    "play": pgettext_lazy("marumiere phase", "playing tricks"),
    "over": pgettext_lazy("marumiere phase", "game over"),
}


# Names ------------------------------------------------------------------------------------


@cache
def colour_data() -> dict[str, dict[str, Any]]:
    """The engine's colour table (its Japanese names)."""
    with DATA_FILE.open(encoding="utf-8") as handle:
        return {item["name"]: item for item in json.load(handle)["colours"]}


def suit_name(colour: Any) -> str:
    """A colour's name: the data file's Japanese one for ja readers, else the translated English one."""
    data = colour_data().get(colour) if isinstance(colour, str) else None
    if data and data.get("ja") and (get_language() or "").lower().startswith("ja"):
        return str(data["ja"])
    return names.lookup(SUIT_NAMES, colour)


def shape_name(colour: Any) -> str:
    return names.lookup(SUIT_SHAPES, colour)


def bid_phrase(number: Any) -> str:
    """What a bid card's number means: a 9 is misère (no trick)."""
    if number == MISERE:
        return _("misère (no trick)")
    return ngettext("%(count)s trick", "%(count)s tricks", number if isinstance(number, int) else 2) % {"count": number}


def face_name(colour: Any, number: Any) -> str:
    return _("%(colour)s %(number)s") % {"colour": suit_name(colour), "number": number}


# Cards -----------------------------------------------------------------------------------


def back_svg(colour: str, size: float, *, sideways: bool = False, stack: int = 0, label: str) -> SafeString:
    """A card back drawn by the engine's ``card_backs`` (it escapes the label itself)."""
    box = SIDEWAYS if sideways else PORTRAIT
    return mark_safe(  # noqa: S308
        card_back_svg(colour, size, max_size=MAX_SIZE, box=box, stack=stack, label=label, turned=sideways)
    )


def place_letter(position: Any) -> str:
    """A card's place in its row as a letter, "A" for the first (issue 35): cards are worth 1-9, so a place
    written as a number is read as the card's value."""
    if isinstance(position, int) and not isinstance(position, bool) and 0 <= position < 26:
        return chr(ord("A") + position)
    return str(position)


# How big a back looks, in words (issue 31): what a sighted player reads off it at a glance.
BIGNESS = {
    "small": pgettext_lazy("marumiere back", "small"),
    "medium": pgettext_lazy("marumiere back", "medium"),
    "large": pgettext_lazy("marumiere back", "large"),
}


def size_reading(size: Any) -> tuple[str, str] | None:
    """A back's size as a sighted player reads it (issue 31): how big it looks and which numbers it can
    be ("large", "probably 7 to 9"), from the size the view gives and nothing else; ``None`` without one."""
    if not isinstance(size, int | float) or isinstance(size, bool):
        return None
    numbers = size_candidates(float(size))
    bigness = "small" if size < 3.5 else "medium" if size < 6.5 else "large"
    if len(numbers) == 1:
        likely = _("probably %(number)s") % {"number": numbers[0]}
    else:
        likely = _("probably %(low)s to %(high)s") % {"low": numbers[0], "high": numbers[-1]}
    return str(BIGNESS[bigness]), likely


def card_label(card: Mapping[str, Any], *, position: int | None = None) -> str:
    """A back in words: how big it looks, colour, shape and size (what every sighted player reads off the
    back) with the numbers that size allows, and the face if seen."""
    reading = size_reading(card.get("size"))
    what = {"colour": suit_name(card.get("colour")), "shape": shape_name(card.get("colour")), "size": card.get("size")}
    if reading is None:
        parts = [_("%(colour)s %(shape)s, size %(size)s") % what]
    else:
        parts = [_("%(bigness)s %(colour)s %(shape)s, size %(size)s") % {**what, "bigness": reading[0]}]
        if "number" not in card:
            parts.append(reading[1])
    if position is not None:
        parts.insert(0, _("Position %(position)s") % {"position": place_letter(position)})
    if "number" in card:
        parts.append(_("face %(number)s") % {"number": card["number"]})
    if card.get("bid"):
        parts.append(_("bid card"))
    elif card.get("played"):
        parts.append(_("played"))
    return names.join_list(parts)


def row_card(card: Mapping[str, Any], position: int) -> dict[str, Any]:
    """One card of a row, as the templates draw it."""
    label = card_label(card, position=position)
    sideways = bool(card.get("bid"))
    return {
        "position": position,
        "shown_position": place_letter(position),
        "colour": card.get("colour"),
        "number": card.get("number"),
        "is_trump": card.get("number") == TRUMP,
        "bid": sideways,
        "played": bool(card.get("played")) and not sideways,
        "label": label,
        "svg": back_svg(card["colour"], card["size"], sideways=sideways, label=label),
        # Its explanation on the table (marumiere/table_help.py): the face where the view gives it, else the back.
        "help_topic": f"face-{card.get('colour')}-{card['number']}" if "number" in card
        else f"back-{card.get('colour')}-{card.get('size')}",
    }


def face_card(card: Mapping[str, Any], players: Players, *, winner: Any = None) -> dict[str, Any]:
    """A card of a trick: face down (no number) or, for the last trick, face up."""
    number = card.get("number")
    seat = card.get("seat")
    return {
        "player": names.player_name(players, seat),
        "colour": card.get("colour"),
        "colour_name": suit_name(card.get("colour")),
        "number": number,
        "is_trump": number == TRUMP,
        "is_winner": winner is not None and seat == winner,
        "label": face_name(card.get("colour"), number) if number is not None else card_label(card),
        "help_topic": f"face-{card.get('colour')}-{number}" if number is not None else None,
    }


def trick_card(card: Mapping[str, Any], players: Players) -> dict[str, Any]:
    """A card in the trick being played: its back only."""
    label = _("%(player)s: %(card)s") % {
        "player": names.player_name(players, card.get("seat")),
        "card": card_label(card),
    }
    return {
        "player": names.player_name(players, card.get("seat")),
        "svg": back_svg(card["colour"], card["size"], label=label) if "size" in card else None,
        "colour": card.get("colour"),
        "label": label,
        "help_topic": f"back-{card.get('colour')}-{card.get('size')}" if "size" in card else None,
    }


def pile_option(index: int, pile: Mapping[str, Any], number: int | None = None) -> dict[str, Any]:
    """A pile on offer; ``number`` is its number when the round's piles were laid out (issue 19: a pile
    keeps its number when another is taken), else its place among those left."""
    number = number or index + 1
    top = pile.get("top") or {}
    top_label = card_label(top)
    label = _("Pile %(number)s, top card: %(card)s") % {"number": number, "card": top_label}
    return {
        "index": index,
        "number": number,
        "count": pile.get("count"),
        "label": label,
        "top_label": top_label,
        "svg": back_svg(top["colour"], top["size"], stack=3, label=label) if top else None,
        "help_topic": f"back-{top.get('colour')}-{top.get('size')}" if top else None,
    }


def numbered_picks(
    events: list[Mapping[str, Any]], players: int
) -> tuple[list[Mapping[str, Any]], list[int] | None]:
    """``events`` with each pick after its round's start given the ``number`` its pile had when the
    round's piles were laid out (one per player, numbered from 1; issue 19: a pile keeps its number when
    another is taken), as copies; and the numbers of the piles still on offer (``None`` when the round's
    start is not among ``events``). A pick names its pile by its place among those left then."""
    numbered: list[Mapping[str, Any]] = []
    numbers: list[int] | None = None
    for event in events:
        kind = event.get("type")
        if kind == "round_start":
            numbers = list(range(1, players + 1))
        elif kind == "pick" and numbers:
            pile = 0 if event.get("last") else event.get("pile")
            if isinstance(pile, int) and 0 <= pile < len(numbers):
                event = {**event, "number": numbers.pop(pile)}
            else:
                numbers = None
        numbered.append(event)
    return numbered, numbers


def pile_numbers(log: list[Mapping[str, Any]], players: int, piles_left: int) -> list[int]:
    """The laid-out numbers of the piles still on offer (their places when the log lacks the round's start)."""
    _events, numbers = numbered_picks(log, players)
    return numbers if numbers is not None and len(numbers) == piles_left else list(range(1, piles_left + 1))


# Seats and tricks ----------------------------------------------------------------------


def bid_context(bid: Mapping[str, Any] | None, row: list[Mapping[str, Any]]) -> dict[str, Any] | None:
    """A seat's bid as this viewer knows it: not yet, hidden, or its number."""
    if not bid:
        return None
    number = bid.get("number")
    if number is None:
        card = at(row, bid.get("position", -1))
        if card and "number" in card:
            number = card["number"]
    return {"position": bid.get("position"), "number": number, "phrase": bid_phrase(number) if number else None}


def last_trick_context(last: Mapping[str, Any] | None, players: Players) -> dict[str, Any] | None:
    if not last:
        return None
    winner = last.get("winner")
    return {
        "cards": [face_card(card, players, winner=winner) for card in last.get("cards") or []],
        "winner": names.player_name(players, winner),
    }


def results_context(results: list[Mapping[str, Any]], players: Players) -> dict[str, Any] | None:
    """Past rounds as a seats × rounds table: points, with the bid and tricks taken."""
    if not results:
        return None
    rows = []
    for seat in range(len(players)):
        cells = []
        for result in results:
            entry = next((e for e in result.get("seats") or [] if e.get("seat") == seat), None)
            cells.append(
                {
                    "points": f"{entry['points']:+d}",
                    "detail": _("bid %(bid)s, took %(won)s")
                    % {"bid": short_bid(entry.get("number")), "won": entry.get("won")},
                }
                if entry
                else None
            )
        rows.append({"player": names.player_name(players, seat), "cells": cells})
    return {"rounds": [result.get("round") for result in results], "rows": rows}


def short_bid(number: Any) -> str:
    return _("misère") if number == MISERE else str(number)


# Forms ------------------------------------------------------------------------------------


def row_form(legal_moves: list[Move], row: list[Mapping[str, Any]], kind: str) -> list[dict[str, Any]]:
    """The viewer's row: each legal position a button (its back), the others shown but not offered."""
    by_position = {m.get("position"): m for m in legal_moves if m.get("type") == kind}
    cells = []
    for position, card in enumerate(row):
        cell = row_card(card, position)
        move = by_position.get(position)
        cell["value"] = move_value(move) if move else None
        cell["why_not"] = "" if move else why_not(card, kind)
        cells.append(cell)
    return cells


def why_not(card: Mapping[str, Any], kind: str) -> str:
    if card.get("bid"):
        return _("your bid card: not played")
    if card.get("played"):
        return _("already played")
    if kind == "play":
        return _("you must follow the led colour")
    return ""


def led_colour(trick: list[Mapping[str, Any]]) -> str | None:
    return trick[0].get("colour") if trick else None


# Log events ----------------------------------------------------------------------------------


def _seat(event: Mapping[str, Any], players: Players, key: str = "seat") -> str:
    return names.player_name(players, event.get(key))


def _pick(event: dict[str, Any], players: Players) -> str:
    if event.get("last"):
        return _("%(player)s gets the last pile.") % {"player": _seat(event, players)}
    # The pile's laid-out number when the log says it (``numbered_picks``), else its place among those left.
    return _("%(player)s takes pile %(pile)s.") % {
        "player": _seat(event, players),
        "pile": event.get("number") or event["pile"] + 1,
    }


def _bid_seen(event: dict[str, Any], players: Players) -> str:
    return _("%(player)s's bid card (position %(position)s) shows %(number)s: a bid of %(bid)s.") % {
        "player": _seat(event, players),
        "position": place_letter(event["position"]),
        "number": event["number"],
        "bid": bid_phrase(event["number"]),
    }


def _trick_won(event: dict[str, Any], players: Players) -> str:
    values = {"player": _seat(event, players), "trick": event["trick"]}
    cards = [c for c in event.get("cards") or [] if c.get("seat") == event.get("seat")]
    if cards and cards[0].get("number") is not None:
        values["card"] = face_name(cards[0].get("colour"), cards[0]["number"])
        return _("%(player)s wins trick %(trick)s with %(card)s.") % values
    return _("%(player)s wins trick %(trick)s.") % values


def _round_score(event: dict[str, Any], players: Players) -> str:
    values = {
        "player": _seat(event, players),
        "bid": bid_phrase(event["number"]),
        "won": event["won"],
        "points": f"{event['points']:+d}",
        "total": event["total"],
    }
    return ngettext(
        "%(player)s bid %(bid)s, took %(won)s: %(points)s point (total %(total)s).",
        "%(player)s bid %(bid)s, took %(won)s: %(points)s points (total %(total)s).",
        plural_count(event["points"]),
    ) % values


EVENT_DESCRIBERS = {
    "round_start": lambda e, p: (
        _("Round %(round)s of %(rounds)s: %(dealer)s deals.")
        % {"round": e["round"], "rounds": e["rounds"], "dealer": _seat(e, p, "dealer")}
    ),
    "pick": _pick,
    "bid": lambda e, p: (
        _("%(player)s turns a card sideways as their bid (position %(position)s).")
        % {"player": _seat(e, p), "position": place_letter(e["position"])}
    ),
    "bid_seen": _bid_seen,
    "play": lambda e, p: (
        _("%(player)s plays a %(colour)s card face down.")
        % {"player": _seat(e, p), "colour": suit_name(e.get("colour"))}
    ),
    "trick_won": _trick_won,
    "round_score": _round_score,
    "game_end": lambda e, p: (
        names.winners_sentence(p, e.get("winners") or [])
    ),
}


# The same events told to the player they are about (e-mails to their reader: "You win trick 3.").


def _you_trick_won(event: dict[str, Any], players: Players) -> str:
    values = {"trick": event["trick"]}
    cards = [c for c in event.get("cards") or [] if c.get("seat") == event.get("seat")]
    if cards and cards[0].get("number") is not None:
        values["card"] = face_name(cards[0].get("colour"), cards[0]["number"])
        return _("You win trick %(trick)s with %(card)s.") % values
    return _("You win trick %(trick)s.") % values


YOU_DESCRIBERS = {
    "round_start": lambda e, p: (
        _("Round %(round)s of %(rounds)s: you deal.") % {"round": e["round"], "rounds": e["rounds"]}
    ),
    "pick": lambda e, p: (
        _("You get the last pile.") if e.get("last") else _("You take pile %(pile)s.") % {"pile": e["pile"] + 1}
    ),
    "bid": lambda e, p: (
        _("You turn a card sideways as your bid (position %(position)s).") % {"position": place_letter(e["position"])}
    ),
    "bid_seen": lambda e, p: (
        _("Your bid card (position %(position)s) shows %(number)s: a bid of %(bid)s.")
        % {"position": place_letter(e["position"]), "number": e["number"], "bid": bid_phrase(e["number"])}
    ),
    "play": lambda e, p: _("You play a %(colour)s card face down.") % {"colour": suit_name(e.get("colour"))},
    "trick_won": _you_trick_won,
    "round_score": lambda e, p: (
        ngettext(
            "You bid %(bid)s, took %(won)s: %(points)s point (total %(total)s).",
            "You bid %(bid)s, took %(won)s: %(points)s points (total %(total)s).",
            plural_count(e["points"]),
        )
        % {"bid": bid_phrase(e["number"]), "won": e["won"], "points": f"{e['points']:+d}", "total": e["total"]}
    ),
}
YOU_SUBJECTS = {"round_start": "dealer"}

# Twins of the engine's MESSAGES, translatable.
MESSAGE_TEMPLATES = {
    "game_over": gettext_lazy("The game is over."),
    "no_such_seat": gettext_lazy("There is no seat %(seat)s in this game."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "bad_move": gettext_lazy("That is not a move."),
    "unknown_move": gettext_lazy("There is no move called %(type)s in Marumiere."),
    "wrong_phase": gettext_lazy("You cannot do that now: the game awaits %(phase)s."),
    "missing_field": gettext_lazy("The %(type)s move needs a %(field)s."),
    "unexpected_field": gettext_lazy("The %(type)s move has an unexpected field %(field)s."),
    "no_such_pile": gettext_lazy("There is no such pile: choose one of the piles on offer."),
    "no_such_position": gettext_lazy("There is no such position in your row."),
    "bid_card": gettext_lazy("That card is your bid card: it is not played."),
    "already_played": gettext_lazy("You already played that card."),
    "must_follow": gettext_lazy("You must follow %(colour)s: you still have a %(colour)s card."),
}
MESSAGE_FORMATTERS = {
    "colour": suit_name,
    "phase": lambda phase: names.lookup(PHASE_NAMES, phase),
}


class MarumiereUI(GameUI):
    slug = "marumiere"
    awaited_phrases = (
        ("pick", gettext_lazy("pick a pile")),
        ("bid", gettext_lazy("place your bid")),
        ("play", gettext_lazy("play a card")),
    )
    option_labels = {
        "variant": (
            pgettext_lazy("marumiere option", "Bid cards"),
            gettext_lazy("Who sees the card each player turns for their bid."),
            {
                "standard": gettext_lazy("Standard: everyone but the bidder"),
                # The game's own Japanese names follow as a reading aid: players meet them on the box and the rules.
                "nobody": gettext_lazy("Nobody sees (誰もミエーズ): no one until the round ends"),
                "self": gettext_lazy("Only I see (自分だけミエール): only the bidder"),
            },
        ),
    }
    event_describers = EVENT_DESCRIBERS
    you_describers = YOU_DESCRIBERS
    you_subjects = YOU_SUBJECTS
    message_templates = MESSAGE_TEMPLATES
    message_formatters = MESSAGE_FORMATTERS

    def seat_details(self, *, view: View, seat: int, players: Players) -> dict[str, Any]:
        """The seat's row of backs, its bid as far as this viewer knows it, tricks won, dealer and leader."""
        row = at(view.get("rows"), seat) or []
        return {
            "row": [row_card(card, position) for position, card in enumerate(row)],
            "bid": bid_context(at(view.get("bids"), seat), row),
            "tricks_won": at(view.get("tricks_won"), seat),
            "is_dealer": view.get("dealer") == seat,
            "is_leader": view.get("leader") == seat and view.get("phase") == "play",
        }

    def game_context(
        self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players
    ) -> dict[str, Any]:
        trick = view.get("trick") or []
        piles = view.get("piles") or []
        numbers = pile_numbers(view.get("log") or [], len(players), len(piles))
        form = self.form_context(legal_moves=legal_moves, view=view, seat=seat, numbers=numbers)
        return {
            "phase": view.get("phase"),
            "phase_name": names.lookup(PHASE_NAMES, view.get("phase")),
            "rounds": view.get("rounds"),
            "variant": view.get("variant"),
            "dealer": names.player_name(players, view.get("dealer")),
            "trick_number": min((view.get("tricks_played") or 0) + 1, TRICKS_PER_ROUND),
            "tricks_per_round": TRICKS_PER_ROUND,
            "piles": [pile_option(i, pile, at(numbers, i)) for i, pile in enumerate(piles)],
            "trick": [trick_card(card, players) for card in trick],
            "led": suit_name(led_colour(trick)) if trick else None,
            "last_trick": last_trick_context(view.get("last_trick"), players),
            "results": results_context(view.get("results") or [], players),
            "form": form,
            # The viewer's row moves into the form while they choose a card, so it is not drawn twice.
            "row_in_form": form["kind"] in ("bid", "play"),
            "piles_in_form": form["kind"] == "pick",
        }

    def readings(self, *, view: View, seat: int | None, players: Players, context: dict[str, Any]) -> dict[str, str]:
        """The viewer's row card by card, and the piles on offer or the trick and the last trick (issue 31)."""
        readings: dict[str, str] = {}
        row = at(view.get("rows"), seat) if seat is not None else None
        if seat is not None:
            cards = names.reading_list(card_label(c, position=i) for i, c in enumerate(row or []))
            readings["hand"] = _("Your row: %(cards)s.") % {"cards": cards} if row else _(
                "You have no row yet: pick a pile first."
            )
        parts = []
        if context["piles"]:
            piles = names.reading_list(p["label"] for p in context["piles"])
            parts.append(_("Piles on offer: %(piles)s.") % {"piles": piles})
        if view.get("phase") == "play":
            number = context["trick_number"]
            if context["trick"]:
                cards = names.reading_list(t["label"] for t in context["trick"])
                parts.append(
                    _("Trick %(number)s, %(colour)s led: %(cards)s.")
                    % {"number": number, "colour": context["led"], "cards": cards}
                )
            else:
                parts.append(_("Trick %(number)s: no card played yet.") % {"number": number})
        last = context["last_trick"]
        if last:
            cards = names.reading_list(
                _("%(player)s: %(card)s") % {"player": c["player"], "card": c["label"]} for c in last["cards"]
            )
            parts.append(_("Last trick, won by %(player)s: %(cards)s.") % {"player": last["winner"], "cards": cards})
        round_text = _("Round %(round)s of %(rounds)s: %(phase)s.") % {
            "round": context["round"],
            "rounds": context["rounds"],
            "phase": context["phase_name"],
        }
        readings["table"] = names.sentences(round_text, *parts)
        return readings

    @staticmethod
    def form_context(
        *, legal_moves: list[Move], view: View, seat: int | None, numbers: list[int] | None = None
    ) -> dict[str, Any]:
        kinds = {m.get("type") for m in legal_moves}
        if not legal_moves or seat is None:
            return {"kind": None}
        if "pick" in kinds:
            piles = view.get("piles") or []
            return {
                "kind": "pick",
                "piles": [
                    {**pile_option(m["pile"], piles[m["pile"]], at(numbers, m["pile"])), "value": move_value(m)}
                    for m in legal_moves
                    if isinstance(m.get("pile"), int) and 0 <= m["pile"] < len(piles)
                ],
            }
        kind = "bid" if "bid" in kinds else "play"
        row = at(view.get("rows"), seat) or []
        trick = view.get("trick") or []
        return {
            "kind": kind,
            "cells": row_form(legal_moves, row, kind),
            "led": suit_name(led_colour(trick)) if trick else None,
            "leading": not trick,
        }

    def move_label(self, move: Move, *, view: View) -> str | None:
        """A pile by its top back, a card of the seat's own row by its back (and face, where the view
        gives it), as the page's buttons say them."""
        kind = move.get("type")
        if kind == "pick":
            return pile_option(move["pile"], (view.get("piles") or [])[move["pile"]])["label"]
        if kind in ("bid", "play"):
            row = (view.get("rows") or [])[view["seat"]]
            card = card_label(row[move["position"]], position=move["position"])
            return _("Bid: %(card)s") % {"card": card} if kind == "bid" else _("Play: %(card)s") % {"card": card}
        return None

    def final_details(self, state: dict[str, Any], players: Players) -> dict[int, dict[str, Any]]:
        """Each round's points: the bid and the tricks taken (equal totals share the place)."""
        details: dict[int, dict[str, Any]] = {}
        for result in state.get("results") or []:
            for row in result.get("seats") or []:
                details.setdefault(row["seat"], {"parts": [], "tie_break": ""})["parts"].append(
                    _("round %(round)s: %(points)s (bid %(bid)s, took %(won)s)")
                    % {
                        "round": result.get("round"),
                        "points": f"{row['points']:+d}",
                        "bid": bid_phrase(row.get("number")),
                        "won": row.get("won"),
                    }
                )
        return details

    def annotated_log(self, events: list[Mapping[str, Any]], *, players: Players) -> list[Mapping[str, Any]]:
        """Each pick with its pile's laid-out number: "takes pile 3" says the same pile all round."""
        return numbered_picks(events, len(players))[0]

    def revealed_hands(self, state: dict[str, Any]) -> list[Any]:
        """Each seat's row with every face.

        Shape: ``[{"seat": s, "cards": [{"position", "colour", "colour_name", "number", "is_trump", "bid", "played",
        "label"}]}]`` (``position`` a letter, ``place_letter``: the faces show numbers).
        """
        rows = state.get("rows") or []
        bids = state.get("bids") or []
        played = state.get("played") or []
        revealed = []
        for seat, row in enumerate(rows):
            cards = []
            for position, card_id in enumerate(row):
                colour, _sep, number = str(card_id).rpartition("-")
                cards.append(
                    {
                        "position": place_letter(position),
                        "colour": colour,
                        "colour_name": suit_name(colour),
                        "number": int(number) if number.isdigit() else number,
                        "is_trump": number == str(TRUMP),
                        "bid": at(bids, seat) == position,
                        "played": bool(at(at(played, seat) or [], position)),
                        "label": face_name(colour, number),
                    }
                )
            revealed.append({"seat": seat, "cards": cards})
        return revealed


ui = MarumiereUI()
