"""Comparing a submitted move with the legal ones as JSON, not as Python.

In Python ``True == 1 == 1.0``, so ``{"count": true}`` used to be found among the legal moves as
``{"count": 1}`` and applied. Engines refuse a move of the wrong type (``ENGINE.md``: "whatever its
shape"); the platform does too, and says which field is wrong without echoing the Python value
(an engine's message would read "Card No. True").
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.exceptions import BadInput


def json_type(value) -> str:
    """The JSON type of a decoded value: bool before int, since bool is an int in Python."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "array"
    if isinstance(value, dict):
        return "object"
    return "other"


def same_json(a, b) -> bool:
    """Equal as JSON documents: types must match too (``1``, ``1.0`` and ``true`` all differ)."""
    kind = json_type(a)
    if kind != json_type(b):
        return False
    if kind == "object":
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    if kind == "array":
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def find_move(legal_moves: list, move) -> dict | None:
    """The legal move equal to ``move`` as JSON (the stored, canonical one), else ``None``."""
    for legal in legal_moves:
        if same_json(legal, move):
            return legal
    return None


def _typed_paths(value, path: str = "") -> Iterator[tuple[str, str]]:
    kind = json_type(value)
    yield path, kind
    if kind == "object":
        for key, item in value.items():
            yield from _typed_paths(item, f"{path}.{key}" if path else str(key))
    elif kind == "array":
        for item in value:
            yield from _typed_paths(item, f"{path}[]")


TYPE_NAMES = {
    "null": lambda: _("null"),
    "boolean": lambda: _("true or false"),
    "integer": lambda: _("a whole number"),
    "number": lambda: _("a number"),
    "string": lambda: pgettext("JSON type", "text"),
    "array": lambda: _("a list"),
    "object": lambda: _("an object"),
}


def type_error(legal_moves: list, move) -> BadInput | None:
    """A ``BadInput`` naming the first field of ``move`` whose JSON type no legal move has there
    (``"count": true`` where counts are whole numbers), else ``None`` (the engine says why not)."""
    if not isinstance(move, dict):
        return BadInput(_("A move is a JSON object, one of your legal moves."))
    expected: dict[str, set[str]] = {}
    for legal in legal_moves:
        for path, kind in _typed_paths(legal):
            expected.setdefault(path, set()).add(kind)
    for path, kind in _typed_paths(move):
        if path and path in expected and kind not in expected[path]:
            wanted = " / ".join(str(TYPE_NAMES[name]()) for name in sorted(expected[path]))
            return BadInput(
                _("“%(field)s” in the move has the wrong type: it must be %(expected)s.")
                % {"field": path, "expected": wanted}
            )
    return None
