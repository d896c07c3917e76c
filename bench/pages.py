"""What the load generator reads from a game page, as a browser would: the move forms of the "your move"
section and whether the game is still going. No Django and no HTTP client here, so the test suite checks
these readings against the real pages (``tests/bench/test_bench_reads_pages.py``).
"""

from __future__ import annotations

import html
import random
import re
from dataclasses import dataclass

_SECTION = re.compile(r'<section class="mv"[^>]*id="moves".*?</section>', re.S)
_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
_TAG = re.compile(r"<(input|button)\b([^>]*)>", re.S)
_ATTR = re.compile(r'([\w:-]+)(?:="([^"]*)")?')


@dataclass
class MoveForm:
    action: str
    hidden: list[tuple[str, str]]
    buttons: list[tuple[str, str]]  # (name, value) submit buttons; one is pressed
    radios: dict[str, list[str]]  # name -> values; one of each is chosen

    def fill(self, rng: random.Random) -> list[tuple[str, str]]:
        data = list(self.hidden)
        chosen: set[str] = set()
        for name, values in self.radios.items():
            # A player picks different things in different groups: Konamon!'s "Card to play" and "Card to
            # discard" offer the same cards, and the same card twice is refused (a clear 400, rightly).
            fresh = [value for value in values if value not in chosen] or values
            choice = rng.choice(fresh)
            chosen.add(choice)
            data.append((name, choice))
        if self.buttons:
            data.append(rng.choice(self.buttons))
        return data


def _attrs(text: str) -> dict[str, str]:
    return {name: html.unescape(value or "") for name, value in _ATTR.findall(text)}


def move_forms(page: str) -> list[MoveForm]:
    """The forms of the page's "your move" section (none when it is not this seat's move)."""
    section = _SECTION.search(page)
    if section is None:
        return []
    forms = []
    for form_attrs, body in _FORM.findall(section.group(0)):
        action = _attrs(form_attrs).get("action", "")
        hidden, buttons, radios = [], [], {}
        for tag, attr_text in _TAG.findall(body):
            attrs = _attrs(attr_text)
            name, value, kind = attrs.get("name"), attrs.get("value", ""), attrs.get("type", "")
            if not name:
                continue
            if tag == "button":
                buttons.append((name, value))
            elif kind == "hidden":
                hidden.append((name, value))
            elif kind == "radio":
                radios.setdefault(name, []).append(value)
        if action and (buttons or radios or any(n not in ("csrfmiddlewaretoken", "version", "idempotency_key")
                                                for n, _v in hidden)):
            forms.append(MoveForm(action, hidden, buttons, radios))
    return forms


# The game's status as the page's live region states it: "<version>.<status>.<...>". A finished game's
# page keeps a live region (chat, rematch offers), so "has a live region" does not mean "still going".
_LIVE_TOKEN = re.compile(r'\bdata-live-token="\d+\.([a-z_]+)\.')
GOING = {"open", "active"}  # games.models.GameStatus.OPEN and ACTIVE


def game_over(page: str) -> bool:
    """True when the page says its game has ended (finished, abandoned, called off...); False while it is
    open or active, and for a page that is not a game page (an error: nothing is known)."""
    found = _LIVE_TOKEN.search(page)
    return found is not None and found.group(1) not in GOING
