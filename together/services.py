"""Writes of playing together: chat, notes, resigning, calling a game off, handing a stalled seat over.

Everything that changes a game in progress (a resignation, the end as abandoned, a seat handed to
the bot) locks the game row with the platform's ``games.tables.lock_table``, as a move does, so it can never
interleave with a move, a timeout or a bot. Every write that changes what the game page shows calls
``together.live.table_changed`` in its transaction.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import signals, tables
from games.exceptions import BadInput, GameNotActive, NotAllowed, NotSeated
from games.lobby import seated
from games.models import Game, GameEvent, GameStatus, Seat
from games.play.services import schedule_bots
from together import live
from together.exceptions import RateLimited
from together.models import NOTE_MAX_LENGTH, CallOff, ChatMessage, SeatCorner
from together.rules import CALL_OFF_DEFAULT_HOURS, STALLED_DAYS, clean_chat_text, notes_allowed

logger = logging.getLogger(__name__)

RATE_LIMIT_LOCK_SPACE = 17017  # pg_advisory_xact_lock(space, user id): one chat writer per user at a time


# Chat -----------------------------------------------------------------------------------------


def chat_readable(*, game: Game, seat: Seat | None, may_view: bool) -> bool:
    """Who reads a game's chat: its seats; for a public game, everyone who may view it."""
    if game.status in (GameStatus.OPEN, GameStatus.CANCELLED):
        return False
    return seat is not None or (game.is_public and may_view)


def chat_writable(*, game: Game, seat: Seat | None) -> bool:
    """Seated players write (a resigned player too: they are still at the table)."""
    return seat is not None and seat.user_id is not None and game.status not in (GameStatus.OPEN, GameStatus.CANCELLED)


def post_chat_message(*, user, game_id: int, text) -> ChatMessage:
    """Store ``user``'s message at ``game_id``'s table; tells the other players who asked for chat: by
    e-mail at most once an hour, by push or webhook once until they read it (``together.messages``)."""
    cleaned = clean_chat_text(text)
    if cleaned is None:
        raise BadInput(_("A message has 1 to 500 characters."))
    with transaction.atomic():
        seat = Seat.objects.select_related("game").filter(game_id=game_id, user=user).first()
        if seat is None or not chat_writable(game=seat.game, seat=seat):
            raise NotSeated()
        _check_rate(user)
        message = ChatMessage.objects.create(
            game=seat.game, author=user, seat_number=seat.number, author_name=user.public_name, text=cleaned
        )
        live.chat_arrived(message)
        from together.emails import queue_chat_emails
        from together.messages import queue_chat_deliveries

        readers = list(
            Seat.objects.filter(game_id=game_id, user__isnull=False, is_bot=False).exclude(user=user)
            .select_related("user")
        )
        queue_chat_emails(message=message, seats=readers)
        queue_chat_deliveries(message=message, seats=readers)
    return message


def _check_rate(user) -> None:
    """At most ``CHAT_RATE_LIMIT_PER_MINUTE`` messages in any 60 seconds per user, over every game and
    process: counted in PostgreSQL under a per-user transaction lock, so two posts at once cannot both
    take the last place."""
    limit = settings.CHAT_RATE_LIMIT_PER_MINUTE
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [RATE_LIMIT_LOCK_SPACE, user.pk])
    since = timezone.now() - dt.timedelta(minutes=1)
    if ChatMessage.objects.filter(author=user, created_at__gt=since).count() >= limit:
        raise RateLimited()


def mark_chat_read(*, seat: Seat, upto: int) -> None:
    """``seat`` has seen the chat up to message ``upto`` (never moves back): one upsert."""
    table = SeatCorner._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (seat_id, note, chat_read_upto) VALUES (%s, '', %s) "  # noqa: S608 - model's table
            f"ON CONFLICT (seat_id) DO UPDATE SET "
            f"chat_read_upto = GREATEST({table}.chat_read_upto, EXCLUDED.chat_read_upto)",
            [seat.pk, upto],
        )


# Private notes ----------------------------------------------------------------------------------


def save_note(*, user, game_id: int, text) -> SeatCorner:
    """Replace ``user``'s private note at ``game_id``; refused where the rules forbid memory aids."""
    if not isinstance(text, str) or len(text) > NOTE_MAX_LENGTH:
        raise BadInput(_("A note has at most 5000 characters."))
    seat = Seat.objects.select_related("game").filter(game_id=game_id, user=user).first()
    if seat is None or seat.game.status in (GameStatus.OPEN, GameStatus.CANCELLED):
        raise NotSeated()
    if not notes_allowed(engine_slug=seat.game.engine_slug, options=seat.game.options):
        raise NotAllowed(_("The rules of this game forbid memory aids: no notes here."))
    corner, _created = SeatCorner.objects.update_or_create(
        seat=seat, defaults={"note": text.replace("\r\n", "\n"), "note_updated_at": timezone.now()}
    )
    return corner


