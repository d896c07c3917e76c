"""Help on the table (issue 27): every card, customer, topping and marker explains itself, and "What can I do
now?" says what the seat's legal moves mean.

A game brings its explanations in one module beside its engine, ``<game folder>/table_help.py``, holding
``table_help``: a ``TableHelp``. The platform shows them the same way for every game:

- a card or marker the game wants explained carries a *topic* (``"topping-salami"``, ``"customer-c07"``,
  ``"back-red-4.9"``): the UI puts it under the key ``"help_topic"`` of the card's template context, and the card's
  template tag writes ``data-help="help-<topic>"`` on the card (templates may write it by hand on a marker);
- the board (``templates/games/_help.html``) holds one explanation per topic drawn on it, found by walking
  the game's template context for ``"help_topic"`` keys (plus the game's ``markers``), each a hidden popover whose
  id is ``help-<topic>``; ``static/js/help.js`` shows it on tap, hover and keyboard focus and makes it each
  card's accessible description;
- ``what_now`` is one or two sentences beside the move form.

Need to know: the topics come from the template context built from the viewer's view, an explanation reads
only its topic (public card data), and ``what_now`` reads the viewer's view and legal moves. Nothing here
sees the state.
"""

from __future__ import annotations

import importlib
import logging
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from django.utils import translation
from django.utils.html import format_html

from games.ui.base import Move, Players, View

logger = logging.getLogger(__name__)

# A topic becomes part of an element id: letters, digits, dots and dashes only.
_TOPIC = re.compile(r"^[a-z0-9][a-z0-9.-]{0,80}$")
PREFIX = "help-"
# The key of a card's template context that names its topic.
TOPIC_KEY = "help_topic"


@dataclass(frozen=True)
class Explanation:
    """What one card or marker is, in the reader's language: a short title and one to three sentences."""

    title: str
    text: str


class TableHelp:
    """A game's explanations; each game folder subclasses it in ``table_help.py``."""

    def explain(self, topic: str) -> Explanation | None:
        """The explanation of one topic, or ``None`` for a topic this game does not know."""
        return None

    def catalogue(self) -> list[str]:
        """Every topic the game's data holds (each card, customer, topping, colour and marker): the tests
        check that each has an explanation in every language."""
        return []

    def markers(self, *, view: View, legal_moves: list[Move], seat: int | None) -> list[str]:
        """Topics the game's templates mark by hand (a zone, a tag), shown on this page."""
        return []

    def what_now(self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players) -> str:
        """One or two sentences on what the seat's legal moves mean now; ``""`` when it has none."""
        return ""


@cache
def help_of(slug: str) -> TableHelp | None:
    """The game's ``table_help`` (module ``table_help`` beside its engine), or ``None`` for a game without one."""
    from games.engines import get_engine

    package = type(get_engine(slug)).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.table_help")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.table_help":
            raise
        return None
    return module.table_help


def dom_id(topic: str) -> str:
    """The element id of a topic's explanation (and the value of ``data-help`` on what it explains)."""
    return PREFIX + topic


def topics_in(context: Any) -> Iterator[str]:
    """Every ``"help_topic"`` in a template context (dicts and lists, any depth), in order, once each."""
    seen: set[str] = set()
    stack = [context]
    found: list[str] = []
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            topic = node.get(TOPIC_KEY)
            if isinstance(topic, str) and topic not in seen:
                seen.add(topic)
                found.append(topic)
            stack.extend(reversed([v for v in node.values() if isinstance(v, dict | list | tuple)]))
        elif isinstance(node, list | tuple):
            stack.extend(reversed([v for v in node if isinstance(v, dict | list | tuple)]))
    return iter(found)


def table_help_context(
    slug: str,
    *,
    gameui: dict[str, Any],
    view: View,
    legal_moves: list[Move],
    seat: int | None,
    players: Players,
) -> dict[str, Any]:
    """The board's help: ``{"entries": [{"id", "title", "text"}], "what_now": str}``, from the game's
    template context (built from the viewer's view) and the viewer's legal moves only."""
    game_help = help_of(slug)
    if game_help is None:
        return {"entries": [], "what_now": ""}
    topics = [*topics_in(gameui), *game_help.markers(view=view, legal_moves=legal_moves, seat=seat)]
    entries, seen = [], set()
    for topic in topics:
        if topic in seen or not _TOPIC.match(topic):
            continue
        seen.add(topic)
        entry = _entry(slug, topic, translation.get_language() or "")
        if entry is not None:
            entries.append(entry)
    what_now = ""
    if legal_moves:
        what_now = game_help.what_now(view=view, legal_moves=legal_moves, seat=seat, players=players)
    return {"entries": entries, "what_now": what_now}


@lru_cache(maxsize=8192)
def _entry(slug: str, topic: str, language: str) -> dict[str, Any] | None:
    """A topic's explanation on the board: its id, title, text and its markup, a hidden popover (rendered
    here once per topic and language: a board holds dozens)."""
    explanation = _explained(slug, topic, language)
    if explanation is None:
        return None
    html = format_html(
        '<div id="{}" class="help-pop" popover="manual" role="tooltip"><strong class="help-pop__title">{}</strong>'
        ' <span class="help-pop__text">{}</span></div>',
        dom_id(topic),
        explanation.title,
        explanation.text,
    )
    return {"id": dom_id(topic), "title": explanation.title, "text": explanation.text, "html": html}


@lru_cache(maxsize=8192)
def _explained(slug: str, topic: str, language: str) -> Explanation | None:
    """A topic's explanation in ``language`` (the active one), computed once per process: it depends on the
    topic, the game's data and the catalogues only, which change with a deployment (a new process)."""
    game_help = help_of(slug)
    if game_help is None:
        return None
    try:
        return game_help.explain(topic)
    except (KeyError, TypeError, ValueError, IndexError, AttributeError):
        # A card the data does not know (a changed data file): no help for it, never a broken page.
        logger.warning("no help for topic %r", topic, exc_info=True)
        return None


def help_attribute(card: Any) -> str:
    """`` data-help="help-<topic>"`` for a card's template tag when its context has a ``"help_topic"``, else
    ``""``: the card then explains itself (``static/js/help.js``)."""
    topic = card.get(TOPIC_KEY) if isinstance(card, Mapping) else None
    if not isinstance(topic, str) or not _TOPIC.match(topic):
        return ""
    return f' data-help="{PREFIX}{topic}"'
