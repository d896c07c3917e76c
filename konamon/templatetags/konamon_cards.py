"""Konamon!'s action cards and chips as template tags.

A Konamon! table shows dozens of them (hands, played cards, boards, the stock, the move buttons); as
an ``{% include %}`` each they cost 30–80 µs apiece to render, built here in a few µs. The markup is the
one the include files had, byte for byte (trailing newline included: it is the space between cards).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from games.ui.fast_escape import escape_value
from games.ui.help import help_attribute

register = template.Library()

# The drawing of each product (constant markup: no value from outside goes in).
_SHAPES = {
    "okonomiyaki": mark_safe(
        '<circle class="kn-dough" cx="12" cy="12" r="10"/>'
        '<path class="kn-sauce" d="M6 10 L9 8 L12 10 L15 8 L18 10 M6 14 L9 12 L12 14 L15 12 L18 14"/>'
    ),
    "taiyaki": mark_safe(
        '<path class="kn-dough" d="M2 12 C5 4.5 14 4.5 17.5 12 C14 19.5 5 19.5 2 12 Z M17 12 L22.5 6.5 L22.5 17.5 Z"/>'
        '<circle class="kn-eye" cx="6.5" cy="10.5" r="1.3"/>'
        '<path class="kn-sauce" d="M9 9 Q11 12 9 15 M12 9 Q14 12 12 15"/>'
    ),
    "takoyaki": mark_safe(
        '<circle class="kn-dough" cx="12" cy="13" r="9"/>'
        '<path class="kn-sauce" d="M4.5 10.5 Q12 3 19.5 10.5 Q12 8 4.5 10.5 Z"/>'
        '<circle class="kn-eye" cx="9" cy="15" r="1.2"/><circle class="kn-eye" cx="14.5" cy="16" r="1.2"/>'
    ),
}
_UNKNOWN_SHAPE = mark_safe('<circle class="kn-dough" cx="12" cy="12" r="10"/>')


def _esc(value: Any) -> str:
    """``{{ value }}`` in a template: escaped unless safe, ``None`` as nothing (a missing key)."""
    return "" if value is None else escape_value(value)


@register.simple_tag
def kn_action_card(card: Mapping[str, Any]) -> SafeString:
    """``{% kn_action_card card %}``: an action card face (``card`` from ``games.ui.konamon.action_card``). Its parts
    are separated by spaces (flex and grid items: no change on screen) so its text reads "3 prep 0 bake 1 …", as a
    move button's accessible name must hold it (WCAG 2.5.3)."""
    card = card if isinstance(card, Mapping) else {}
    counts = "".join(
        f'<span class="kn-proc kn-proc--{_esc(c.get("process"))}{"" if c.get("count") else " is-zero"}">'
        f'<span class="kn-proc__name">{_esc(c.get("name"))}</span> '
        f'<span class="kn-proc__n">{_esc(c.get("count"))}</span></span> '
        for c in card.get("counts") or ()
    )
    return mark_safe(  # noqa: S308 - every value escaped by _esc
        f'<span class="kn-action" title="{_esc(card.get("label"))}"{help_attribute(card)}><span class="kn-action__num">'
        f'{_esc(card.get("number"))}</span> <span class="kn-action__counts">{counts}</span></span>\n'
    )


@register.simple_tag
def kn_chip(chip: Mapping[str, Any], decorative: bool = False) -> SafeString:
    """``{% kn_chip chip decorative=True %}``: one product chip as a small drawing. Raw chips are pale
    with a dashed edge, cooked ones golden: the look and the label both carry it. ``decorative``
    inside a labelled control (hidden from assistive technology); otherwise the chip is an image
    labelled with ``chip.label``."""
    chip = chip if isinstance(chip, Mapping) else {}
    product = chip.get("product")
    state = "is-cooked" if chip.get("cooked") else "is-raw"
    if decorative:
        opening = 'aria-hidden="true">'
    else:
        label = _esc(chip.get("label"))
        opening = f'role="img" aria-label="{label}"{help_attribute(chip)}><title>{label}</title>'
    shape = _SHAPES.get(product, _UNKNOWN_SHAPE) if isinstance(product, str) else _UNKNOWN_SHAPE
    return mark_safe(  # noqa: S308 - every value escaped by _esc, the shapes are constants
        f'<svg class="kn-chip kn-chip--{_esc(product)} {state}" viewBox="0 0 24 24" width="28" height="28" '
        f"{opening}{shape}</svg>\n"
    )
