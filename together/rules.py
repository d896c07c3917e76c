"""Small rules of playing together: no database, no clock."""

from __future__ import annotations

import re
import unicodedata

from django.utils.html import urlize
from django.utils.safestring import SafeString, mark_safe

from games.play.ranks import platform_ranks  # noqa: F401 - the platform's rule, read here by together
from together.models import CHAT_MAX_LENGTH

CALL_OFF_DEFAULT_HOURS = 72  # a call-off proposal in a game without a time limit lapses after 3 days
STALLED_DAYS = 14  # without a time limit, the others may hand a seat to the bot after this long


def notes_allowed(*, engine_slug: str, options: dict | None) -> bool:
    """Private notes, unless the game's rules forbid memory aids with these options (the game says so:
    ``GameAppConfig.forbids_memory_aids``; Mamma Mia! with ``memory=strict``)."""
    from games.registry import get_game

    try:
        game = get_game(engine_slug)
    except KeyError:
        return True
    return not game.forbids_memory_aids(options or {})


def clean_chat_text(text) -> str | None:
    """The message as it will be stored: control characters other than line breaks dropped, line
    breaks normalised, at most two blank lines in a row, trimmed. ``None`` if nothing is left or it
    is longer than ``CHAT_MAX_LENGTH`` characters."""
    if not isinstance(text, str):
        return None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = "".join(ch for ch in text if ch == "\n" or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co"))
    text = re.sub(r"\n{3,}", "\n\n", text).strip()
    if not text or len(text) > CHAT_MAX_LENGTH:
        return None
    return text


def chat_html(text: str) -> SafeString:
    """A message for a page or an HTML e-mail: escaped, with web links made clickable (and nothing else:
    no markup, no smileys). Line breaks are kept by the stylesheet (``white-space: pre-wrap``)."""
    # urlize with autoescape escapes every part that is not a link it builds (and the links' text).
    return mark_safe(urlize(text, trim_url_limit=60, nofollow=True, autoescape=True))  # noqa: S308


