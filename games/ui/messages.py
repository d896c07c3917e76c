"""Engine ``IllegalMove`` codes as translated messages for players.

Each engine module documents its codes in ``MESSAGES`` (English templates with
``{name}`` params); each game UI keeps the translatable twin of every code in
``message_templates`` (``%(name)s`` params, for gettext tooling) and knows how
to show each param (a product id becomes its translated name).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy

from games.ui import names

logger = logging.getLogger(__name__)

# Codes every engine shares; a game's own template for the same code wins.
COMMON_TEMPLATES: dict[str, Any] = {
    "illegal": gettext_lazy("That move is not allowed now."),
    "game_over": gettext_lazy("The game is over."),
    "not_your_turn": gettext_lazy("It is not your turn."),
}

ParamFormatter = Callable[[Any], str]


def format_params(params: dict[str, Any], formatters: dict[str, ParamFormatter]) -> dict[str, str]:
    """Every param as display text: known keys by their formatter, lists joined, the rest as text."""
    shown: dict[str, str] = {}
    for key, value in params.items():
        formatter = formatters.get(key)
        if formatter is not None:
            shown[key] = formatter(value)
        elif isinstance(value, list | tuple):
            shown[key] = names.join_list(value)
        else:
            shown[key] = str(value)
    return shown


def render_message(
    exc: BaseException, *, templates: dict[str, Any], formatters: dict[str, ParamFormatter]
) -> str | None:
    """The translated message for ``exc.code`` from ``templates``, or ``None`` if there is none."""
    code = getattr(exc, "code", None)
    template = templates.get(code) if isinstance(code, str) else None
    if template is None:
        return None
    params = getattr(exc, "params", None) or {}
    try:
        return str(template) % format_params(dict(params), formatters)
    except (KeyError, TypeError, ValueError):
        # The engine changed a code's params: better its English text than a crash.
        logger.warning("cannot render message %r with %r", code, params, exc_info=True)
        return None
