"""The API's JSON parser: whatever comes in, a 400 rather than a 500.

``NaN``, ``Infinity`` and numbers too large for a float (``1e999``) are refused too, as DRF's strict JSON
renderer could not write them back.

Python's ``json`` recurses once per nesting level: ``[`` x 50,000 raises ``RecursionError`` (which DRF's parser
does not catch). PostgreSQL refuses NUL in text and JSON, and a lone surrogate (``"\\ud800"``) cannot be
encoded back into UTF-8 when a message echoes it: both are refused here, with the nesting, before any view sees
the data.
"""

from __future__ import annotations

import codecs
import json
import math

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class JsonRefused(ParseError):
    """A body refused for a reason worth telling the client (its message is kept in the API's answer; any
    other parse error is answered with a generic message, never the parser's English or an echo of the input)."""

MAX_JSON_DEPTH = 32  # a move or a game's options are a few levels deep


def unsafe_reason(data, *, max_depth: int = MAX_JSON_DEPTH) -> str | None:
    """Why ``data`` (parsed JSON) may not go further, or ``None``: too deep, NUL or a lone surrogate in a string."""
    stack = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict | list):
            if depth > max_depth:
                return _("The JSON is nested too deeply.")
            items = value.items() if isinstance(value, dict) else ((None, v) for v in value)
            for key, item in items:
                if key is not None and not text_is_safe(key):
                    return _("The JSON holds characters that are not allowed (NUL or a lone surrogate).")
                stack.append((item, depth + 1))
        elif isinstance(value, str) and not text_is_safe(value):
            return _("The JSON holds characters that are not allowed (NUL or a lone surrogate).")
        elif isinstance(value, float) and not math.isfinite(value):
            return _("Numbers must be finite.")
    return None


def _no_constants(name: str):
    raise ValueError(f"{name} is not valid JSON")


def text_is_safe(text: str) -> bool:
    """No NUL, and encodable as UTF-8 (no lone surrogate)."""
    if "\x00" in text:
        return False
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
            data = json.loads(text, parse_constant=_no_constants)
        except RecursionError:
            raise JsonRefused(_("The JSON is nested too deeply.")) from None
        except ValueError:
            raise ParseError() from None  # answered "not valid JSON" (api.errors)
        reason = unsafe_reason(data)
        if reason is not None:
            raise JsonRefused(reason)
        return data