# Resigning and handing a seat to the bot ------------------------------------------------------------


def _locked_active_table_of_a_seated_human(*, user, game_id: int):
    """The game's table, locked, and ``user``'s seat at it: ``NotSeated`` for anyone but a seated human,
    ``GameNotActive`` once the game is not in progress. Call inside a transaction."""
    table = tables.lock_table(game_id)
    seat = table.seat_of(user)
    if seat is None or seat.is_bot:
        raise NotSeated()
    if table.game.status != GameStatus.ACTIVE:
        raise GameNotActive()
    return table, seat


def resign(*, user, game_id: int) -> Seat:
    """``user`` leaves a game in progress: the bot plays their seat to the end, which ranks it last."""
    with transaction.atomic():
        table = tables.lock_table(game_id)
        game = table.game
        seat = table.seat_of(user)
        if seat is None:
            raise NotSeated()
        if game.status != GameStatus.ACTIVE:
            raise GameNotActive()
        if seat.is_bot:
            raise NotAllowed(_("The bot already plays this seat."))
        seat.is_bot, seat.resigned_at = True, timezone.now()
        seat.save(update_fields=["is_bot", "resigned_at"])
        tables.add_event(table, GameEvent.Kind.RESIGNED, seat)
        _recount_call_off(table)
        live.table_changed(game_id=game.pk, reason="resigned")
        schedule_bots(table)
        return seat


def stalled_since(*, game: Game, seat: Seat, now=None) -> dt.datetime | None:
    """When an awaited human seat of a game without a time limit may be handed to the bot, else None."""
    if game.status != GameStatus.ACTIVE or game.time_limit_hours or seat.is_bot or not seat.awaited:
        return None
    if seat.awaited_since is None:
        return None
    due = seat.awaited_since + dt.timedelta(days=STALLED_DAYS)
    return due if due <= (now or timezone.now()) else None


def hand_over_stalled_seat(*, user, game_id: int, seat_number: int) -> Seat:
    """In a game without a time limit, another seated human hands a seat that has not moved for
    ``STALLED_DAYS`` days to the bot (for good, as a drop-out)."""
    with transaction.atomic():
        table, me = _locked_active_table_of_a_seated_human(user=user, game_id=game_id)
        game = table.game
        try:
            seat = table.seat(int(seat_number))
        except (TypeError, ValueError):
            raise BadInput() from None
        if seat.pk == me.pk or stalled_since(game=game, seat=seat) is None:
            raise NotAllowed(_("This seat cannot be handed to the bot (yet)."))
        _hand_to_bot(table, seat)
        return seat


def _hand_to_bot(table, seat: Seat) -> None:
    seat.is_bot, seat.dropped_out = True, True
    seat.save(update_fields=["is_bot", "dropped_out"])
    tables.add_event(table, GameEvent.Kind.HANDED_OVER, seat)
    _recount_call_off(table)
    live.table_changed(game_id=table.game.pk, reason="handed_over")
    schedule_bots(table)


def hand_over_all_seats(*, user) -> int:
    """A deactivated account: the bot takes each of its seats in games in progress; it leaves games not
    started yet (a game it created is cancelled). The number of games touched."""
    touched = 0
    seats = list(Seat.objects.filter(user=user, is_bot=False, game__status__in=[GameStatus.OPEN, GameStatus.ACTIVE]))
    for seat in seats:
        with transaction.atomic():
            table = tables.lock_table(seat.game_id)
            game = table.game
            mine = table.seat_of(user)
            if mine is None or mine.is_bot:
                continue
            if game.status == GameStatus.ACTIVE:
                _hand_to_bot(table, mine)
            elif game.status == GameStatus.OPEN:
                # Leaves (cancels its own); a league's game not dealt yet goes on with the bot (issue 30).
                seated.give_up_unstarted_seat(user=user, game_id=game.pk)
            else:
                continue
            touched += 1
    return touched


# Calling a game off --------------------------------------------------------------------------------


def _humans(table) -> list[Seat]:
    """The seats whose players still decide: seated humans the bot does not play."""
    return [seat for seat in table.seats if seat.user_id is not None and not seat.is_bot]


def pending_call_off(game_id: int, *, lock: bool = False) -> CallOff | None:
    qs = CallOff.objects.filter(game_id=game_id, status=CallOff.Status.PENDING)
    return (qs.select_for_update() if lock else qs).first()


