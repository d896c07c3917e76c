"""Typed refusals of the platform, each with a translated message and an HTTP status.

Views turn them into a re-rendered page with the message, the API into
``{"error": code, "detail": message}`` with ``status``.
"""

from __future__ import annotations

from django.utils.translation import gettext as _


class GameError(Exception):
    code = "error"
    status = 400

    def __init__(self, message: str | None = None) -> None:
        message = message or self.default_message()
        # A message may echo the input: a lone surrogate ("\ud800") could not be encoded into the response.
        self.message = str(message).encode("utf-8", "replace").decode("utf-8")
        super().__init__(self.message)

    def default_message(self) -> str:
        return _("That is not possible.")


class ReplayUnavailable(GameError):
    """A finished game whose recorded moves no longer replay: it was played under an earlier reading of
    the rules (the engine refuses a move it accepted then)."""

    code = "replay_unavailable"
    status = 409

    def default_message(self) -> str:
        return _(
            "This game was played under an earlier reading of the rules, so its replay cannot be rebuilt. "
            "Its result and final hands stand."
        )


class StaleVersion(GameError):
    code = "stale"
    status = 409

    def __init__(self, message: str | None = None, *, page_version: int | None = None) -> None:
        self.page_version = page_version  # the version the refused move was chosen at, when known
        super().__init__(message)

    def default_message(self) -> str:
        return _("The game has moved on since you loaded the page.")

    def extra(self) -> dict:
        """More of the refusal for API clients (``StillLegal``: ``still_legal`` and the game's ``version``)."""
        return {}


class StillLegal(StaleVersion):
    """Stale, but the move chosen on the older page is one of the seat's legal moves now: the player
    is asked once more ("still play it?") instead of losing the choice. ``move`` is the canonical legal
    move, ``version`` the game's version to confirm it with."""

    def __init__(self, *, move: dict, version: int, page_version: int, message: str | None = None) -> None:
        self.move, self.version = move, version
        super().__init__(message, page_version=page_version)

    def default_message(self) -> str:
        return _("The table changed since you chose, but your move is still possible.")

    def extra(self) -> dict:
        return {"still_legal": True, "version": self.version}


class NotYourTurn(GameError):
    code = "not_your_turn"
    status = 403

    def default_message(self) -> str:
        return _("It is not your move.")


class NotSeated(GameError):
    code = "not_seated"
    status = 403

    def default_message(self) -> str:
        return _("You do not have a seat at this game.")


class GameNotActive(GameError):
    code = "not_active"
    status = 409

    def default_message(self) -> str:
        return _("This game is not in progress.")


class GameNotOpen(GameError):
    code = "not_open"
    status = 409

    def default_message(self) -> str:
        return _("This game is no longer open for players.")


class DealDrawn(GameNotOpen):
    """A contribution sent once the deal is drawn (issue 30): it can no longer count, so it is refused."""

    code = "deal_drawn"

    def default_message(self) -> str:
        return _("The deal of this game is already drawn: contributions can no longer change it.")


class GameFull(GameError):
    code = "full"
    status = 409

    def default_message(self) -> str:
        return _("Every seat at this game is taken.")


class AlreadySeated(GameError):
    code = "already_seated"
    status = 409

    def default_message(self) -> str:
        return _("You already have a seat at this game.")


class NotAllowed(GameError):
    code = "forbidden"
    status = 403

    def default_message(self) -> str:
        return _("You may not do that.")


class BadInput(GameError):
    code = "invalid"
    status = 400

    def default_message(self) -> str:
        return _("That input is not valid.")


class InvitationRefused(BadInput):
    """The invitation asked for on the create form cannot be made (an unknown name, a player who blocks invitations
    from you): no game is created, and the message goes with the form's invite field."""


class IdempotencyKeyReused(GameError):
    code = "idempotency_key_reused"
    status = 400

    def default_message(self) -> str:
        return _("This idempotency key was already used for another move. Send a new key with each move.")


class IllegalMove(GameError):
    """The engine refused the move (or it is not among the stored legal moves).

    ``engine_error`` is the engine's ``IllegalMove`` when there is one; the
    message comes from ``games.ui.illegal_move_message`` in the reader's language.
    """

    code = "illegal_move"
    status = 400

    def __init__(self, message: str | None = None, *, engine_error: Exception | None = None) -> None:
        self.engine_error = engine_error
        if message is None and engine_error is not None:
            message = illegal_move_text(engine_error)
        super().__init__(message)

    def default_message(self) -> str:
        return _("That move is not allowed now.")


def illegal_move_text(engine_error: Exception) -> str:
    """The engine's refusal in the reader's language (the UI's catalogue), else a generic one."""
    try:
        from games.ui import illegal_move_message

        return str(illegal_move_message(engine_error))
    except Exception:  # noqa: BLE001 - a missing or failing catalogue must not turn a refusal into a 500
        return _("That move is not allowed now.")


class GameNotFound(GameError):
    code = "not_found"
    status = 404

    def default_message(self) -> str:
        return _("There is no such game.")


class CommitmentUnknown(GameError):
    """A game created with a commitment the site never made for this person, or made and used or forgotten."""

    code = "commitment_unknown"
    status = 409

    def default_message(self) -> str:
        return _("The site's commitment for this game has expired or was used already. Please create the game again.")


class ContributionFixed(GameError):
    """A seat's contribution to the deal is set once (issue 30): the other players have seen it."""

    code = "contribution_fixed"
    status = 409

    def default_message(self) -> str:
        return _("Your contribution to the deal is already set and cannot change.")


class NotTheLessonsMove(GameError):
    """A tutorial (issue 27) asks for one move at this point of its scripted deal; any other legal move is refused
    there, and only there, with the move it asks for."""

    code = "tutorial_move"
    status = 400

    def __init__(self, asked: str) -> None:
        super().__init__(
            _(
                "That move is allowed in a real game, but this lesson follows a prepared deal: please play “%(move)s”, "
                "as the box above says."
            )
            % {"move": asked}
        )
