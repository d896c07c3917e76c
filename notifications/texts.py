"""Words of the e-mails that do not live in templates: what a seat is awaited for, platform events."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

# Per game: legal move type -> what the player is asked to do. The first type of
# the seat's legal moves that is listed here wins; else the generic phrase.
_AWAITED = {
    "mamma-mia": [
        ("turn", gettext_lazy("it is your turn")),
        ("bake", gettext_lazy("decide about your recipe in the oven")),
        ("decline", gettext_lazy("decide about your recipe in the oven")),
    ],
    "konamon": [
        ("choose", gettext_lazy("choose your cards")),
        ("prep", gettext_lazy("work your card")),
        ("bake", gettext_lazy("work your card")),
        ("hand_over", gettext_lazy("work your card")),
        ("unload", gettext_lazy("work your card")),
        ("next", gettext_lazy("work your card")),
    ],
    "marumiere": [
        ("pick", gettext_lazy("pick a pile")),
        ("bid", gettext_lazy("place your bid")),
        ("play", gettext_lazy("play a card")),
    ],
}


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
    table = _AWAITED.get(slug, [])
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
