"""Marumiere's cards as template tags.

Every seat's row of cards and the last trick are drawn on each page (two or three dozen cards); as an
``{% include %}`` each they cost tens of µs apiece to render, built here in a few µs. The markup is the
one the include files had, byte for byte (trailing newline included: it is the space between cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.ui.fast_escape import escape_key as _esc
from games.ui.help import help_attribute

register = template.Library()

@register.simple_tag
def mr_card(c: Mapping[str, Any], place: bool = False) -> SafeString:
    """``{% mr_card c %}``: a card of a row (``c`` from ``row_card()``): its back (drawn with area ∝ size),
    the face number only where the view gives it; ``place=True`` (a row on the table, which the log's
    "position C" points into) adds its place as a letter under the card, never a number on it (issue 35)."""
    c = c if isinstance(c, Mapping) else {}
    classes = (" is-bid" if c.get("bid") else "") + (" is-played" if c.get("played") else "")
    classes += " is-trump" if c.get("is_trump") else ""
    number = (
        f'<span class="mr-card__num" aria-hidden="true">{_esc(c, "number")}</span>'
        if c.get("number") is not None
        else ""
    )
    shown_place = f'<span class="mr-card__pos" aria-hidden="true">{_esc(c, "shown_position")}</span>' if place else ""
    return mark_safe(  # noqa: S308 - every value escaped by _esc (the back's SVG is marked safe by the UI)
        f'<span class="mr-card mr-card--{_esc(c, "colour")}{classes}"{help_attribute(c)}>'
        f'{_esc(c, "svg")}{number}{shown_place}</span>\n'
    )


@register.simple_tag
def mr_face(c: Mapping[str, Any]) -> SafeString:
    """``{% mr_face c %}``: a face-up card of a finished trick (``c`` from ``face_card()``)."""
    c = c if isinstance(c, Mapping) else {}
    return mark_safe(  # noqa: S308 - every value escaped by _esc
        f'<span class="mr-face mr-face--{_esc(c, "colour")}{" is-trump" if c.get("is_trump") else ""}" role="img"'
        f'{help_attribute(c)} '
        f'aria-label="{_esc(c, "label")}"><span class="mr-face__num" aria-hidden="true">{_esc(c, "number")}</span>'
        f'<span class="mr-face__suit" aria-hidden="true">{_esc(c, "colour_name")}</span></span>\n'
    )
