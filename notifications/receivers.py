"""Receivers of the games platform's signals: decide who gets which e-mail, write outbox rows.

They run INSIDE the transaction that made the change (see games/signals.py), so
the outbox rows commit or vanish with the move. Each receiver works in its own
savepoint and never raises: a bug here is logged and costs an e-mail, never a
move.

Who hears "your move" (``game_advanced``) on the channels for people (e-mail, push; a webhook, for programs,
hears every turn: ``reach.receivers``), per ``User.notify_mode``:

- ``every``: each time a game starts awaiting the seat;
- ``once`` (default): the first time, then not again for that game until the
  player has opened the game page (``Seat.last_visited_at`` later than the
  last such notification, ``SeatNotice.turn_email_at``) or moved there themselves;
- ``digest``: no e-mail here (``send_due_digests`` lists the games once a day); push as under ``once``;
- ``never``: no e-mail; push as under ``once``.

The one thing left out at once is a seat whose own move, in this very transaction, continued its turn (a
Konamon! card worked step by step, a Mamma Mia! oven decision right after one's turn): the player is acting
at that moment, and the platform lists such seats as newly awaited only so that nobody misses a turn.

Quiet by evidence (issue 34): every "your move" waits ``TURN_NOTIFY_HOLD_SECONDS`` in the outbox (rows with a
later ``next_attempt_at``, so a restart loses nothing) and is dropped at delivery if by then its reader is at
the table: a page has shown them that position (``Seat.last_seen_version``, recorded by every page and live
partial their browser fetched) or a live stream of that game is open in their browser (``live.presence``,
shared by every process); or if they moved or the turn is over (``notifications.kinds.turn_over``). Nothing
guesses whether the player is "online". Under ``every``, a bot answering within ``TURN_EMAIL_HOLD_SECONDS``
of the player's own move holds it at least that long.

After a time-out (the bot moved for a seat, ``MadeBy.TIMEOUT``) the e-mails of
the players awaited next say so before the events, and the timed-out player's
own e-mail lists what the bot played for them. Each reader's own events are
told to them in the second person ("You play No. 16.").
"""

from __future__ import annotations

import datetime as dt
import logging
from functools import wraps

from django.conf import settings
from django.db import transaction
from django.dispatch import receiver
from django.utils import timezone

from accounts.models import NotifyMode
from games import signals
from games.history import selectors as history_selectors
from games.models import GameEvent, GameStatus, MadeBy, Seat, SeatView
from notifications.kinds import wants_turn_email
from notifications.models import OutboxEmail, SeatNotice
from notifications.outbox import Draft, channels, publish, queue, wants_game_mail, wants_reminders
from notifications.texts import move_types

logger = logging.getLogger(__name__)

MAX_EVENTS = 40  # log events listed in one e-mail; older ones are summarised as a count
NEWS_EVENT_KINDS = (GameEvent.Kind.TIMEOUT, GameEvent.Kind.DROPPED_OUT)


