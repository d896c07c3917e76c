"""Two-step create (issue 30): the site commits to its secret before the creator's bits exist.

A game's deal comes from the site's secret and every seat's contribution (``games.fairness``). When the others take
their seats after the game is created, the site has committed before their bits arrive; but the creator's bits come
with the creation itself, and in a game of its creator against bots nobody else's ever come. So the create form
(and an API client, ``POST /api/games/commitment/``) first asks the site to commit: the secret is drawn and stored
now and only its SHA-256 is shown; the page's script then draws the creator's bits, and the game created with that
commitment takes that very secret (``take``), once. The page shows the hash before the bits are drawn, and the
game's check page shows the same hash as the secret's commitment: the site could not have chosen its secret after
seeing the creator's bits.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from games.exceptions import CommitmentUnknown
from games.models import DealCommitment
from games.tables import new_seed, seed_sha256

# How long a commitment waits for its game: a create form left open overnight still works.
COMMITMENT_LIFETIME = dt.timedelta(days=1)
# Commitments one person may hold unused (a client asking in a loop stores no more than this).
MAX_OPEN_COMMITMENTS = 20


def commit(*, user) -> DealCommitment:
    """Draw the secret of a game ``user`` is about to create; its ``secret_sha256`` is what to show now."""
    now = timezone.now()
    mine = DealCommitment.objects.filter(user=user)
    mine.filter(created_at__lt=now - COMMITMENT_LIFETIME).delete()
    stale = list(mine.order_by("-created_at").values_list("pk", flat=True)[MAX_OPEN_COMMITMENTS - 1 :])
    if stale:
        DealCommitment.objects.filter(pk__in=stale).delete()
    secret = new_seed()
    return DealCommitment.objects.create(
        user=user, secret_sha256=seed_sha256(secret), secret=str(secret), created_at=now
    )


def take(*, user, commitment: str) -> int:
    """The secret ``user`` was given ``commitment`` for, removed so no second game gets it (in the caller's
    transaction: a creation that fails later gives it back). ``CommitmentUnknown`` otherwise."""
    row = (
        DealCommitment.objects.select_for_update()
        .filter(
            user=user,
            secret_sha256=str(commitment).strip().lower()[:64],
            created_at__gte=timezone.now() - COMMITMENT_LIFETIME,
        )
        .first()
    )
    if row is None:
        raise CommitmentUnknown()
    row.delete()
    return int(row.secret)
