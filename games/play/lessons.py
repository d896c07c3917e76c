"""What a tutorial's script (issue 27, ``games.tutorial``) changes in play: at each point of the script one seat
moves one move. The player is asked for theirs (any other is refused, in the tutorial only), and the bots play
theirs in the script's order. Past the script, and in every other game, play goes as usual."""

from __future__ import annotations

from games.exceptions import NotTheLessonsMove, NotYourTurn
from games.models import Game, Seat
from games.play.selectors import player_dicts
from games.registry import tutorial_of


def lesson_turn(game: Game) -> tuple[int, dict] | None:
    """The script's ``(seat, move)`` at the game's position; ``None`` when not a tutorial or past its script."""
    if not game.is_tutorial:
        return None
    script = tutorial_of(game.engine_slug)
    if script is None or game.version >= len(script.moves):
        return None
    return script.moves[game.version]


def check_lesson_move(*, table, seat: Seat, move: dict, seat_view) -> None:
    """Under the game's lock: in a tutorial, a legal move other than the one the script asks for here is
    refused, with the asked move named as the player's own move form names it (from the player's view)."""
    turn = lesson_turn(table.game)
    if turn is None or turn == (seat.number, move):
        return
    if turn[0] != seat.number:
        from django.utils.translation import gettext as _

        raise NotYourTurn(_("In this lesson the others move first: your move comes in a moment."))
    raise NotTheLessonsMove(asked_label(table.game, seat_view, seat.number, player_dicts(table.seats), turn[1]))


def asked_label(game: Game, seat_view, seat_number: int, players: list[dict], move: dict) -> str:
    """The move a tutorial asks for, named as the player's own move form names it (its one-tap button), or as
    the game words its moves; built from the player's own view and legal moves only (need to know)."""
    from games.ui import get_ui

    ui = get_ui(game.engine_slug)
    view = {**seat_view.view, "log": seat_view.log_tail}
    label = ui.confirm_label(view=view, legal_moves=seat_view.legal_moves, seat=seat_number, players=players, move=move)
    return label or ui.move_labels(view=view, legal_moves=[move])[0]


def lesson_bot_move(game: Game, state: dict, bots: list[Seat]) -> tuple[Seat, dict | None] | None:
    """Which awaited bot moves now in a tutorial, with the script's move (``None``: the script's move is no
    longer legal, the bot plays its own and the script's test says the lesson broke); ``None`` when the script
    waits for the player. Outside a tutorial or past its script: the first bot, playing its own move."""
    turn = lesson_turn(game)
    if turn is None:
        return bots[0], None
    seat = next((bot for bot in bots if bot.number == turn[0]), None)
    if seat is None:
        return None
    return seat, turn[1] if turn[1] in game.engine.legal_moves(state, seat.number) else None
