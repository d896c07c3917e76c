"""The per-game UI: tables, move forms, log sentences and move errors for people.

The platform calls exactly this::

    ui = get_ui(slug)
    ctx = ui.page_context(view=view, legal_moves=legal_moves, seat=seat, players=players)
    # include ui.table_template and ui.moves_template with ctx (all under the key "gameui")
    move = ui.parse_move(request.POST, legal_moves=legal_moves)   # or BadMoveInput
    describe_event(slug, event, players, viewer=None)               # escaped, translated sentence ("you": viewer)
    illegal_move_message(exc)                                        # translated IllegalMove text
    ui.revealed_hands(state)                                         # then include ui.revealed_template

Notes for the templates that include ours:

- ``page_context`` returns ``{"gameui": {...}}`` only, so nothing of the
  platform's context is overwritten; the templates also need ``game`` (for
  ``{% url 'game-move' game.id %}``) and ``games/_move_hidden_fields.html``.
- ``ui.revealed_template`` renders ``revealed_hands`` (the list
  ``revealed_hands(state)`` returned) and reads names from ``players``.
  Shapes: Mamma Mia! ``[{"seat", "toppings": [card], "recipes": [card],
  "topping_count"}]``; Konamon! ``[{"seat", "cards": [action card]}]``;
  Marumiere ``[{"seat", "cards": [{"position", "colour", "number",
  "is_trump", "bid", "played", "label"}]}]``. Works on any state, so replays
  may show hands mid-game too.
- ``illegal_move_message`` takes an optional ``slug=``; without it the game is
  found from the traceback (codes like ``not_in_hand`` mean different things
  in two games).
- Forms post one legal move as JSON in a ``move`` field (buttons and radio
  lists), or, for the Mamma Mia! turn and the two-player Konamon! discard,
  radio groups ``play``/``recipe``/``draw`` and ``play``/``discard``.
- ``static/css/games.css`` styles everything; ``static/js/games.js`` (loaded by
  the Mamma Mia! move form itself) only adds a summary line.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from games.ui.base import BadMoveInput, GameUI, generic_event_text
from games.ui.messages import COMMON_TEMPLATES, render_message

__all__ = ["BadMoveInput", "GameUI", "describe_event", "get_ui", "illegal_move_message"]



def get_ui(slug: str) -> GameUI:
    """The UI of a game slug (its folder's ``ui``, found through the registry); ``KeyError`` for an unknown slug."""
    from games.registry import get_game

    return get_game(slug).ui


def _slugs() -> list[str]:
    from games.engines import engine_slugs

    return engine_slugs()


def describe_event(
    slug: str, event: Mapping[str, Any], players: list[dict[str, Any]], *, viewer: int | None = None
) -> SafeString:
    """One structured log event as a translated, HTML-escaped sentence naming players and cards; with ``viewer``
    (a seat number), an event about that seat is told to it in the second person (e-mails to their reader)."""
    if slug not in _slugs():
        return mark_safe(escape(generic_event_text(event, players)))  # noqa: S308 - escaped
    return get_ui(slug).describe_event(event, players=players, viewer=viewer)


def illegal_move_message(exc: BaseException, *, slug: str | None = None) -> str:
    """An engine ``IllegalMove`` in the reader's language; ``str(exc)`` for a code nobody knows.

    ``slug`` (optional) names the game whose codes to try first; without it the
    common codes, then every game's, are tried in turn (codes shared by games
    mean the same thing).
    """
    slug = slug or _raised_by(exc)
    tables = []
    if slug in _slugs():
        ui = get_ui(slug)
        tables.append((ui.message_templates, ui.message_formatters))
    tables.append((COMMON_TEMPLATES, {}))
    tables += [(get_ui(o).message_templates, get_ui(o).message_formatters) for o in _slugs() if o != slug]
    for templates, formatters in tables:
        text = render_message(exc, templates=templates, formatters=formatters)
        if text is not None:
            return text
    return str(exc)


def _raised_by(exc: BaseException) -> str | None:
    """The slug of the engine module that raised ``exc`` (codes may mean different things in two games)."""
    from games.engines import get_engine

    modules = {type(get_engine(slug)).__module__: slug for slug in _slugs()}
    found = None
    traceback = exc.__traceback__
    while traceback is not None:
        found = modules.get(traceback.tb_frame.f_globals.get("__name__"), found)
        traceback = traceback.tb_next
    return found
