"""Words of the e-mails that do not live in templates: what a seat is awaited for, platform events."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _


def move_types(legal_moves: Iterable) -> list[str]:
    """The distinct ``type`` of legal moves, in order of first appearance."""
    types: list[str] = []
    for move in legal_moves or []:
        kind = move.get("type") if isinstance(move, dict) else None
        if isinstance(kind, str) and kind not in types:
            types.append(kind)
    return types


def awaited_phrase(slug: str, types: Iterable[str]) -> str:
    """What the game awaits from the seat, as a phrase ("it is your turn", "place your bid")."""
    from games.ui import get_ui

    try:
        table = get_ui(slug).awaited_phrases
    except KeyError:  # a game no longer installed
        table = ()
    for kind in types or []:
        for listed, phrase in table:
            if listed == kind:
                return str(phrase)
    return _("it is your move")


def platform_event_text(kind: str, name: str) -> str | None:
    """A platform event (games.models.GameEvent) as a sentence, or None for kinds not worth an e-mail."""
    if kind == "timeout":
        return _("%(name)s ran out of time; a bot moved for them.") % {"name": name}
    if kind == "dropped_out":
        return _("%(name)s dropped out; a bot plays their seat from now on.") % {"name": name}
    return None
