"""Display names may not imitate another player or a bot.

A name is compared after Unicode compatibility folding (NFKC: full-width letters, ligatures), case folding and
without spaces, dots, dashes or underscores, with every other user's username and display name, and with the
bots' names ("Bot 1") in every language of the site.
"""

from __future__ import annotations

import re
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext as _

_IGNORED = re.compile(r"[\s._\-·・'’`\"]+")


def fold(name: str) -> str:
    return _IGNORED.sub("", unicodedata.normalize("NFKC", name or "").casefold())


def _bot_patterns() -> list[re.Pattern]:
    patterns = []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            template = fold(str(_("Bot {n}")))
        head, _sep, tail = template.partition("{n}")
        patterns.append(re.compile(re.escape(head) + r"\d*" + re.escape(tail)))
    return patterns


def imitation_reason(name: str, *, user) -> str | None:
    """Why ``user`` may not show as ``name``, or ``None``."""
    folded = fold(name)
    if not folded:
        return None
    if folded in ("bot", "bots", "robot") or any(p.fullmatch(folded) for p in _bot_patterns()):
        return _("This name is kept for the bots.")
    candidates = {name.strip(), unicodedata.normalize("NFKC", name).strip(), folded}
    query = Q()
    for candidate in candidates:
        query |= Q(username__iexact=candidate) | Q(display_name__iexact=candidate)
    others = get_user_model().objects.exclude(pk=user.pk).filter(query)
    if others.exists():
        return _("Another player is called that. Choose a name of your own.")
    return None
