"""The platform's refusals (``GameError``) as the API's one error shape (``api.errors``).

DRF's ``EXCEPTION_HANDLER`` is ``exception_handler`` here: it answers a ``GameError`` itself and passes every
other exception to ``api.errors.exception_handler``, which knows nothing of games (``api`` lies below the core).
"""

from __future__ import annotations

from rest_framework.response import Response

from api import errors
from games.exceptions import GameError, GameNotFound
from games.play.selectors import game_access


def conceal_unseen_game(exc: GameError, *, request, kwargs) -> GameError:
    """A refusal about a game the requester may not see becomes "no such game" (404), as for an id that does not
    exist: whether a private game exists never leaks through a 403 or 409 (issue 29 item 7). Checked only when a
    request on a game's path is refused, so a success costs nothing."""
    game_id = (kwargs or {}).get("game_id")
    if isinstance(exc, GameNotFound) or game_id is None or request is None:
        return exc
    access = game_access(game_id=game_id, user=request.user, session=getattr(request, "session", None))
    return GameNotFound() if access is None or not access.may_view else exc


def exception_handler(exc, context) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: the platform's and DRF's exceptions as the one error shape.

    Anything else is left to Django (logged, then turned into the 500 answer by ``ApiErrorMiddleware``).
    """
    if isinstance(exc, GameError):
        exc = conceal_unseen_game(exc, request=context.get("request"), kwargs=context.get("kwargs"))
        extra = exc.extra() if hasattr(exc, "extra") else {}
        return Response(errors.error_body(exc.code, exc.message, **extra), status=exc.status)
    return errors.exception_handler(exc, context)
