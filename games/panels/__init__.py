"""The table is composed of panels (issue 26): what each app adds to the game page, its live partial, the
end screen (the page of a finished game) and the replay.

A panel is one file (a ``Panel``: its template, place, order, condition and selector) and one line in its app's
``AppConfig.ready()``::

    from games import panels
    from together.panels import chat

    panels.register(chat.panel)

The view builds a ``Table`` for the viewer (the game, its seats, the viewer's seat and player rows, never the
game's state) and asks ``shown(table)`` for the panels whose ``condition(table)`` holds; each such panel's
``selector(table)`` reads its own data (one query at most, none when it has nothing to show) and returns its
template's context. A panel that needs the viewer's view asks ``table.seat_view()``: the viewer's own
``SeatView`` row (``None`` for a spectator), read once per request.

Places: ``above`` (live part, between the turn status and the board), ``main`` (live part, under the board),
``below`` (under the live part: not re-rendered by the live partial), ``player`` and ``player_end`` (in each
player's row of the board, beside the name or at the row's end: the selector returns ``{seat number: fields}``
that go into the player rows, which are part of the cached board's key, and the template is rendered once per
row with ``p``). Pages: ``game`` (the game page,
its live partial and the end screen) and ``replay``. Within a place, panels show by ``order``, then name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.template.loader import get_template
from django.utils.safestring import SafeString, mark_safe

PLACES = ("above", "main", "below", "player", "player_end")
PAGES = ("game", "replay")


def always(table: Table) -> bool:
    return True


@dataclass(frozen=True)
class Panel:
    name: str
    template: str
    place: str
    order: int = 100
    pages: frozenset[str] = frozenset({"game"})
    condition: Callable[[Table], bool] = always
    selector: Callable[[Table], dict[str, Any]] | None = None

    def __post_init__(self) -> None:
        if self.place not in PLACES:
            raise ValueError(f"panel {self.name}: place {self.place!r} is not one of {PLACES}")
        if not set(self.pages) <= set(PAGES):
            raise ValueError(f"panel {self.name}: pages {sorted(self.pages)} are not among {PAGES}")


@dataclass
class Table:
    """What a panel knows of the table, for one viewer and one request."""

    request: Any
    game: Any
    seats: list
    seat: Any  # the viewer's Seat, or None
    seat_number: int | None
    may_view: bool
    players: list[dict]
    page: str = "game"
    extra: dict[str, Any] = field(default_factory=dict)  # the page's own facts (the replay's step)
    activity_stamp: int = 0  # panels add what their table activity stands at (the live partial's token)
    _read: dict[str, Any] = field(default_factory=dict)
    _seat_view: Any = None
    _seat_view_read: bool = False

    @property
    def user(self):
        return getattr(self.request, "user", None)

    @property
    def viewer(self):
        """The signed-in user, or ``None``."""
        user = self.user
        return user if user is not None and user.is_authenticated else None

    def once(self, key: str, read: Callable[[], Any]) -> Any:
        """What ``read()`` gives, read once per request for every panel that asks by ``key`` (panels of one
        app sharing one query)."""
        if key not in self._read:
            self._read[key] = read()
        return self._read[key]

    def seat_view(self):
        """The viewer's own SeatView row (``None`` for a spectator without one); read at most once."""
        if not self._seat_view_read:
            from games.play.selectors import seat_view_for

            self._seat_view = seat_view_for(game=self.game, seat_number=self.seat_number)
            self._seat_view_read = True
        return self._seat_view


@dataclass(frozen=True)
class Shown:
    """A panel to show, with its template's context."""

    panel: Panel
    context: dict[str, Any]

    @property
    def template(self) -> str:
        return self.panel.template


_registry: dict[str, Panel] = {}


def register(panel: Panel) -> Panel:
    """Add a panel (from an ``AppConfig.ready()``); registering the same name again replaces it."""
    _registry[panel.name] = panel
    return panel


def unregister(name: str) -> None:
    _registry.pop(name, None)


def registered() -> list[Panel]:
    return sorted(_registry.values(), key=lambda panel: (PLACES.index(panel.place), panel.order, panel.name))


def shown(table: Table) -> dict[str, list[Shown]]:
    """The panels of this page for this viewer, by place, each with its data read; player panels' fields are
    merged into ``table.players`` here (before the board's key is made of them)."""
    by_place: dict[str, list[Shown]] = {place: [] for place in PLACES}
    for panel in registered():
        if table.page not in panel.pages or not panel.condition(table):
            continue
        context = panel.selector(table) if panel.selector is not None else {}
        if panel.place in ("player", "player_end"):
            for player in table.players:
                player.update(context.get(player["seat"], {}))
            context = {}
        by_place[panel.place].append(Shown(panel, context))
    return by_place


def player_templates(shown_panels: dict[str, list[Shown]]) -> dict[str, list[str]]:
    """The player panels' templates by place, for the board (rendered once per player row)."""
    return {place: [item.template for item in shown_panels[place]] for place in ("player", "player_end")}


def render(context, shown_panels: list[Shown]) -> SafeString:
    """Each panel's template in the page's template context (``{% panels "main" %}``), with its own data."""
    parts = []
    for item in shown_panels:
        with context.push(**item.context):
            parts.append(get_template(item.template).template.render(context))
    return mark_safe("".join(parts))  # noqa: S308 - rendered by the autoescaping templates