def guarded(func):
    """Run a receiver in a savepoint; log and swallow its errors so the move stands."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        try:
            with transaction.atomic():
                func(*args, **kwargs)
        except Exception:
            logger.exception("notifications: %s failed; the change stands, its e-mails are lost", func.__name__)

    return wrapper


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def _is_human(seat) -> bool:
    return not seat.is_bot and seat.user_id is not None


def _upsert_notices(game, values: dict[int, dict], fields: list[str]) -> None:
    if values:
        SeatNotice.objects.bulk_create(
            [SeatNotice(game=game, seat_number=number, **data) for number, data in values.items()],
            update_conflicts=True,
            unique_fields=["game", "seat_number"],
            update_fields=fields,
        )


@receiver(signals.game_started, dispatch_uid="notifications.game_started")
@guarded
def on_game_started(sender, game, seats, **kwargs):
    """Everyone seated hears that the game began; for those awaited first this is their "your move" e-mail, held
    and dropped as one (issue 34)."""
    now = timezone.now()
    humans = [seat for seat in seats if _is_human(seat)]
    awaited = [seat.number for seat in humans if seat.awaited]
    legal = dict(
        SeatView.objects.filter(game=game, seat_number__in=awaited).values_list("seat_number", "legal_moves")
    )
    hold = dt.timedelta(seconds=settings.TURN_NOTIFY_HOLD_SECONDS)
    drafts, told = [], {}
    for seat in humans:
        if not wants_game_mail(seat.user):
            continue
        payload = {"seat_number": seat.number, "awaited": seat.awaited}
        not_before = None
        if seat.awaited:
            payload.update(awaited_since=_iso(seat.awaited_since), move_types=move_types(legal.get(seat.number)))
            told[seat.number] = {"turn_email_at": now}
            if hold:
                # For the first players this is their "your move": held and dropped like one (kinds.started_over)
                # if by then they are at the table (the page of the started game, its stream) or have moved.
                payload.update(held=True, version=game.version)
                not_before = now + hold
        drafts.append(Draft(seat.user, OutboxEmail.Kind.STARTED, f"started:{game.pk}:{seat.number}", game, payload,
                            not_before=not_before))
    _upsert_notices(game, told, ["turn_email_at"])
    queue(drafts)


@receiver(signals.game_advanced, dispatch_uid="notifications.game_advanced")
@guarded
def on_game_advanced(sender, game, newly_awaited_seats, moves, **kwargs):
    now = timezone.now()
    newly = [seat for seat in newly_awaited_seats if _is_human(seat)]
    if game.status != GameStatus.ACTIVE:
        return
    movers = {move.seat_number for move in moves}
    acted = {move.seat_number for move in moves if move.made_by == MadeBy.PLAYER}
    timed_out = sorted({move.seat_number for move in moves if move.made_by == MadeBy.TIMEOUT})
    bots_only = bool(moves) and all(move.made_by == MadeBy.BOT for move in moves)
    # At the start (no moves) the game-started e-mail told the first players.
    recipients = [seat for seat in newly if seat.number not in acted] if moves else []
    # Those who hear "your move" on some channel for people: e-mail, or push (``uses_channels``, loaded already).
    recipients = [seat for seat in recipients if _wants_turn_email(seat.user) or seat.user.uses_channels]
    numbers = movers | {seat.number for seat in recipients}
    if not numbers:
        return
    fresh = kwargs.get("seat_views")  # the rows the platform just wrote (saves a query)
    logs = kwargs.get("seat_logs") or {}  # whole logs the platform computed anyway (not always)
    if fresh and all(number in fresh for number in numbers):
        views = {number: fresh[number] for number in numbers}
    else:
        views = {
            row.seat_number: row
            for row in SeatView.objects.filter(game=game, seat_number__in=numbers).only(
                "seat_number", "log_size", "legal_moves"
            )
        }
    notices = {row.seat_number: row for row in SeatNotice.objects.filter(game=game, seat_number__in=numbers)}

    drafts, told = [], {}
    # "Once until I visit", per channel for people (each counts in its own SeatNotice field): the channels that
    # may tell each seat "your move" now.
    fields = {name: getattr(channel, "once_field", "turn_email_at") for name, channel in channels().items()
              if channel.quiet}
    open_to = {
        seat.number: [
            name for name, field in fields.items()
            if seat.user.notify_mode == NotifyMode.EVERY_TIME or _may_send_again(seat, notices.get(seat.number), field)
        ]
        for seat in recipients
    }
    recipients = [seat for seat in recipients if open_to[seat.number]]
    news = _platform_news(game, recipients, notices)
    hold = dt.timedelta(seconds=settings.TURN_NOTIFY_HOLD_SECONDS)
    bot_hold = dt.timedelta(seconds=settings.TURN_EMAIL_HOLD_SECONDS)
    for seat in recipients:
        notice = notices.get(seat.number)
        view = views.get(seat.number)
        events, skipped = _events_since(game, seat.number, notice.log_mark if notice else 0, view, logs)
        payload = {
            "seat_number": seat.number,
            "version": game.version,
            "awaited_since": _iso(seat.awaited_since),
            "deadline_at": _iso(seat.deadline_at),
            "move_types": move_types(view.legal_moves if view is not None else []),
            "events": events,
            "events_skipped": skipped,
            "news": [
                {"kind": item["kind"], "name": item["name"], "seat_number": item["seat_number"]}
                for item in news
                if item["version"] > (notice.version_mark if notice else 0) and item["seat_number"] != seat.number
            ],
        }
        # The bot moved for a seat whose time ran out, in this very transaction (its GameEvent comes after).
        payload["news"] += [
            {"kind": GameEvent.Kind.TIMEOUT, "name": "", "seat_number": number}
            for number in timed_out
            if number != seat.number
        ]
        # Quiet by evidence: every "your move" waits the hold and is dropped at delivery if by then a page has
        # shown the reader this position or a live stream of the game is open in their browser (kinds.turn_over).
        wait = hold
        if (
            bots_only
            and seat.user.notify_mode == NotifyMode.EVERY_TIME
            and notice is not None
            and notice.moved_at is not None
            and now - notice.moved_at <= bot_hold
        ):
            wait = max(wait, bot_hold)  # a bot answering seconds after the player's own move (issue 19)
        not_before = None
        if wait:
            payload["held"] = True
            not_before = now + wait
        key = f"turn:{game.pk}:{seat.number}:{game.version}"
        drafts.append(Draft(seat.user, OutboxEmail.Kind.TURN, key, game, payload, not_before=not_before))

    # Every channel for people (e-mail, push…) that may tell each seat; webhooks, for programs, hear every turn
    # (reach.receivers).
    by_channels: dict[tuple, list] = {}
    for draft in drafts:
        by_channels.setdefault(tuple(open_to[draft.payload["seat_number"]]), []).append(draft)
    for names, group in by_channels.items():
        publish(group, only=names)
    for draft in drafts:
        stamps = {fields[name]: now for name in draft.written if name in fields}
        if stamps:
            told[draft.payload["seat_number"]] = stamps

    marks = {n: {"log_mark": views[n].log_size, "version_mark": game.version} for n in movers if n in views}
    for number in acted & marks.keys():
        marks[number]["moved_at"] = now
    _upsert_notices(
        game,
        _notice_rows(notices, marks, acted, told),
        ["log_mark", "version_mark", "turn_email_at", "turn_push_at", "moved_at"],
    )


def _events_since(game, seat_number: int, mark: int, view, logs: dict) -> tuple[list[dict], int]:
    """The recipient's own log events from ``mark`` on (need to know): the last MAX_EVENTS of
    them and how many more came before.

    From the whole log if the move passed it, else from the row's stored tail (the log's
    last events: it ends at ``log_size``) when the tail holds every event the e-mail lists,
    else from the recipient's log derived for them alone (a query and an engine view).
    """
    if seat_number in logs:
        return _latest(logs[seat_number][mark:])
    if view is not None and "log_tail" not in view.get_deferred_fields():
        count = max(0, view.log_size - mark)
        shown = min(count, MAX_EVENTS)
        if shown <= len(view.log_tail):
            return view.log_tail[len(view.log_tail) - shown :], count - shown
    return _latest(history_selectors.viewer_log(game=game, seat_number=seat_number)[mark:])


def _latest(events: list[dict]) -> tuple[list[dict], int]:
    """The last MAX_EVENTS of ``events`` and how many came before them."""
    return events[-MAX_EVENTS:], max(0, len(events) - MAX_EVENTS)


def _notice_rows(notices, marks: dict, acted: set, told: dict) -> dict[int, dict]:
    """The whole new SeatNotice row of every seat that changed, so that one upsert writes them all.

    Movers get their marks; a player who moved starts "once until I visit" afresh, for e-mail and push;
    those told get the moment. The rest of a row is kept as read: every writer of SeatNotice runs under the game's lock,
    like this one, so ``notices`` is current.
    """
    rows = {}
    for number in marks.keys() | told.keys():
        notice = notices.get(number)
        row = {
            "log_mark": notice.log_mark if notice else 0,
            "version_mark": notice.version_mark if notice else 0,
            "turn_email_at": notice.turn_email_at if notice else None,
            "moved_at": notice.moved_at if notice else None,
            "turn_push_at": notice.turn_push_at if notice else None,
        }
        row.update(marks.get(number, {}))
        if number in acted:
            row["turn_email_at"] = row["turn_push_at"] = None
        row.update(told.get(number, {}))
        rows[number] = row
    return rows


def _wants_turn_email(user) -> bool:
    return wants_turn_email(user)


def _may_send_again(seat, notice, field: str = "turn_email_at") -> bool:
    """"Once until I visit": nothing told yet on that channel (``field``: when it last told the seat), or the
    player has been to the game since."""
    told_at = getattr(notice, field, None) if notice is not None else None
    if told_at is None:
        return True
    return seat.last_visited_at is not None and seat.last_visited_at >= told_at


def _platform_news(game, recipients, notices) -> list[dict]:
    """Timeouts and drop-outs since the earliest recipient's last move (public to the whole table)."""
    if not recipients or not game.time_control.is_timed:
        return []  # only a deadline makes a seat time out (and drop out): without one, nothing to look up
    since = min((notices[s.number].version_mark if s.number in notices else 0) for s in recipients)
    return list(
        GameEvent.objects.filter(game=game, kind__in=NEWS_EVENT_KINDS, version__gt=since)
        .order_by("id")
        .values("kind", "name", "version", "seat_number")
    )


