"""HTML escaping for the card template tags, as ``{{ value }}`` would do it, at a fraction of the cost.

Django's ``conditional_escape`` checks every argument for lazy strings, which made a card cost several
times more than its markup; a table has dozens of cards.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

_MISSING = object()


def escape_value(value: Any) -> str:
    """``{{ value }}``: escaped unless it is already safe HTML."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return html.escape(str(value))


def escape_key(mapping: Mapping[str, Any], key: str) -> str:
    """``{{ mapping.key }}``: nothing for a missing key, escaped unless safe."""
    value = mapping.get(key, _MISSING)
    if value is _MISSING:
        return ""
    return escape_value(value)
