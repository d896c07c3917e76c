"""Marumiere's help on the table (issue 27): every back says what its size tells, every face-up card what it
does, and the dealer, the leader, the bid card and the trick explain themselves; "What can I do now?" reads
the seat's legal moves and view.

A back's explanation reads only what every player sees of it, its colour and size, and the game's own data
(``data.json``: numbers 1–9, each drawn afresh each round at ``size_factor`` × its number): the numbers a back
of that size can belong to. That is what a careful player works out at the table, never the face.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.ui import names
from games.ui.base import Move, Players, View
from games.ui.help import Explanation, TableHelp
from marumiere.engine import size_candidates
from marumiere.ui import DATA_FILE, MISERE, TRUMP, face_name, shape_name, suit_name

MARKERS = ("dealer", "leader", "bid", "trick", "piles")


@cache
def game_data() -> dict[str, Any]:
    with DATA_FILE.open(encoding="utf-8") as handle:
        return json.load(handle)


def colours() -> list[str]:
    return [item["name"] for item in game_data()["colours"]]


def size_range(number: int) -> tuple[float, float]:
    """The smallest and largest size a back of ``number`` is drawn at (as the view rounds it)."""
    low, high = game_data()["size_factor"]
    decimals = game_data()["size_decimals"]
    return round(number * low, decimals), round(number * high, decimals)


def numbers_for(size: float) -> list[int]:
    """The numbers whose back can have this size (the engine's own reading of a size)."""
    return list(size_candidates(size))


def back_topic(colour: Any, size: Any) -> str | None:
    """The help topic of a face-down card: its colour and size, what everyone sees of it."""
    if colour not in colours() or not isinstance(size, int | float) or isinstance(size, bool):
        return None
    return f"back-{colour}-{size}"


def face_topic(colour: Any, number: Any) -> str | None:
    if colour not in colours() or number not in game_data()["numbers"]:
        return None
    return f"face-{colour}-{number}"


def _back(colour: str, size_text: str) -> Explanation:
    size = float(size_text)
    numbers = numbers_for(size)
    title = _("%(colour)s %(shape)s, size %(size)s") % {
        "colour": suit_name(colour),
        "shape": shape_name(colour),
        "size": size_text,
    }
    if len(numbers) == 1:
        first = _("Only a %(number)s has a back this size.") % {"number": numbers[0]}
    else:
        first = _("A back this size belongs to one of these numbers: %(numbers)s.") % {
            "numbers": names.join_list(str(number) for number in numbers)
        }
    parts = [
        first,
        _(
            "A back's area grows with the card's number, but each round every card is drawn up to %(percent)s%% "
            "larger or smaller, so high numbers are hard to tell apart."
        )
        % {"percent": round((game_data()["size_factor"][1] - 1) * 100)},
    ]
    if TRUMP in numbers:
        parts.append(_("If it is a 5, it is a trump."))
    return Explanation(title=capfirst(title), text=names.sentences(*parts))


def _face(colour: str, number: int) -> Explanation:
    if number == TRUMP:
        text = _("A trump: whatever colour was led, the last 5 played in a trick wins it.")
    else:
        text = _("Without a 5 in the trick, the highest card of the led colour wins; a %(colour)s card must follow "
                 "%(colour)s.") % {"colour": suit_name(colour)}
    if number == MISERE:
        text = names.sentences(text, _("As a bid card a 9 means misère: a bid of no trick at all."))
    else:
        text = names.sentences(
            text,
            ngettext(
                "As a bid card it bids %(count)s trick.", "As a bid card it bids %(count)s tricks.", number
            ) % {"count": number},
        )
    return Explanation(title=capfirst(face_name(colour, number)), text=text)


def _marker(marker: str) -> Explanation:
    texts = {
        "dealer": (
            _("Dealer"),
            _("The dealer makes the piles, bids first, gets the last pile and leads the first trick."),
        ),
        "leader": (_("Leads"), _("This player leads the trick: the colour of their card is the one to follow.")),
        "bid": (
            _("Bid card"),
            _(
                "The card turned sideways: its number is the bid for this round's 8 tricks (a 9: none at all). "
                "Exactly that many scores; missing it costs points."
            ),
        ),
        "trick": (
            _("Trick"),
            _(
                "Cards are played face down and turn over once everyone has played. The last 5 played wins; "
                "without a 5, the highest card of the led colour."
            ),
        ),
        "piles": (
            _("Piles on offer"),
            _("Each pile becomes one player's row, in pile order. Only its top card's back shows."),
        ),
    }
    title, text = texts[marker]
    return Explanation(title=str(title), text=str(text))


class MarumiereHelp(TableHelp):
    def explain(self, topic: str) -> Explanation | None:
        kind, _sep, rest = topic.partition("-")
        if kind == "back":
            colour, _sep, size = rest.partition("-")
            if colour in colours() and size.replace(".", "", 1).isdigit():
                return _back(colour, size)
        if kind == "face":
            colour, _sep, number = rest.partition("-")
            if colour in colours() and number.isdigit() and int(number) in game_data()["numbers"]:
                return _face(colour, int(number))
        if kind == "marker" and rest in MARKERS:
            return _marker(rest)
        return None

    def catalogue(self) -> list[str]:
        """Every colour's faces, every size a back can have, and the markers."""
        decimals = game_data()["size_decimals"]
        step = 10**-decimals
        topics = []
        for colour in colours():
            topics += [f"face-{colour}-{number}" for number in game_data()["numbers"]]
            sizes = set()
            for number in game_data()["numbers"]:
                low, high = size_range(number)
                size = low
                while size <= high + 1e-9:
                    sizes.add(round(size, decimals))
                    size += step
            topics += [f"back-{colour}-{size}" for size in sorted(sizes)]
        return topics + [f"marker-{marker}" for marker in MARKERS]

    def markers(self, *, view: View, legal_moves: list[Move], seat: int | None) -> list[str]:
        shown = ["marker-dealer", "marker-bid"]
        if view.get("phase") == "play":
            shown += ["marker-leader", "marker-trick"]
        if view.get("piles"):
            shown.append("marker-piles")
        return shown

    def what_now(self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players) -> str:
        kinds = {move.get("type") for move in legal_moves}
        if "pick" in kinds:
            return _(
                "Pick one of the %(count)s piles: its 9 cards become your row, face down, in pile order. You see "
                "only each pile's top back, and its size hints at its number."
            ) % {"count": len(legal_moves)}
        if "bid" in kinds:
            return _(
                "Turn one card of your row sideways: its number is your bid for this round's 8 tricks, and a 9 means "
                "no trick at all. Bigger backs bid more; you will not see its face."
            )
        if "play" not in kinds:
            return ""
        trick = view.get("trick") or []
        if not trick:
            return _(
                "You lead: play any card face down, and its colour is the one to follow. The last 5 played wins the "
                "trick; without a 5, the highest card of the led colour."
            )
        led = suit_name(trick[0].get("colour"))
        row = (view.get("rows") or [[]])[seat] if seat is not None and seat < len(view.get("rows") or []) else []
        positions = {move.get("position") for move in legal_moves}
        following = all(
            isinstance(p, int) and 0 <= p < len(row) and row[p].get("colour") == trick[0].get("colour")
            for p in positions
        )
        if following:
            return ngettext(
                "%(colour)s was led and you hold %(colour)s, so you must follow: %(count)s card you can play. A 5 "
                "played after yours would still win.",
                "%(colour)s was led and you hold %(colour)s, so you must follow: %(count)s cards you can play. A 5 "
                "played after yours would still win.",
                len(positions),
            ) % {"colour": capfirst(led), "count": len(positions)}
        return _(
            "%(colour)s was led and you hold none, so you may play any card. Only a 5 can win the trick for you now."
        ) % {"colour": capfirst(led)}


table_help = MarumiereHelp()