@receiver(signals.game_finished, dispatch_uid="notifications.game_finished")
@guarded
def on_game_finished(sender, game, **kwargs):
    seats = Seat.objects.filter(game=game, user__isnull=False).select_related("user")
    queue(
        [
            Draft(seat.user, OutboxEmail.Kind.FINISHED, f"finished:{game.pk}:{seat.number}", game,
                  {"seat_number": seat.number})
            for seat in seats
            if wants_game_mail(seat.user)
        ]
    )


@receiver(signals.game_cancelled, dispatch_uid="notifications.game_cancelled")
@guarded
def on_game_cancelled(sender, game, **kwargs):
    seats = (
        Seat.objects.filter(game=game, user__isnull=False).exclude(user_id=game.created_by_id).select_related("user")
    )
    queue(
        [
            Draft(seat.user, OutboxEmail.Kind.CANCELLED, f"cancelled:{game.pk}:{seat.user_id}", game, {})
            for seat in seats
            if wants_game_mail(seat.user)
        ]
    )


@receiver(signals.invitation_created, dispatch_uid="notifications.invitation_created")
@guarded
def on_invitation_created(sender, invitation, **kwargs):
    user = invitation.user
    if not wants_game_mail(user):
        return
    # An invitation row is reused when someone is invited again: the moment tells the e-mails apart.
    stamp = int(timezone.now().timestamp() * 1000)
    inviter = invitation.invited_by
    payload = {"invitation_id": invitation.pk, "invited_by": inviter.public_name if inviter else ""}
    queue([Draft(user, OutboxEmail.Kind.INVITATION, f"invitation:{invitation.pk}:{stamp}", invitation.game, payload)])


