"""How long a game lasts and how far one has come, in words: "3 rounds, ~30 moves each", "round 2 of 3".

The figures are each game folder's own measurement (``length.json``, written by ``python -m games.engines.length``
from bot self-play, read through ``games.registry``); the round a game is in is ``Game.round``, stored with each
move. Nothing here reads a view, a state or the database.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.registry import GameLength, get_game


def about(value: float) -> int:
    """A measured mean as people say it: to the nearest 5 from 20 on ("~80 moves"), else to the nearest whole."""
    return int(5 * round(value / 5)) if value >= 20 else max(1, round(value))


def length_of(slug: str, players: int) -> GameLength | None:
    try:
        return get_game(slug).length(players)
    except KeyError:
        return None


def rounds_text(length: GameLength) -> str:
    if length.fixed_rounds is not None:
        count = length.fixed_rounds
        return ngettext("%(count)s round", "%(count)s rounds", count) % {"count": count}
    count = about(length.rounds_mean)
    return ngettext("~%(count)s round", "~%(count)s rounds", count) % {"count": count}


def moves_text(length: GameLength) -> str:
    count = about(length.moves_mean)
    return ngettext("~%(count)s move each", "~%(count)s moves each", count) % {"count": count}


def length_text(slug: str, players: int) -> str:
    """"3 rounds, ~30 moves each" for a game of ``players``; "" when the game has no measurement."""
    length = length_of(slug, players)
    if length is None:
        return ""
    return _("%(rounds)s, %(moves)s") % {"rounds": rounds_text(length), "moves": moves_text(length)}


def length_range_text(slug: str) -> str:
    """Over every seat count: "3 rounds, ~20–35 moves each", "3–4 rounds, ~30–40 moves each"."""
    try:
        lengths = list(get_game(slug).lengths.values())
    except KeyError:
        return ""
    if not lengths:
        return ""
    fixed = {length.fixed_rounds for length in lengths}
    if None not in fixed and len(fixed) == 1:
        rounds = rounds_text(lengths[0])
    elif None not in fixed:
        low, high = min(fixed), max(fixed)
        rounds = _("%(low)s–%(high)s rounds") % {"low": low, "high": high}
    else:
        low, high = min(about(x.rounds_mean) for x in lengths), max(about(x.rounds_mean) for x in lengths)
        rounds = (
            ngettext("~%(count)s round", "~%(count)s rounds", low) % {"count": low}
            if low == high
            else _("~%(low)s–%(high)s rounds") % {"low": low, "high": high}
        )
    low, high = min(about(x.moves_mean) for x in lengths), max(about(x.moves_mean) for x in lengths)
    moves = (
        ngettext("~%(count)s move each", "~%(count)s moves each", low) % {"count": low}
        if low == high
        else _("~%(low)s–%(high)s moves each") % {"low": low, "high": high}
    )
    return _("%(rounds)s, %(moves)s") % {"rounds": rounds, "moves": moves}


def seats_text(minimum: int, maximum: int) -> str:
    if minimum == maximum:
        return ngettext("%(count)s player", "%(count)s players", minimum) % {"count": minimum}
    return _("%(min)s–%(max)s players") % {"min": minimum, "max": maximum}


def progress_text(game) -> str:
    """"round 2 of 3", "round 7 of ~19" (rounds vary), "round 2" (not measured); "" before the start."""
    if game.round is None:
        return ""
    length = length_of(game.engine_slug, game.players)
    if length is None:
        return _("round %(round)s") % {"round": game.round}
    if length.fixed_rounds is not None:
        return _("round %(round)s of %(rounds)s") % {"round": game.round, "rounds": length.fixed_rounds}
    expected = about(length.rounds_mean)
    if game.round > expected:  # a long game: past what the measurement expects
        return _("round %(round)s") % {"round": game.round}
    return _("round %(round)s of ~%(rounds)s") % {"round": game.round, "rounds": expected}
