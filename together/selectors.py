"""Reads of playing together. Each runs a fixed number of queries, whatever the length of a chat or a history."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import Case, Count, Exists, F, OuterRef, Q, Subquery, When
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
    last_message_id: int | None = None  # None: the game has no chat message, which is then not read


def table_snapshot(*, game_id: int, seat_id: int | None) -> TableSnapshot:
    """What the game page needs to know first, in one query: the activity stamp, the viewer's read marker
    and note, and whether the game has a chat message, a call-off proposal or a rematch at all (loaded only then)."""
    activity, corner = TableActivity._meta.db_table, SeatCorner._meta.db_table
    calloff, rematch, chat = CallOff._meta.db_table, Rematch._meta.db_table, ChatMessage._meta.db_table
    sql = (
        f"SELECT (SELECT stamp FROM {activity} WHERE game_id = %s),"  # noqa: S608 - the models' table names
        f" (SELECT chat_read_upto FROM {corner} WHERE seat_id = %s),"
        f" (SELECT note FROM {corner} WHERE seat_id = %s),"
        f" (SELECT max(id) FROM {calloff} WHERE game_id = %s),"
        f" (SELECT max(id) FROM {rematch} WHERE original_id = %s),"
        f" (SELECT max(id) FROM {chat} WHERE game_id = %s)"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [game_id, seat_id, seat_id, game_id, game_id, game_id])
        stamp, read_upto, note, call_off_id, rematch_id, message_id = cursor.fetchone()
    return TableSnapshot(stamp or 0, read_upto or 0, note or "", call_off_id, rematch_id, message_id)


def access_columns(*, user) -> dict:
    """What the table's panels need first, read with the game's seats (``games.policies`` access columns):
    the game's activity stamp and its latest chat message, call-off and rematch (each loaded only if there is
    one), and on the viewer's own seat row only, the viewer's read marker and note."""
    game = OuterRef("game_id")
    columns = {
        "together_stamp": Subquery(TableActivity.objects.filter(game_id=game).values("stamp")[:1]),
        "together_message": Subquery(ChatMessage.objects.filter(game_id=game).order_by("-id").values("id")[:1]),
        "together_call_off": Subquery(CallOff.objects.filter(game_id=game).order_by("-id").values("id")[:1]),
        "together_rematch": Subquery(Rematch.objects.filter(original_id=game).order_by("-id").values("id")[:1]),
    }
    if user is not None and user.is_authenticated:
        corner = SeatCorner.objects.filter(seat_id=OuterRef("pk"))
        mine = Q(user_id=user.pk)  # another seat's note never leaves the database
        columns["together_read_upto"] = Case(When(mine, then=Subquery(corner.values("chat_read_upto")[:1])))
        columns["together_note"] = Case(When(mine, then=Subquery(corner.values("note")[:1])))
    return columns


def snapshot_from_seats(*, seats, seat) -> TableSnapshot | None:
    """The ``TableSnapshot`` the seats were read with (``access_columns``), or ``None`` if they were not."""
    row = seat if seat is not None else (seats[0] if seats else None)
    if row is None or not hasattr(row, "together_stamp"):
        return None
    mine = seat is not None and seat.user_id is not None
    return TableSnapshot(
        row.together_stamp or 0,
        (getattr(row, "together_read_upto", None) or 0) if mine else 0,
        (getattr(row, "together_note", None) or "") if mine else "",
        row.together_call_off,
        row.together_rematch,
        row.together_message,
    )


def activity_stamp_subquery(game_ref):
    """The activity stamp of the game ``game_ref`` points to, as a subquery (the core's poll token)."""
    return Subquery(TableActivity.objects.filter(game_id=game_ref).values("stamp")[:1])


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
