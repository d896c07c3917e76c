"""Names in sentences, shared by every game UI: players, lists and counts.

Each game's card names live in its own folder (``<game>/names.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _


def lookup(table: dict[str, Any], key: Any) -> str:
    """The translated name of ``key``, or the key itself for something new (never a crash)."""
    name = table.get(key) if isinstance(key, str) else None
    return str(name) if name is not None else str(key)


def player_name(players: list[dict[str, Any]], seat: Any) -> str:
    """A seat's player name; a neutral label when the seat is unknown."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(players):
        name = players[seat].get("name")
        if name:
            return str(name)
    if isinstance(seat, int) and not isinstance(seat, bool):
        return _("Seat %(number)s") % {"number": seat + 1}
    return _("someone")


def player_list(players: list[dict[str, Any]], seats: Iterable[Any]) -> str:
    """Several players' names as one phrase: "Ann and Bob", 「AnnとBob」."""
    return and_list(player_name(players, seat) for seat in seats)


def and_list(items: Iterable[Any]) -> str:
    """Names as a sentence lists them (issue 19): "A and B", "A, B and C"; 「AとB」, 「A 和 B」, « A et B »."""
    parts = [str(item) for item in items]
    if not parts:
        return _("nobody")
    if len(parts) == 1:
        return parts[0]
    head = pgettext("list separator", ", ").join(parts[:-1])
    return _("%(items)s and %(last)s") % {"items": head, "last": parts[-1]}


def platform_winners(players: list[dict[str, Any]], seats: list[Any]) -> list[Any]:
    """The seats that won as the platform counts them, from the engine's winning ``seats`` (issue 35).

    A resigned seat counts as last whatever the bot scored for it (``together.rules.platform_ranks``), so it
    never wins, even when the bot tied for first: once the places are written (each player's ``rank``), the
    winners are the seats in first place (none when everyone resigned); before that, the engine's winners
    less any that resigned. The log, the end banner, the e-mails and the API then name the same winners."""
    if any(p.get("rank") for p in players):
        return [p.get("seat") for p in players if p.get("rank") == 1]
    resigned = {p.get("seat") for p in players if p.get("resigned")}
    return [seat for seat in seats if seat not in resigned]


def winners_sentence(players: list[dict[str, Any]], seats: list[Any]) -> str:
    """The engines' last log line: "Winner: Ann!", or "Winners: Ann and Bob!" for a shared win (issue 19);
    the winners as the platform counts them (``platform_winners``), "The game is over." if nobody won."""
    seats = platform_winners(players, seats)
    if not seats:
        return _("The game is over.")
    return ngettext("The game is over. Winner: %(winners)s!", "The game is over. Winners: %(winners)s!", len(seats)) % {
        "winners": player_list(players, seats)
    }


def join_list(items: Iterable[Any]) -> str:
    """Items as a readable list; the separator is translatable (、 in Japanese)."""
    parts = [str(item) for item in items]
    if not parts:
        return _("nobody")
    return _(", ").join(parts)


def reading_list(items: Iterable[Any]) -> str:
    """Items that hold commas themselves (cards in words) as one list read out (issue 31): "A; B; C"."""
    return pgettext("reading separator", "; ").join(str(item) for item in items)


def sentences(*parts: Any) -> str:
    """Sentences one after another: a space after a Latin full stop, none after a Chinese or Japanese one
    (「阿華 把鳳梨 ×1 放進烤箱。從廚房抽了 1 張。」)."""
    text = ""
    for part in (str(part) for part in parts if part):
        text += part if not text or text.endswith(("。", "！", "？")) else " " + part
    return text


def count_of(name: str, count: Any) -> str:
    """``name ×count``: one form for every language, so no plural rules are needed."""
    return _("%(name)s ×%(count)s") % {"name": name, "count": count}


def localized(pair: Any) -> str:
    """A ``{"ja": ..., "en": ..., "zh-hant": ..., "fr": ...}`` name from engine data in the reader's
    language, falling back to English, then Japanese."""
    if not isinstance(pair, dict):
        return str(pair)
    language = (get_language() or "en").lower()
    for code in (language, language.split("-")[0]):
        if pair.get(code):
            return str(pair[code])
    return str(pair.get("en") or pair.get("ja") or "")
