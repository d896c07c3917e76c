"""Signed grants: which channels a page's stream may follow.

A page that has checked its viewer's access (the game page, its live partial, any page of a logged-in
user) writes a grant into its HTML; the stream endpoint only verifies the signature, so holding a
stream needs no session, no user row and no database connection. A grant names at most one game
and one user: "this browser may hear that game N moved on" and "that user U's games changed".
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

SALT = "live.stream"
# A page left open longer than this falls back to polling when its stream reconnects (the grant
# is refreshed with every live partial the page fetches, so only a page idle for a week sees it).
MAX_AGE_SECONDS = 7 * 24 * 3600
# The message on a user's channel that ends their streams (a deleted account: ``live.publish.revoke_user``).
REVOKED_EVENT = "revoked"


@dataclass(frozen=True)
class Grant:
    game_id: int | None
    user_id: int | None

    def groups(self) -> list[str]:
        groups = []
        if self.game_id is not None:
            groups.append(game_group(self.game_id))
        if self.user_id is not None:
            groups.append(user_group(self.user_id))
        return groups


def game_group(game_id: int) -> str:
    return f"game.{game_id}"


def user_group(user_id: int) -> str:
    return f"user.{user_id}"


def revoked_key(prefix: str, user_id: int) -> str:
    """The Redis key that marks ``user_id``'s grants void (a deleted account: ``live.publish.revoke_user``)."""
    return f"{prefix}revoked.user.{user_id}"


def make_grant(*, game_id: int | None, user_id: int | None) -> str:
    return signing.dumps([game_id, user_id], salt=SALT, compress=False)


def read_grant(token: str) -> Grant | None:
    """The grant in ``token``, or None when it is forged, expired or not a grant."""
    try:
        value = signing.loads(token, salt=SALT, max_age=MAX_AGE_SECONDS)
    except (signing.BadSignature, ValueError, TypeError):
        return None
    if not (isinstance(value, list) and len(value) == 2):
        return None
    game_id, user_id = value
    if not all(v is None or (isinstance(v, int) and not isinstance(v, bool) and v > 0) for v in value):
        return None
    if game_id is None and user_id is None:
        return None
    return Grant(game_id=game_id, user_id=user_id)