def propose_call_off(*, user, game_id: int) -> CallOff:
    """``user`` proposes to call the game off; it ends at once if nobody else is left to ask."""
    with transaction.atomic():
        table, seat = _locked_active_table_of_a_seated_human(user=user, game_id=game_id)
        game = table.game
        if pending_call_off(game.pk) is not None:
            raise NotAllowed(_("Calling this game off has been proposed already."))
        hours = game.time_limit_hours or CALL_OFF_DEFAULT_HOURS
        proposal = CallOff.objects.create(
            game=game,
            proposed_by=user,
            proposer_seat=seat.number,
            accepted_seats=[seat.number],
            expires_at=timezone.now() + dt.timedelta(hours=hours),
        )
        live.table_changed(game_id=game.pk, reason="call_off")
        if not _recount_call_off(table, proposal=proposal):
            from together.emails import queue_table_news

            others = [s for s in _humans(table) if s.pk != seat.pk]
            queue_table_news(game=game, seats=others, what="call_off_proposed", name=user.public_name, key=proposal.pk)
        return proposal


def answer_call_off(*, user, game_id: int, accept: bool) -> CallOff:
    """Accept or decline the pending proposal; the game is abandoned when the last one accepts."""
    with transaction.atomic():
        table, seat = _locked_active_table_of_a_seated_human(user=user, game_id=game_id)
        game = table.game
        proposal = pending_call_off(game.pk, lock=True)
        if proposal is None:
            raise NotAllowed(_("Nobody proposes to call this game off now."))
        if accept:
            if seat.number not in proposal.accepted_seats:
                proposal.accepted_seats = [*proposal.accepted_seats, seat.number]
                proposal.save(update_fields=["accepted_seats"])
            _recount_call_off(table, proposal=proposal)
        else:
            proposal.status, proposal.declined_seat, proposal.settled_at = (
                CallOff.Status.DECLINED,
                seat.number,
                timezone.now(),
            )
            proposal.save(update_fields=["status", "declined_seat", "settled_at"])
            from together.emails import queue_table_news

            others = [s for s in _humans(table) if s.pk != seat.pk]
            queue_table_news(game=game, seats=others, what="call_off_declined", name=user.public_name, key=proposal.pk)
        live.table_changed(game_id=game.pk, reason="call_off")
        return proposal


def _recount_call_off(table, *, proposal: CallOff | None = None) -> bool:
    """Abandon the game if every human still deciding has accepted the pending proposal; whether it did."""
    if table.game.status != GameStatus.ACTIVE:
        return False
    proposal = proposal or pending_call_off(table.game.pk, lock=True)
    if proposal is None:
        return False
    if all(seat.number in proposal.accepted_seats for seat in _humans(table)):
        _abandon(table, proposal, CallOff.Status.ACCEPTED)
        return True
    return False


def _abandon(table, proposal: CallOff, status: str) -> None:
    """End the game as abandoned: no ranking, no stats, nobody awaited. The seed is revealed as at any end
    (issue 35): nothing is left to play, and players who called a game off over a deal they doubted can check it."""
    game = table.game
    now = timezone.now()
    game.status, game.finished_at = GameStatus.ABANDONED, now
    game.revealed_seed = table.state_row.seed
    game.save(update_fields=["status", "finished_at", "revealed_seed"])
    for seat in table.seats:
        seat.awaited, seat.awaited_since, seat.deadline_at = False, None, None
        seat.final_rank, seat.final_score, seat.finished_at = None, None, now
    Seat.objects.bulk_update(
        table.seats, ["awaited", "awaited_since", "deadline_at", "final_rank", "final_score", "finished_at"]
    )
    proposal.status, proposal.settled_at = status, now
    proposal.save(update_fields=["status", "settled_at"])
    tables.add_event(table, GameEvent.Kind.ABANDONED)
    signals.game_abandoned.send(sender=Game, game=game)
    live.table_changed(game_id=game.pk, reason="call_off")
    from together.emails import queue_table_news

    queue_table_news(
        game=game,
        seats=[s for s in table.seats if s.user_id is not None],
        what="abandoned",
        name="",
        key=proposal.pk,
    )


def settle_lapsed_call_offs(*, now=None) -> int:
    """Proposals nobody declined within their time: the game is abandoned (beat, every few minutes)."""
    now = now or timezone.now()
    due = list(
        CallOff.objects.filter(status=CallOff.Status.PENDING, expires_at__lte=now).values_list("game_id", flat=True)
    )
    settled = 0
    for game_id in due:
        with transaction.atomic():
            table = tables.lock_table(game_id)
            proposal = pending_call_off(game_id, lock=True)
            if proposal is None or proposal.expires_at > now:
                continue
            if table.game.status != GameStatus.ACTIVE:
                proposal.status, proposal.settled_at = CallOff.Status.VOID, now
                proposal.save(update_fields=["status", "settled_at"])
                continue
            _abandon(table, proposal, CallOff.Status.LAPSED)
            settled += 1
    return settled


def void_call_offs(*, game_id: int) -> None:
    """The game ended by play: a pending proposal no longer applies."""
    CallOff.objects.filter(game_id=game_id, status=CallOff.Status.PENDING).update(
        status=CallOff.Status.VOID, settled_at=timezone.now()
    )
