"""E-mails of playing together, through the platform's outbox (``notifications.outbox``).

- Chat alone e-mails only readers who turned "Chat at my table" on for e-mail on the channels page
  (off by default: ``reach.models.DEFAULT_OFF``), at most once per game per hour each
  (``SeatCorner.chat_emailed_at``, claimed with one conditional upsert so two messages at once
  cannot both e-mail). Turn e-mails and the daily digest mention the chat that is new since the
  reader last read it (``chat_news``), rendered at delivery.
- Table news: a call-off proposed to you, declined, or done; a rematch someone declined.

Need to know: a chat e-mail holds what players typed and the names of its authors, nothing else.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import connection
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _

from games.models import Seat
from notifications.models import OutboxEmail
from notifications.outbox import Draft, queue, wanted_by_email, wants_game_mail
from together.models import Block, ChatMessage, SeatCorner
from together.selectors import unread_summary

CHAT_EMAIL_EVERY = dt.timedelta(hours=1)


# Queueing ---------------------------------------------------------------------------------------


def queue_chat_emails(*, message: ChatMessage, seats: list[Seat] | None = None) -> list[int]:
    """In the message's transaction: a chat e-mail to each reader at this table who turned chat e-mails
    on and has not had one about this game in the last hour (and has not blocked the author).

    ``seats``: the table's human seats but the author's, users loaded, if the caller has them."""
    if seats is None:
        seats = list(
            Seat.objects.filter(game_id=message.game_id, user__isnull=False, is_bot=False)
            .exclude(user_id=message.author_id)
            .select_related("user")
        )
    seats = [seat for seat in seats if wants_game_mail(seat.user)]
    if not seats:
        return []
    # Those who turned chat e-mails on (the channels page's switches; off by default).
    chatty = {d.user.pk for d in wanted_by_email(
        [Draft(seat.user, OutboxEmail.Kind.CHAT, "", message.game) for seat in seats])}
    seats = [seat for seat in seats if seat.user_id in chatty]
    if not seats:
        return []
    blockers = set(
        Block.objects.filter(blocker_id__in=[s.user_id for s in seats], blocked_id=message.author_id).values_list(
            "blocker_id", flat=True
        )
    )
    seats = [seat for seat in seats if seat.user_id not in blockers]
    now = timezone.now()
    claimed = _claim_chat_email(seat_ids=[seat.pk for seat in seats], now=now)
    # Held like "your move", and dropped at delivery if the reader is at the table (together.messages).
    hold = dt.timedelta(seconds=settings.TURN_NOTIFY_HOLD_SECONDS)
    drafts = [
        Draft(
            seat.user,
            OutboxEmail.Kind.CHAT,
            f"chat:{message.game_id}:{seat.number}:{message.pk}",
            message.game,
            {"seat_number": seat.number, "message_id": message.pk, **({"held": True} if hold else {})},
            not_before=now + hold if hold else None,
        )
        for seat in seats
        if seat.pk in claimed
    ]
    return queue(drafts)


def _claim_chat_email(*, seat_ids: list[int], now) -> set[int]:
    """The seats whose last chat e-mail is older than an hour (or none), marked e-mailed now: one upsert."""
    if not seat_ids:
        return set()
    table = SeatCorner._meta.db_table
    rows = ", ".join(["(%s, '', 0, %s)"] * len(seat_ids))
    params = [value for seat_id in seat_ids for value in (seat_id, now)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} AS c (seat_id, note, chat_read_upto, chat_emailed_at) VALUES {rows} "  # noqa: S608
            "ON CONFLICT (seat_id) DO UPDATE SET chat_emailed_at = EXCLUDED.chat_emailed_at "
            "WHERE c.chat_emailed_at IS NULL OR c.chat_emailed_at <= %s RETURNING seat_id",
            [*params, now - CHAT_EMAIL_EVERY],
        )
        return {seat_id for (seat_id,) in cursor.fetchall()}


def queue_table_news(*, game, seats: list[Seat], what: str, name: str, key) -> list[int]:
    """Tell ``seats``' players about the table (``what``: call_off_proposed, call_off_declined, abandoned,
    rematch_declined), in the caller's transaction."""
    payload_base = {"what": what, "name": name}
    if what == "call_off_proposed":
        from together.selectors import pending_call_off

        proposal = pending_call_off(game.pk)
        if proposal is not None:
            payload_base["until"] = proposal.expires_at.isoformat()
    drafts = [
        Draft(
            seat.user,
            OutboxEmail.Kind.TABLE,
            f"table:{what}:{game.pk}:{key}:{seat.user_id}",
            game,
            {**payload_base, "seat_number": seat.number},
        )
        for seat in seats
        if seat.user_id is not None and wants_game_mail(seat.user)
    ]
    return queue(drafts)


# Rendering (at delivery, in the reader's language) ------------------------------------------------


def chat_news(*, game, user) -> dict:
    """The chat written since ``user`` last read it at ``game`` (the latest few, and how many)."""
    seat = Seat.objects.filter(game=game, user=user).first()
    if seat is None:
        return {"chat_latest": [], "chat_count": 0}
    read_upto = SeatCorner.objects.filter(seat=seat).values_list("chat_read_upto", flat=True).first() or 0
    latest, count = unread_summary(seat=seat, user=user, read_upto=read_upto)
    return {"chat_latest": [{"name": m.author_name, "text": m.text} for m in latest], "chat_count": count}


def render_chat(row, ctx):
    from notifications.emails import Rendered

    news = chat_news(game=row.game, user=row.user)
    if not news["chat_latest"]:
        message = ChatMessage.objects.filter(pk=row.payload.get("message_id"), removed_at__isnull=True).first()
        if message is not None:
            news = {"chat_latest": [{"name": message.author_name, "text": message.text}], "chat_count": 1}
    ctx.update(news)
    first = news["chat_latest"][-1]["name"] if news["chat_latest"] else ""
    subject = _("%(game)s: %(name)s wrote in the chat") % {"game": ctx["game_title"], "name": first}
    return Rendered(subject, "together_chat", ctx)


def render_table(row, ctx):
    from notifications.emails import Rendered

    payload = row.payload
    what, name, title = payload.get("what"), payload.get("name") or _("A player"), ctx["game_title"]
    until = parse_datetime(payload["until"]) if isinstance(payload.get("until"), str) else None
    ctx.update(what=what, who=name, until=until)
    if what == "call_off_proposed":
        subject = _("%(game)s: %(name)s proposes to call the game off") % {"game": title, "name": name}
    elif what == "call_off_declined":
        subject = _("%(game)s: %(name)s wants to play on") % {"game": title, "name": name}
    elif what == "rematch_declined":
        subject = _("%(game)s: %(name)s declined the rematch") % {"game": title, "name": name}
    else:
        subject = _("%(game)s was called off") % {"game": title}
    return Rendered(subject, "together_table", ctx)