@receiver(signals.seat_timed_out, dispatch_uid="notifications.seat_timed_out")
@guarded
def on_seat_timed_out(sender, game, seat, dropped_out, **kwargs):
    """Tell the player whose time ran out, with what the bot played for them (their own log from before the
    bot's moves: need to know). The players awaited next read it in their own e-mail (``on_game_advanced``)."""
    user = seat.user if seat.user_id else None
    if not wants_reminders(user):
        return
    payload = {"seat_number": seat.number, "dropped_out": bool(dropped_out), "timeouts": seat.timeouts}
    view, log_from = kwargs.get("seat_view"), kwargs.get("log_from")
    if view is not None and log_from is not None:
        payload["events"], payload["events_skipped"] = _events_since(game, seat.number, log_from, view, {})
    key = f"timeout:{game.pk}:{seat.number}:{game.version}"
    queue([Draft(user, OutboxEmail.Kind.TIMEOUT, key, game, payload)])


def _clear_undeliverable(user) -> None:
    from django.contrib.auth import get_user_model

    get_user_model().objects.filter(pk=user.pk, email_undeliverable_since__isnull=False).update(
        email_undeliverable_since=None
    )


try:  # A new address gets a fresh chance (allauth's e-mail management pages).
    from allauth.account.signals import email_changed

    @receiver(email_changed, dispatch_uid="notifications.email_changed")
    def on_email_changed(sender, request=None, user=None, **kwargs):
        if user is not None:
            _clear_undeliverable(user)

except ImportError:  # pragma: no cover - allauth is a dependency
    pass
