"""The tutorial's step box on the game page (issue 27, ``games.panels``): the step's short text, the part of the
table it points at (``static/js/tutorial.js`` highlights it), "Next" for a reading step, and at the end the one
button to a real game against bots. Built from the player's own view: the move a step asks for is named as the
player's move form names it, from the player's SeatView."""

from __future__ import annotations

from django.utils.translation import get_language

from games.panels import Panel, Table
from games.registry import tutorial_of
from games.tutorial.services import steps_read
from games.tutorial_script import progress, text_in


def select(table: Table) -> dict:
    game = table.game
    script = tutorial_of(game.engine_slug)
    if script is None:
        return {}
    where = progress(script, position=game.version, read=steps_read(table.request.session, game.pk))
    language = get_language()
    step = where.step
    context = {
        "tutorial_step": step,
        "tutorial_text": text_in(step.text, language) if step is not None else text_in(script.end, language),
        "tutorial_point": step.point if step is not None else "",
        "tutorial_done": where.done,
        "tutorial_total": where.total,
        "tutorial_waiting": where.waiting,
        "tutorial_slug": game.engine_slug,
        "tutorial_asked": "",
    }
    if step is not None and step.asks_move and not where.waiting:
        context["tutorial_asked"] = asked_label(table, script.scripted_move(game.version, table.seat_number))
    return context


def asked_label(table: Table, move: dict | None) -> str:
    """The asked move in the player's words, from the player's own view ("" if it is not theirs now)."""
    row = table.seat_view()
    if move is None or row is None or move not in (row.legal_moves or []):
        return ""
    from games.play.lessons import asked_label as label_of
    from games.play.selectors import player_dicts

    return label_of(table.game, row, table.seat_number, player_dicts(table.seats), move)


panel = Panel(
    name="tutorial",
    template="games/panels/_tutorial.html",
    place="above",
    order=0,
    condition=lambda table: table.game.is_tutorial and table.seat is not None,
    selector=select,
)
