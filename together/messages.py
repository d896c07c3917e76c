"""The messages of playing together: their kinds (chat, table news), registered in ``TogetherConfig.ready()``,
and chat at my table by push and webhook.

Chat by push and webhook goes through the outbox's channels, coalesced, never a blocked author's words. When a
message is stored (``together.services.post_chat_message``, in its transaction), each other seated player who
uses push or webhooks gets a delivery, unless they blocked the author. Coalescing:

- the delivery's key names the seat's read mark (``SeatCorner.chat_read_upto``), so until the reader has
  read the chat, every further message maps onto the same key and adds nothing (``ON CONFLICT DO
  NOTHING``): a burst of ten messages, or a whole evening's, is one notification per game, "once until
  I read it", as a turn is "once until I visit"; once they have read it, the next message is news again;
- the delivery waits ``CHAT_DELAY`` before it goes, so the messages of a burst are all in it, and a
  reader at the table (whose live page marks the chat read) is not buzzed for what they just read;
- it is written at delivery time from what the reader has not read then (the latest message and how
  many), and dropped if that is nothing (the chat kind's ``prepare``, on every channel).

Need to know: what is sent is what the reader's own chat shows them: messages of this table others wrote
since their read mark, without removed ones and without those of users they blocked
(``together.selectors.unread_summary``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.utils import timezone

from notifications.models import OutboxEmail
from notifications.outbox import Draft, MessageKind, publish, register_kind

CHAT_DELAY = dt.timedelta(seconds=20)
PREVIEW_CHARACTERS = 140
# The channels that hear each chat message once until it is read (e-mail has its own hourly rule:
# ``together.emails``).
CHAT_CHANNELS = ("push", "webhook")


def queue_chat_deliveries(*, message, seats: list) -> list[int]:
    """In the message's transaction: the push/webhook deliveries of a new chat message.

    ``seats``: the table's seats of human players other than the author, users loaded (the caller read
    them for the chat e-mails already); those who use neither push nor webhooks cost nothing.
    """
    from together.models import Block, SeatCorner

    seats = [seat for seat in seats if seat.user.is_active and seat.user.uses_channels]
    if not seats:
        return []
    blockers = set(Block.objects.filter(blocker_id__in=[s.user_id for s in seats], blocked_id=message.author_id)
                   .values_list("blocker_id", flat=True))
    seats = [seat for seat in seats if seat.user_id not in blockers]
    if not seats:
        return []
    marks = dict(SeatCorner.objects.filter(seat__in=seats).values_list("seat_id", "chat_read_upto"))
    not_before = timezone.now() + CHAT_DELAY
    written = publish([
        Draft(seat.user, OutboxEmail.Kind.CHAT, f"chat:{message.game_id}:{seat.number}:{marks.get(seat.pk, 0)}",
              message.game, {"seat_number": seat.number, "message_id": message.pk}, not_before=not_before)
        for seat in seats
    ], only=CHAT_CHANNELS)
    return [pk for ids in written.values() for pk in ids]


@dataclass
class Unread:
    latest: list[dict]  # {"name", "text"}, oldest first
    count: int


def unread(row) -> Unread:
    """What ``row``'s recipient has not read of the chat at its game, as their chat shows it."""
    from games.models import Seat
    from together.models import SeatCorner
    from together.selectors import unread_summary

    seat = Seat.objects.filter(game_id=row.game_id, number=row.payload.get("seat_number"), user_id=row.user_id).first()
    if seat is None:
        return Unread([], 0)
    read_upto = SeatCorner.objects.filter(seat=seat).values_list("chat_read_upto", flat=True).first() or 0
    latest, count = unread_summary(seat=seat, user=row.user, read_upto=read_upto)
    return Unread([{"name": m.author_name, "text": _preview(m.text)} for m in latest], count)


def _preview(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PREVIEW_CHARACTERS else text[: PREVIEW_CHARACTERS - 1] + "…"


def prepare_chat(row, *, quiet: bool = True) -> str | None:
    """At delivery: nothing for a reader at the table (a live stream of the game open in their browser, on a
    channel for people), nor for one who has read it meanwhile; else what is unread now (``row.chat``).

    The hourly chat e-mail tells the message it was written for (``together.emails``). When it was held
    (``TURN_NOTIFY_HOLD_SECONDS``) and is dropped, the reader's next message may e-mail them again."""
    from live import presence

    if not isinstance(row, OutboxEmail):
        if quiet and presence.stream_open(game_id=row.game_id, user_id=row.user_id):
            return "at the table (live stream open)"
        row.chat = unread(row)
        return None if row.chat.count else "chat read already"
    if not row.payload.get("held"):
        return None
    if presence.stream_open(game_id=row.game_id, user_id=row.user_id):
        reason = "at the table (live stream open)"
    elif _read(row):
        reason = "chat read already"
    else:
        return None
    _chat_email_again(row)
    return reason


def _read(row) -> bool:
    """Whether the reader's chat is read up to the message the e-mail was written for."""
    from together.models import SeatCorner

    read_upto = SeatCorner.objects.filter(
        seat__game_id=row.game_id, seat__number=row.payload.get("seat_number"), seat__user_id=row.user_id
    ).values_list("chat_read_upto", flat=True).first() or 0
    return read_upto >= (row.payload.get("message_id") or 0)


def _chat_email_again(row) -> None:
    """The hourly chat e-mail was not sent: the next message may send one."""
    from together.models import SeatCorner

    SeatCorner.objects.filter(
        seat__game_id=row.game_id, seat__number=row.payload.get("seat_number"), seat__user_id=row.user_id
    ).update(chat_emailed_at=None)


def register() -> None:
    from notifications import emails
    from together import emails as together_emails

    register_kind(MessageKind(OutboxEmail.Kind.CHAT, "game", render_email=together_emails.render_chat,
                              prepare=prepare_chat))
    register_kind(MessageKind(OutboxEmail.Kind.TABLE, "game", render_email=together_emails.render_table))
    if together_emails.chat_news not in emails.GAME_NEWS:
        emails.GAME_NEWS.append(together_emails.chat_news)
