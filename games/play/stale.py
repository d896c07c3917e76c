"""A move chosen on a page one version behind (issue 32): the one check shared by the pages and the API.

``check_play_move`` calls ``stale_refusal`` under the game's lock, and only when the seat's choices
changed since the page's version (``SeatView.moves_version``): a page behind whose choices are the
same is simply applied there. What is refused then:

- ``StillLegal`` when the chosen move is one of the seat's legal moves now: the page asks "still play
  it?" (one tap re-posts it at the current version), the API answers 409 ``stale`` with
  ``still_legal: true`` and the version to send;
- ``StaleVersion`` otherwise (the seat is no longer awaited, or the move is no longer possible): the
  page shows what changed and keeps what the player had chosen where the new form still offers it.

Nothing is applied in either case: a page behind never plays a move its player did not see again,
and two submissions of one turn still apply exactly once.
"""

from __future__ import annotations

from games import strict_json
from games.exceptions import GameError, StaleVersion, StillLegal


def stale_refusal(*, game, seat, seat_view, move, page_version: int) -> StaleVersion:
    """The refusal of ``move`` (a dict, or the page's parser ``parse(game, legal_moves)``) chosen at
    ``page_version``, now that the seat's legal moves are ``seat_view.legal_moves``."""
    if not seat.awaited or seat.is_bot or not seat_view.legal_moves:
        return StaleVersion(page_version=page_version)
    try:
        chosen = move(game, seat_view.legal_moves) if callable(move) else move
    except GameError:
        return StaleVersion(page_version=page_version)
    canonical = strict_json.find_move(seat_view.legal_moves, chosen)
    if canonical is None:
        return StaleVersion(page_version=page_version)
    return StillLegal(move=canonical, version=game.version, page_version=page_version)
