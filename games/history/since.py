"""Since your last visit (issue 32): what changed for one seat between a version it saw and now.

Built only from that viewer's own ``SeatView`` row (need to know): the events of its own log after
the version (``Move.log_positions`` says where each viewer's log stood after each move), described
as the log describes them, shortened by the game's UI (``GameUI.since_lines``: Mamma Mia!'s oven in
one line), with the scores as that viewer sees them. Whose moves they were comes from the moves'
seats, which every player sees anyway (the page says whom the game awaits).

The page's summary (``since_last_visit``) costs one query, whatever the length of the game: the viewer's
row with the seats that moved since; where the viewer's log stood is on the seat, written with the visit
(``Seat.last_seen_log_size``, ``seen_log_size``). The API's ``?since=<version>`` adds one to find that
place in the moves. Only the row's stored tail is read; a visit further back than the tail says how many
events there were and links to the whole log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.postgres.expressions import ArraySubquery
from django.db.models import Func, IntegerField, OuterRef, Subquery, TextField
from django.db.models.functions import Cast, Coalesce
from django.utils.safestring import SafeString, mark_safe

from games.models import Game, GameEvent, Move, SeatView
from games.tables import viewer_key

SHORT_LINES = 6  # the summary's lines at most (the newest); "show all N events" opens the log


@dataclass
class Since:
    """What changed for a viewer after ``version`` (up to the game's ``now``)."""

    version: int
    now: int
    count: int  # events of the viewer's log since then
    lines: list[SafeString] = field(default_factory=list)  # the short summary, oldest first
    movers: list[str] = field(default_factory=list)  # who played since (names, table order)
    others_moved: bool = False  # someone other than the viewer played since
    complete: bool = True  # every event since is in the summary's source (the row's tail)
    scores: list[dict[str, Any]] = field(default_factory=list)  # [{"name", "score"}] as the viewer sees them

    @property
    def hidden_lines(self) -> int:
        """Events the short summary leaves to the log."""
        return max(0, self.count - len(self.lines))

    def as_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "now": self.now,
            "count": self.count,
            "summary": [str(line) for line in self.lines],
            "played": self.movers,
            "others_played": self.others_moved,
            "complete": self.complete,
            "scores": self.scores,
        }


def log_position(*, game: Game, seat_number: int | None, version: int) -> int:
    """The viewer's log length once the game was at ``version``: one query."""
    key = viewer_key(seat_number)
    positions = Move.objects.filter(game=game, sequence=version).values_list("log_positions", flat=True).first()
    if positions is None:  # no move made that version: the start (or a game that has not moved yet)
        positions = (
            GameEvent.objects.filter(game=game, kind=GameEvent.Kind.STARTED, version__lte=version)
            .values_list("log_positions", flat=True)
            .first()
        )
    return positions.get(key, 0) if isinstance(positions, dict) else 0


class _JSONText(Func):
    """``json ->> key`` with a key computed in SQL (Django's key transforms take a literal key)."""

    arg_joiner = " ->> "
    template = "(%(expressions)s)"
    output_field = TextField()


def _position(rows) -> Subquery:
    """The outer seat's log length in the first of ``rows`` (moves or events with ``log_positions``)."""
    key = Cast(OuterRef("number"), TextField())
    return Subquery(rows.annotate(at=Cast(_JSONText("log_positions", key), IntegerField())).values("at")[:1])


def seen_log_size(version: int) -> Coalesce:
    """For ``Seat`` rows (an ``update()``): the seat's log length once its game was at ``version`` — what
    ``log_position`` reads, inside the visit's one UPDATE."""
    moved = Move.objects.filter(game=OuterRef("game_id"), sequence=version).order_by()
    started = GameEvent.objects.filter(
        game=OuterRef("game_id"), kind=GameEvent.Kind.STARTED, version__lte=version
    ).order_by("id")
    return Coalesce(_position(moved), _position(started), 0, output_field=IntegerField())


def since(
    *,
    game: Game,
    seat_number: int | None,
    version: int,
    players: list[dict],
    seat_view: SeatView | None = None,
) -> Since | None:
    """What changed for ``seat_number`` (``None``: spectators) after ``version``; ``None`` when the
    game has not moved since (or ``version`` is not one of its versions)."""
    if version < 0 or version >= game.version:
        return None
    if seat_view is None:
        seat_view = SeatView.objects.filter(game=game, seat_number=seat_number).first()
        if seat_view is None:
            return None
    start = log_position(game=game, seat_number=seat_number, version=version)
    seats = Move.objects.filter(game=game, sequence__gt=version).values_list("seat_number", flat=True).distinct()
    return _summary(game, seat_number, version, start, seat_view, set(seats), players)


def _movers_since(game: Game, version: int) -> ArraySubquery:
    return ArraySubquery(
        Move.objects.filter(game=game, sequence__gt=version).order_by().values("seat_number").distinct()
    )


def _summary(
    game: Game, seat_number: int | None, version: int, start: int, seat_view: SeatView, seats: set[int], players
) -> Since:
    """The summary from the viewer's row, where its log stood at ``version`` and the seats that moved since."""
    from games.ui import get_ui

    tail = list(seat_view.log_tail)
    tail_start = seat_view.log_size - len(tail)
    ui = get_ui(game.engine_slug)
    annotated = ui.annotated_log(tail, players=players)  # one for one, with what describers need
    events = annotated[max(0, start - tail_start) :]
    seats = sorted(seats)
    names = {p["seat"]: p["name"] for p in players}
    lines = [mark_safe(line) for line in ui.since_lines(events, players=players)]  # noqa: S308 - escaped by the UI
    scores = seat_view.view.get("scores") if isinstance(seat_view.view, dict) else None
    return Since(
        version=version,
        now=game.version,
        count=max(0, seat_view.log_size - start),
        lines=lines[-SHORT_LINES:],
        movers=[names[s] for s in seats if s in names],
        others_moved=any(s != seat_number for s in seats),
        complete=start >= tail_start,
        scores=[
            {"name": names.get(number, ""), "score": score}
            for number, score in enumerate(scores or [])
            if number in names
        ],
    )


def since_last_visit(*, access, players: list[dict]) -> Since | None:
    """The page's summary for a seated player: what changed since the version its pages last showed
    (``Seat.last_seen_version``, recorded by each page and live partial, with the log's length then). No query
    when nothing changed; else one: the viewer's row with the seats that moved since."""
    seat, game = access.seat, access.game
    if seat is None or seat.is_bot or seat.last_seen_version >= game.version:
        return None
    version = seat.last_seen_version
    seat_view = (
        SeatView.objects.filter(game=game, seat_number=seat.number)
        .annotate(movers=_movers_since(game, version))
        .first()
    )
    if seat_view is None:
        return None
    return _summary(game, seat.number, version, seat.last_seen_log_size, seat_view, set(seat_view.movers), players)
