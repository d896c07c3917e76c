"""What deleting an account clears beyond the account row (issue 29 item 1: "a deleted account leaves no name").

The person's name was copied where it had to be kept as it was at the time: a chat message's author
(``ChatMessage.author_name``), a game's log ("hank took a seat": ``GameEvent.name``) and the e-mails, pushes and
webhook posts already queued for the other players (a call-off proposal's news, a log's lines, an invitation).
Each copy becomes "Deleted player". Their chat messages stay in place, so the conversation keeps its order and the
others' replies their context, but lose their words too: a message reads "Deleted with its author's account",
as one a moderator removed reads "Removed by a moderator". Their private notes go. Their pages' live streams end
at once (``live.publish.revoke_user``).
"""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import timezone

logger = logging.getLogger(__name__)


def names_of(user) -> set[str]:
    """Every name ``user`` has shown under: today's, and those kept on their messages and log lines."""
    from games.models import GameEvent, Seat
    from together.models import ChatMessage

    names = {user.username, user.display_name, user.public_name}
    names |= set(ChatMessage.objects.filter(author=user).values_list("author_name", flat=True).distinct())
    names |= set(GameEvent.objects.filter(user=user).values_list("name", flat=True).distinct())
    # Log lines from before events knew their user (games.0012 filled those with a seat number).
    games = Seat.objects.filter(user=user).values("game_id")
    names |= set(
        GameEvent.objects.filter(game_id__in=games, user__isnull=True, seat_number__isnull=False)
        .filter(seat_number__in=Seat.objects.filter(user=user).values("number"))
        .values_list("name", flat=True).distinct()
    )
    return {name for name in names if name and name.strip()}


def erase_traces(*, user, replacement: str) -> None:
    """Inside the deletion's transaction: every stored copy of ``user``'s names and words, cleared."""
    from games.models import GameEvent, Seat
    from live.publish import revoke_user
    from notifications.models import OutboxEmail
    from reach.models import Delivery
    from together.models import ChatMessage, SeatCorner

    names = names_of(user)
    now = timezone.now()
    ChatMessage.objects.filter(author=user, removed_at__isnull=True).update(removed_at=now)
    ChatMessage.objects.filter(author=user).update(author_name=replacement, text="", author=None)
    seated_games = Seat.objects.filter(user=user).values("game_id")
    GameEvent.objects.filter(
        Q(user=user) | Q(user__isnull=True, game_id__in=seated_games, name__in=names)
    ).update(name=replacement, user=None)
    SeatCorner.objects.filter(seat__user=user).update(note="", note_updated_at=None)
    for model, pending in ((OutboxEmail, OutboxEmail.Status.PENDING), (Delivery, Delivery.Status.PENDING)):
        _scrub_queued(model, pending, names, replacement)

    def revoke() -> None:
        try:
            revoke_user(user.pk)
        except Exception:  # noqa: BLE001 - the deletion has committed; the grants expire within a week anyway
            logger.exception("account deletion: could not end the live streams of user %s", user.pk)

    transaction.on_commit(revoke)


def _scrub_queued(model, pending: str, names: set[str], replacement: str) -> None:
    """The others' messages still waiting to go that name ``names``: those names become ``replacement`` (and a
    chat line of theirs loses its text). One query finds them (their payload's text holds a name), one saves each."""
    if not names:
        return
    holds_a_name = Q()
    for name in names:
        holds_a_name |= Q(payload_text__contains=name)
    rows = model.objects.filter(status=pending).annotate(payload_text=Cast("payload", TextField())).filter(holds_a_name)
    for row in rows.select_for_update(of=("self",)).only("pk", "payload"):
        scrubbed = scrub(row.payload, names, replacement)
        if scrubbed != row.payload:
            model.objects.filter(pk=row.pk).update(payload=scrubbed)


def scrub(value: Any, names: set[str], replacement: str) -> Any:
    """``value`` (JSON) with every string that is one of ``names`` replaced; a ``{"name", "text"}`` line by one of
    them (a chat line) loses its text."""
    if isinstance(value, str):
        return replacement if value in names else value
    if isinstance(value, list):
        return [scrub(item, names, replacement) for item in value]
    if isinstance(value, dict):
        result = {key: scrub(item, names, replacement) for key, item in value.items()}
        if value.get("name") in names and isinstance(value.get("text"), str):
            result["text"] = ""
        return result
    return value
