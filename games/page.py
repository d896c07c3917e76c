"""The game page's context, built for one viewer from the game row, its seats and that viewer's own SeatView
row (``games.views`` renders it; ``games.panels`` adds what the apps register). The log as people read it
is built here too (the page, the whole log, the replay)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.http import Http404, HttpRequest
from django.middleware.csrf import get_token
from django.template import TemplateDoesNotExist
from django.template.loader import get_template
from django.utils.translation import gettext as _

from accounts.confirm import confirm_mode
from games import board as game_board
from games import panels, policies
from games.forms import option_label, option_value_label
from games.history import selectors as history_selectors
from games.history import services as history_services
from games.history.since import since_last_visit
from games.models import GameEvent, GameStatus
from games.play import selectors as play_selectors
from games.play.next_game import next_awaiting
from games.play.selectors import GameAccess
from games.ui.help import table_help_context

LOG_ON_PAGE = 20


def ui_of(slug: str):
    from games.ui import get_ui

    return get_ui(slug)


def platform_event_text(event: GameEvent) -> str:
    name = event.name or _("A player")
    kind = event.kind
    if kind == GameEvent.Kind.JOINED:
        return _("%(name)s took a seat.") % {"name": name}
    if kind == GameEvent.Kind.STARTED:
        return _("The game started. Seats and the first player were drawn from the game's seed.")
    if kind == GameEvent.Kind.TIMEOUT:
        return _("%(name)s ran out of time: the bot moved for them.") % {"name": name}
    if kind == GameEvent.Kind.DROPPED_OUT:
        return _("%(name)s ran out of time three times and dropped out: the bot plays their seat now.") % {"name": name}
    if kind == GameEvent.Kind.CANCELLED:
        return _("The game was cancelled.")
    if kind == GameEvent.Kind.FORCED_MOVE:
        return _("%(name)s had only one possible move: it was played for them.") % {"name": name}
    return policies.event_text(kind, name) or kind


def log_lines(game, seat_view, seat_number, players, *, full_log: list[dict] | None = None) -> list[dict]:
    entries = play_selectors.log_entries(
        game=game,
        seat_view=seat_view,
        seat_number=seat_number,
        full_log=full_log,
        limit=None if full_log is not None else LOG_ON_PAGE,
        annotate=lambda events: ui_of(game.engine_slug).annotated_log(events, players=players),
    )
    play_selectors.add_log_times(game=game, seat_number=seat_number, entries=entries, seat_view=seat_view)
    return lines(game.engine_slug, entries, players)


def lines(slug: str, entries, players) -> list[dict]:
    """The log as people read it (issue 19): each line with its time (a new day says its date), a break
    before each round, runs of events the game collapses (Mamma Mia!'s forgotten announcements) as one
    line, and no line the next one says again (Konamon!'s own "has chosen")."""
    from django.utils import timezone

    from games.ui import describe_event

    ui = ui_of(slug)
    lines: list[dict] = []
    run: list = []
    sealed = ""  # the commitment of an event left out for the next line, which then shows it (issue 30)

    def flush() -> None:
        if run:
            text = ui.collapsed_text([entry.event for entry in run], players=players)
            lines.append({"platform": False, "text": text, "at": run[-1].at, "hidden": True})
            run.clear()

    for position, entry in enumerate(entries):
        if entry.kind != "engine":
            flush()
            lines.append({"platform": True, "text": platform_event_text(entry.platform), "at": entry.at})
            continue
        event = entry.event
        kind = event.get("type") if isinstance(event, dict) else None
        if kind in ui.collapsed_events:
            run.append(entry)
            continue
        flush()
        following = entries[position + 1] if position + 1 < len(entries) else None
        if following is not None and following.kind == "engine" and ui.redundant_event(event, following.event):
            sealed = event.get("commitment", "")
            continue
        lines.append(
            {
                "platform": False,
                "text": describe_event(slug, event, players),
                "at": entry.at,
                "round_break": kind in ui.round_events and bool(lines),
                "commitment": sealed or (event.get("commitment", "") if isinstance(event, dict) else ""),
            }
        )
        sealed = ""
    flush()
    day = None
    for line in lines:
        if line.get("at") is not None:
            today = timezone.localtime(line["at"]).date()
            line["new_day"] = today != day
            day = today
    return lines


def option_labels(game) -> list[tuple[str, str]]:
    try:
        engine_options = game.engine.options
    except KeyError:
        return []
    return [
        (
            option_label(game.engine_slug, name),
            option_value_label(game.engine_slug, name, game.options.get(name, values[0])),
        )
        for name, values in engine_options.items()
    ]


def table_for(
    request: HttpRequest, access: GameAccess, *, page: str = "game", players=None, extra: dict | None = None
) -> panels.Table:
    """What the panels know of this table for this viewer (``games.panels.Table``)."""
    return panels.Table(
        request=request,
        game=access.game,
        seats=access.seats,
        seat=access.seat,
        seat_number=access.seat_number,
        may_view=access.may_view,
        players=players if players is not None else play_selectors.player_dicts(access.seats),
        page=page,
        extra=extra or {},
    )


def game_context(
    request: HttpRequest, access: GameAccess, *, error: str | None = None, extra: dict | None = None
) -> dict:
    """The game page's (and its live partial's) context for the viewer of ``access``: the game row, the
    viewer's player rows, the registered panels (``games.panels``) with their data, and the board (cached per
    viewer and version). Nothing here reads a feature app's data: the panels do, each its own."""
    game = access.game
    table = table_for(request, access, extra=extra)
    shown = panels.shown(table)  # player panels (ratings, clocks) fill the rows first: part of the board's key
    context = {
        "game": game,
        "players": table.players,
        "seat": access.seat,
        "error": error,
        "panels": shown,
        "poll_seconds": settings.GAME_POLL_SECONDS,
        "page_token": play_selectors.page_token(game=game, seats=access.seats, activity=table.activity_stamp),
        "idempotency_key": uuid.uuid4(),
        "my_turn": False,
        "title": str(game),
        "option_labels": option_labels(game),
        "confirm_moves": confirm_mode(request.user),
    }
    if game.status == GameStatus.OPEN:
        seated, signed_in = access.seat is not None, request.user.is_authenticated
        context["free_seats"] = game.players - len(access.seats)
        context["may_join"] = signed_in and not seated
        context["is_creator"] = signed_in and game.created_by_id == request.user.pk
        if game.contributions_due_at is not None:  # seated by the site: the deal waits for every seat (issue 30)
            context["deal_waits"] = sorted(access.seats, key=lambda seat: seat.join_order)
            context["is_creator"] = False  # nobody cancels a league's game, nor adds bots to it
    elif game.status != GameStatus.CANCELLED:
        board = _board(request, access, table.players, panels.player_templates(shown), str(context["idempotency_key"]))
        context.update({"board": board.html, "my_turn": board.my_turn})
        context["awaited"] = [p for p in table.players if p["awaited"]]
        context["since"] = since_last_visit(access=access, players=table.players)  # issue 32
        if access.seat is not None and not board.my_turn and game.status == GameStatus.ACTIVE:
            context["next_game"] = next_awaiting(user=request.user, besides=game.pk, request=request)
        if board.my_turn:
            context["title"] = _("● Your move — %(game)s") % {"game": game}
    return context


def _board(request: HttpRequest, access: GameAccess, players, player_templates, idempotency_key: str):
    """The viewer's board (players, table, move form, log): it changes only with the game's version, so it
    is cached per viewer and version (``games.board``) and built from the viewer's SeatView only on a miss."""
    game, seat_number = access.game, access.seat_number
    shows_moves = access.seat is not None and not access.seat.is_bot

    def build_board() -> game_board.BoardParts:
        seat_view = play_selectors.seat_view_for(game=game, seat_number=seat_number, log_times_for=LOG_ON_PAGE)
        if seat_view is None:
            raise Http404
        ui = ui_of(game.engine_slug)
        view = {**seat_view.view, "log": seat_view.log_tail}
        legal_moves = seat_view.legal_moves if shows_moves else []
        my_turn = bool(legal_moves) and game.status == GameStatus.ACTIVE
        scores = view.get("scores") or []
        board = ui.page_context(view=view, legal_moves=legal_moves, seat=seat_number, players=players)
        board["table_help"] = table_help_context(
            game.engine_slug, gameui=board["gameui"], view=view, legal_moves=legal_moves, seat=seat_number,
            players=players,
        )
        board.update(
            {
                "game": game,
                "players": [{**p, "score_now": scores[i] if i < len(scores) else None} for i, p in enumerate(players)],
                "player_panels": player_templates,
                "seat": access.seat,
                "seat_view": seat_view,
                "view": view,
                "table_template": ui.table_template,
                "moves_template": ui.moves_template,
                "legal_moves": legal_moves,
                "my_turn": my_turn,
                "log_lines": log_lines(game, seat_view, seat_number, players),
                "log_is_trimmed": seat_view.log_size > LOG_ON_PAGE,
            }
        )
        if game.status == GameStatus.FINISHED:
            board.update(finished_context(game, players, ui, seat_number))
        # A move committed between reading the game and this row: right for now, wrong under this key.
        of_this_version = max(seat_view.view_version, seat_view.moves_version) <= game.version
        return game_board.BoardParts(context=board, my_turn=my_turn, cacheable=of_this_version)

    key_players = [*players, player_templates]  # which panels render the rows is part of the board
    return game_board.render_board(
        key=game_board.board_key(game=game, viewer_seat=seat_number, players=key_players, shows_moves=shows_moves),
        build=build_board,
        csrf_token=get_token(request),
        idempotency_key=idempotency_key,
    )


def finished_context(game, players, ui, viewer_seat: int | None) -> dict:
    state = history_services.final_state(game)
    hands = ui.revealed_hands(state)
    try:
        revealed_template = get_template(ui.revealed_template) and ui.revealed_template
    except TemplateDoesNotExist:
        revealed_template = None
    end = history_selectors.end_screen(game=game, state=state, players=players, ui=ui, viewer_seat=viewer_seat)
    return {**end, "revealed_hands": hands, "revealed_template": revealed_template}
