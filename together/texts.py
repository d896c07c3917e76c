"""Sentences of playing together for the game log (platform events)."""

from __future__ import annotations

from django.utils.translation import gettext as _


def platform_event_text(kind: str, name: str) -> str | None:
    name = name or _("A player")
    if kind == "resigned":
        return _("%(name)s resigned: the bot plays their seat to the end.") % {"name": name}
    if kind == "handed_over":
        return _("%(name)s was away too long: the bot plays their seat now.") % {"name": name}
    if kind == "abandoned":
        return _("The players called the game off: it ends without a ranking.")
    return None
