"""Mamma Mia!'s topping and recipe cards as template tags.

A table shows a dozen or more of them (hand, table, oven, baked recipes, the move forms), each with a
topping drawing or two; as ``{% include %}``s (a card, then an include per drawing) they cost tens
of µs apiece to render, built here in a few µs. The markup is the one the include files had, byte for
byte (trailing newlines included: they are the spaces between cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.ui.fast_escape import escape_key as _esc
from games.ui.help import help_attribute

register = template.Library()

# Each topping's drawing (constant markup: no value from outside goes in).
_ICONS = {
    "pineapple": mark_safe(
        '<path fill="#3f8f3f" d="M12 9 L8.5 2.5 L12 5.5 L15.5 2.5 Z"/>'
        '<ellipse cx="12" cy="15" rx="6" ry="7.5" fill="#e8b923" stroke="#8a6d0b" stroke-width="1"/>'
        '<path d="M7.5 11 L16.5 20 M7 15 L13 21 M10 8.5 L17 15.5 M16.5 11 L7.5 20 M17 15 L11 21 M14 8.5 L7 15.5"'
        ' stroke="#8a6d0b" stroke-width="0.9" fill="none"/>'
    ),
    "olive": mark_safe(
        '<ellipse cx="12" cy="12" rx="7.5" ry="9" fill="#5f7024" stroke="#33400f" stroke-width="1"/>'
        '<circle cx="12" cy="12" r="3.2" fill="#c0392b"/>'
        '<ellipse cx="9" cy="7.5" rx="1.6" ry="1" fill="#c8d39a"/>'
    ),
    "pepper": mark_safe(
        '<path d="M7.5 6.5 Q5 3.5 7.5 2.5" stroke="#2f5d1f" stroke-width="1.8" fill="none"/>'
        '<path fill="#2e8b3d" stroke="#1b5e20" stroke-width="1"'
        ' d="M5 8 Q6 5 9 6 Q17 8 20.5 21 Q12 18 6.5 11.5 Q4.5 10 5 8 Z"/>'
        '<path d="M9 9 Q14 11 17 17" stroke="#a5d6a7" stroke-width="1.2" fill="none"/>'
    ),
    "mushroom": mark_safe(
        '<rect x="9" y="11.5" width="6" height="9" rx="2" fill="#f3e6cf" stroke="#8b6b4a" stroke-width="1"/>'
        '<path d="M2.5 13 Q12 -1 21.5 13 Z" fill="#a0522d" stroke="#5d2f12" stroke-width="1"/>'
        '<circle cx="9" cy="8.5" r="1.4" fill="#f8ead8"/>'
        '<circle cx="14.5" cy="7" r="1.1" fill="#f8ead8"/>'
        '<circle cx="16.5" cy="10.5" r="1" fill="#f8ead8"/>'
    ),
    "salami": mark_safe(
        '<circle cx="12" cy="12" r="9.5" fill="#b22234" stroke="#6d0f1c" stroke-width="1"/>'
        '<circle cx="8" cy="9" r="1.5" fill="#f7d3d7"/>'
        '<circle cx="14.5" cy="7.5" r="1.2" fill="#f7d3d7"/>'
        '<circle cx="15.5" cy="14" r="1.6" fill="#f7d3d7"/>'
        '<circle cx="9.5" cy="15.5" r="1.2" fill="#f7d3d7"/>'
        '<circle cx="12" cy="11.5" r="0.9" fill="#f7d3d7"/>'
    ),
}
_UNKNOWN_ICON = mark_safe('<circle cx="12" cy="12" r="9" fill="#999"/>')
_MISSING = object()


def _icon(kind: Any, size: int) -> str:
    """A topping's drawing (decorative: the name always sits next to it)."""
    kind_text = _esc({"kind": kind}, "kind") if kind is not _MISSING else ""
    shape = _ICONS.get(kind, _UNKNOWN_ICON) if isinstance(kind, str) else _UNKNOWN_ICON
    return (
        f'<svg class="mm-icon mm-icon--{kind_text}" viewBox="0 0 24 24" width="{size}" height="{size}" '
        f'aria-hidden="true" focusable="false">{shape}</svg>\n'
    )


@register.simple_tag
def mm_topping(t: Mapping[str, Any], small: bool = False) -> SafeString:
    """``{% mm_topping t small=True %}``: a topping card; ``t`` = {kind, name, count}, the count shown as a
    ×n badge when given; ``small`` for the compact one."""
    t = t if isinstance(t, Mapping) else {}
    count = t.get("count")
    badge = f'<span class="mm-topping__count">×{_esc(t, "count")}</span>' if count is not None else ""
    return mark_safe(  # noqa: S308 - every value escaped by _esc, the drawings are constants
        f'<span class="mm-topping mm-topping--{_esc(t, "kind")}{" is-small" if small else ""}"{help_attribute(t)}>'
        f'{_icon(t.get("kind", _MISSING), 20 if small else 30)}<span class="mm-topping__name">{_esc(t, "name")}</span>'
        f"{badge}</span>\n"
    )


@register.simple_tag
def mm_recipe(r: Mapping[str, Any], small: bool = False) -> SafeString:
    """``{% mm_recipe r small=True %}``: a recipe card face (``r`` from ``recipe_card()``); ``small`` for the
    compact version."""
    r = r if isinstance(r, Mapping) else {}
    symbol = r.get("symbol")
    needs = "".join(
        f'<span class="mm-need">{_icon(need.get("kind", _MISSING), 18)}'
        f'<span class="mm-need__n">{_esc(need, "count")}</span>'
        f'<span class="visually-hidden">{_esc(need, "name")}</span></span>'
        for need in (n if isinstance(n, Mapping) else {} for n in r.get("needs") or ())
    )
    return mark_safe(  # noqa: S308 - every value escaped by _esc, the drawings are constants
        f'<span class="mm-recipe mm-recipe--{_esc(r, "colour")}{" is-small" if small else ""}'
        f'{" is-special" if symbol else ""}" title="{_esc(r, "label")}"{help_attribute(r)}>'
        f'<span class="mm-recipe__head">{_esc(r, "name")}</span><span class="mm-recipe__body">'
        + (f'<span class="mm-recipe__symbol" aria-hidden="true">{_esc(r, "symbol")}</span>' if symbol else "")
        + needs
        + (f'<span class="mm-recipe__rule">{_esc(r, "rule")}</span>' if r.get("rule") and not small else "")
        + "</span>"
        + (f'<span class="visually-hidden">{_esc(r, "label")}</span>' if small else "")
        + "</span>\n"
    )
