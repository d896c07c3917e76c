"""Chat at my table by push and webhook: through the outbox, coalesced, never a blocked author's words.

When a message is stored (``together.services.post_chat_message``, in its transaction), each other
seated player who uses push or webhooks gets a delivery, unless they blocked the author. Coalescing:

- the delivery's key names the seat's read mark (``SeatCorner.chat_read_upto``), so until the reader has
  read the chat, every further message maps onto the same key and adds nothing (``ON CONFLICT DO
  NOTHING``): a burst of ten messages, or a whole evening's, is one notification per game, "once until
  I read it", as a turn is "once until I visit"; once they have read it, the next message is news again;
- the delivery waits ``CHAT_DELAY`` before it goes, so the messages of a burst are all in it, and a
  reader at the table (whose live page marks the chat read) is not buzzed for what they just read;
- it is written at delivery time from what the reader has not read then (the latest message and how
  many), and dropped if that is nothing.

Need to know: what is sent is what the reader's own chat shows them: messages of this table others wrote
since their read mark, without removed ones and without those of users they blocked
(``together.selectors.unread_summary``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from reach.fanout import Event, queue_events
from reach.models import EventKind

CHAT_DELAY = dt.timedelta(seconds=20)
PREVIEW_CHARACTERS = 140


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
    return queue_events([
        Event(seat.user, EventKind.CHAT, f"chat:{message.game_id}:{seat.number}:{marks.get(seat.pk, 0)}",
              message.game, {"seat_number": seat.number, "message_id": message.pk}, delay=CHAT_DELAY)
        for seat in seats
    ])


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
