"""Reads of playing together. Each runs a fixed number of queries, whatever the length of a chat or a history."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Count, Exists, F, OuterRef, Subquery
from django.db.models.functions import Coalesce

from games.models import Game, GameStatus, Seat
from together.models import Block, CallOff, ChatMessage, Rematch, SeatCorner, TableActivity

CHAT_ON_PAGE = 50  # the latest messages on the game page (the API pages through all of them)
CHAT_IN_EMAIL = 3  # "the text of the latest few" in an e-mail


@dataclass
class TableSnapshot:
    stamp: int
    read_upto: int
    note: str
    last_call_off_id: int | None
    last_rematch_id: int | None


def table_snapshot(*, game_id: int, seat_id: int | None) -> TableSnapshot:
    """What the game page needs to know first, in one query: the activity stamp, the viewer's read marker
    and note, and whether the game has a call-off proposal or a rematch at all (loaded only then)."""
    activity, corner = TableActivity._meta.db_table, SeatCorner._meta.db_table
    calloff, rematch = CallOff._meta.db_table, Rematch._meta.db_table
    sql = (
        f"SELECT (SELECT stamp FROM {activity} WHERE game_id = %s),"  # noqa: S608 - the models' table names
        f" (SELECT chat_read_upto FROM {corner} WHERE seat_id = %s),"
        f" (SELECT note FROM {corner} WHERE seat_id = %s),"
        f" (SELECT max(id) FROM {calloff} WHERE game_id = %s),"
        f" (SELECT max(id) FROM {rematch} WHERE original_id = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, seat_id, seat_id, game_id, game_id])
        stamp, read_upto, note, call_off_id, rematch_id = cursor.fetchone()
    return TableSnapshot(stamp or 0, read_upto or 0, note or "", call_off_id, rematch_id)


def activity_stamp(game_id: int) -> int:
    return TableActivity.objects.filter(game_id=game_id).values_list("stamp", flat=True).first() or 0


def visible_messages(*, game_id: int | None, viewer=None, game_ids: list[int] | None = None):
    """The chat of a game as ``viewer`` reads it: without the messages of users ``viewer`` blocked."""
    qs = (
        ChatMessage.objects.filter(game_id__in=game_ids)
        if game_ids is not None
        else ChatMessage.objects.filter(game_id=game_id)
    )
    if viewer is not None and getattr(viewer, "is_authenticated", False):
        qs = qs.exclude(Exists(Block.objects.filter(blocker=viewer, blocked=OuterRef("author"))))
    return qs


def latest_messages(*, game_id: int, viewer=None, limit: int = CHAT_ON_PAGE, before=None) -> list[ChatMessage]:
    """The latest ``limit`` messages (before a moment, for a replay), oldest first: one query."""
    qs = visible_messages(game_id=game_id, viewer=viewer).select_related("author")
    if before is not None:
        qs = qs.filter(created_at__lte=before)
    return list(qs.order_by("-id")[:limit])[::-1]


def messages_after(*, game_id: int, viewer=None, after: int = 0, limit: int = 100) -> list[ChatMessage]:
    """Messages newer than id ``after``, oldest first (the API's pages): one query."""
    return list(visible_messages(game_id=game_id, viewer=viewer).filter(id__gt=after).order_by("id")[:limit])


def readable_message(*, user, message_id: int) -> ChatMessage | None:
    """A message ``user`` may read (a seat of its game, or a public game), else None."""
    message = ChatMessage.objects.select_related("game", "author").filter(pk=message_id).first()
    if message is None:
        return None
    if message.game.is_public or Seat.objects.filter(game_id=message.game_id, user=user).exists():
        return message
    return None


def corner(seat: Seat | None) -> SeatCorner | None:
    if seat is None:
        return None
    return SeatCorner.objects.filter(seat=seat).first()


def unread_summary(*, seat: Seat, user, read_upto: int, limit: int = CHAT_IN_EMAIL) -> tuple[list[ChatMessage], int]:
    """The latest ``limit`` messages others wrote after ``read_upto`` (blocked authors left out) and how
    many there are in all: for e-mails. Two queries."""
    qs = visible_messages(game_id=seat.game_id, viewer=user).filter(id__gt=read_upto, removed_at__isnull=True)
    qs = qs.exclude(author=user)
    count = qs.count()
    latest = list(qs.order_by("-id")[:limit])[::-1] if count else []
    return latest, count


def unread_counts(*, user, game_ids: list[int]) -> dict[int, int]:
    """Per game of ``game_ids`` where ``user`` has a seat: how many messages others wrote since the seat
    last read the chat (blocked authors left out). One query whatever the number of games."""
    if not game_ids:
        return {}
    read_upto = SeatCorner.objects.filter(seat__game_id=OuterRef("game_id"), seat__user=user).values("chat_read_upto")
    rows = (
        visible_messages(game_id=None, game_ids=game_ids, viewer=user)
        .filter(removed_at__isnull=True)
        .exclude(author=user)
        .annotate(read_upto=Coalesce(Subquery(read_upto[:1]), 0))
        .filter(id__gt=F("read_upto"))
        .values("game_id")
        .annotate(n=Count("id"))
    )
    return {row["game_id"]: row["n"] for row in rows}


@dataclass
class RematchInfo:
    rematch: Rematch
    invited: list[dict]  # {"name", "status"} per invited player
    my_invitation_pending: bool
    seated: bool  # the viewer has a seat in the rematch

    @property
    def started(self) -> bool:
        return self.rematch.game.status != GameStatus.OPEN


def rematch_info(*, game: Game, user) -> RematchInfo | None:
    """The latest rematch of ended ``game`` (live or declined) as ``user`` sees it: two queries."""
    rematch = (
        Rematch.objects.filter(original=game)
        .select_related("game", "proposed_by", "declined_by")
        .order_by("-id")
        .first()
    )
    if rematch is None:
        return None
    from games.models import Invitation

    invitations = list(Invitation.objects.filter(game_id=rematch.game_id).select_related("user").order_by("id"))
    mine = next((i for i in invitations if user is not None and i.user_id == getattr(user, "pk", None)), None)
    seated_ids = set(Seat.objects.filter(game_id=rematch.game_id).values_list("user_id", flat=True))
    return RematchInfo(
        rematch=rematch,
        invited=[{"name": i.user.public_name, "status": i.status} for i in invitations],
        my_invitation_pending=bool(mine and mine.status == Invitation.Status.PENDING),
        seated=bool(user is not None and getattr(user, "pk", None) in seated_ids),
    )


def rematch_links(*, original_ids: list[int] | None = None, rematch_game_ids: list[int] | None = None) -> dict:
    """For My games: live rematches by original game id, and originals by rematch game id. One query each."""
    result: dict[str, dict[int, Rematch]] = {"by_original": {}, "by_game": {}}
    if original_ids:
        for row in Rematch.objects.filter(original_id__in=original_ids, declined_at__isnull=True).select_related(
            "game"
        ):
            result["by_original"][row.original_id] = row
    if rematch_game_ids:
        for row in Rematch.objects.filter(game_id__in=rematch_game_ids):
            result["by_game"][row.game_id] = row
    return result


def pending_call_off(game_id: int) -> CallOff | None:
    return CallOff.objects.filter(game_id=game_id, status=CallOff.Status.PENDING).select_related("proposed_by").first()


def last_call_off(game_id: int) -> CallOff | None:
    return CallOff.objects.filter(game_id=game_id).select_related("proposed_by").order_by("-id").first()


def blocked_users(*, user) -> list:
    return [row.blocked for row in Block.objects.filter(blocker=user).select_related("blocked").order_by("-created_at")]


def has_blocked(*, user, other) -> bool:
    return (
        bool(user is not None and user.is_authenticated) and Block.objects.filter(blocker=user, blocked=other).exists()
    )
