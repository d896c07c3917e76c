"""Display names may not imitate another player or a bot.

A name is compared after Unicode compatibility folding (NFKC: full-width letters, ligatures), case folding and
without spaces, dots, dashes or underscores, with every other user's username and display name, and with the
bots' names ("Bot 1") in every language of the site.

Look-alikes too (issue 29 item 7): each name's *skeleton*, as Unicode Technical Standard 39 defines it (every
character replaced by the prototype of its class of confusables: Cyrillic а and Latin a; digit 1, capital I,
small l and, names being compared case-blind, small i...), after that folding and without the accents of Latin,
Greek and Cyrillic letters ("ALİCE" folds to "ali" + a combining dot), must differ from every other account's;
the skeletons are kept on ``NameSkeleton`` rows (one indexed query). And a name is written in one writing
system, or in one of the mixes TR 39's "highly restrictive" level allows (Japanese kanji and kana with Latin;
Han with Bopomofo, Hangul with Han): "Tаro" with a Cyrillic а is refused whoever else exists. Unicode's data
come from ``confusable-homoglyphs``.
"""

from __future__ import annotations

import functools
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


@functools.cache
def _confusable_classes() -> tuple[dict[str, str], dict[str, str]]:
    """(character → the representative of its class of confusables, character → the string it looks like) from
    Unicode's confusables.txt, as ``confusable-homoglyphs`` ships it (each source with its prototype, both ways)."""
    from confusable_homoglyphs.confusables import confusables_data

    parent: dict[str, str] = {}

    def find(char: str) -> str:
        while parent.get(char, char) != char:
            parent[char] = parent.get(parent[char], parent[char])
            char = parent[char]
        return char

    expansions: dict[str, str] = {}
    for char, entries in confusables_data.items():
        if len(char) != 1:
            continue
        for entry in entries:
            other = entry["c"].replace("\u200e", "")  # the package marks right-to-left characters
            if len(other) == 1:
                a, b = find(char), find(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)  # the lowest code point stands for the class (ASCII first)
            elif other and len(entries) == 1:
                expansions[char] = other  # a source whose prototype is a sequence ("m" looks like "rn")
    # Case counts as look-alike too (names are compared case-blind): capital I looks like small l, so small i
    # joins their class.
    for char in list(parent):
        folded = char.casefold()
        if len(folded) == 1 and folded != char:
            a, b = find(char), find(folded)
            if a != b:
                parent[max(a, b)] = min(a, b)
    return {char: find(char) for char in parent}, expansions


_ACCENTED_SCRIPTS_END = 0x0530  # Latin, IPA, Greek and Cyrillic letters: their accents are set aside


def skeleton(name: str) -> str:
    """What ``name`` looks like (TR 39's skeleton of its folded form, accents of European letters set aside)."""
    classes, expansions = _confusable_classes()
    out: list[str] = []
    base = ""
    for char in unicodedata.normalize("NFD", fold(name)):
        if unicodedata.combining(char):
            if base and ord(base) < _ACCENTED_SCRIPTS_END:
                continue
            out.append(char)
            continue
        base = char
        for part in expansions.get(char, char):
            out.append(classes.get(part, part))
    return "".join(out)


# TR 39 "highly restrictive": one script, or one of these mixes (Common and Inherited characters aside).
_ALLOWED_MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)


def mixes_scripts(name: str) -> bool:
    from confusable_homoglyphs.categories import unique_aliases

    scripts = unique_aliases(unicodedata.normalize("NFKC", name or "")) - {"COMMON", "INHERITED"}
    return len(scripts) > 1 and not any(scripts <= allowed for allowed in _ALLOWED_MIXES)


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
    from trust.models import NameSkeleton

    looks = skeleton(name)
    alike = NameSkeleton.objects.exclude(user_id=user.pk).filter(Q(username=looks) | Q(display_name=looks))
    if others.exists() or alike.exists():
        return _("Another player is called that. Choose a name of your own.")
    if mixes_scripts(name):
        return _("Write your name in one writing system: letters from several, which can look alike, could "
                 "imitate another player.")
    return None


def keep_skeletons(user) -> None:
    """Store what ``user``'s names look like (after each save that may have changed them)."""
    from trust.models import NameSkeleton

    NameSkeleton.objects.update_or_create(
        user_id=user.pk,
        defaults={"username": skeleton(user.username), "display_name": skeleton(user.display_name or "")},
    )
