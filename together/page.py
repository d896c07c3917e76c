"""What the game page (and its live partial) shows of playing together, for one viewer.

``table_context`` is the one call the platform's game view makes. For the viewer only, it reads in one
query the game's activity stamp, the viewer's own corner (note, how far they read) and whether the game
has a call-off proposal or a rematch (loaded only if so); in one more, the latest chat messages
(without those of users the viewer blocked). A seat that has now seen the latest message has its read
marker moved (one upsert, only when it moves).
"""

from __future__ import annotations

from django.utils import timezone

from games.models import GameStatus
from together import selectors, services
from together.models import CHAT_MAX_LENGTH, NOTE_MAX_LENGTH, Report
from together.rules import chat_html, notes_allowed

ENDED = (GameStatus.FINISHED, GameStatus.ABANDONED)


def message_dicts(messages, *, viewer_id: int | None, unread_after: int | None = None) -> list[dict]:
    rows = []
    for message in messages:
        rows.append(
            {
                "id": message.pk,
                "name": message.author_name,
                "seat": message.seat_number,
                "author_id": message.author_id,
                "author_username": message.author.username if message.author_id else None,
                "mine": viewer_id is not None and message.author_id == viewer_id,
                "removed": message.is_removed,
                "html": "" if message.is_removed else chat_html(message.text),
                "created_at": message.created_at,
                "unread": unread_after is not None and message.pk > unread_after and message.author_id != viewer_id,
            }
        )
    return rows


def table_context(*, user, access) -> dict:
    """Chat, note and table actions of ``access``'s game for its viewer; adds to the page token."""
    game = access.game
    seat = access.seat
    human_seat = seat if seat is not None and seat.user_id is not None else None
    # Read with the seats (games.policies access columns); one query of its own otherwise.
    snapshot = selectors.snapshot_from_seats(seats=access.seats, seat=human_seat) or selectors.table_snapshot(
        game_id=game.pk, seat_id=human_seat.pk if human_seat else None
    )
    context: dict = {"activity_stamp": snapshot.stamp, "together": None}
    if game.status in (GameStatus.OPEN, GameStatus.CANCELLED):
        return context
    viewer = user if user is not None and user.is_authenticated else None
    readable = services.chat_readable(game=game, seat=seat, may_view=access.may_view)
    read_upto = snapshot.read_upto
    has_chat = readable and snapshot.last_message_id is not None  # a game without a message reads no chat
    messages = selectors.latest_messages(game_id=game.pk, viewer=viewer) if has_chat else []
    rows = message_dicts(
        messages, viewer_id=viewer.pk if viewer else None, unread_after=read_upto if human_seat else None
    )
    unread = sum(1 for row in rows if row["unread"])
    if human_seat is not None and messages and messages[-1].pk > read_upto:
        services.mark_chat_read(seat=human_seat, upto=messages[-1].pk)
    now = timezone.now()
    humans_deciding = [s for s in access.seats if s.user_id is not None and not s.is_bot]
    together = {
        "chat_readable": readable,
        "chat_writable": services.chat_writable(game=game, seat=human_seat),
        "chat_max": CHAT_MAX_LENGTH,
        "messages": rows,
        "unread": unread,
        "first_unread": next((row["id"] for row in rows if row["unread"]), None),
        "notes_shown": human_seat is not None,
        "notes_allowed": notes_allowed(engine_slug=game.engine_slug, options=game.options),
        "note": snapshot.note,
        "note_max": NOTE_MAX_LENGTH,
        "report_reasons": Report.Reason.choices,
        "may_resign": game.status == GameStatus.ACTIVE and human_seat is not None and not human_seat.is_bot,
    }
    if game.status == GameStatus.ACTIVE and human_seat is not None and not human_seat.is_bot:
        # The latest proposal, pending or not: one query.
        last = selectors.last_call_off(game.pk) if snapshot.last_call_off_id else None
        proposal = last if last is not None and last.status == last.Status.PENDING else None
        together["call_off"] = proposal
        if proposal is not None:
            together["call_off_waiting"] = [s.name for s in humans_deciding if s.number not in proposal.accepted_seats]
            together["call_off_mine"] = human_seat.number == proposal.proposer_seat
            together["call_off_answered"] = human_seat.number in proposal.accepted_seats
        elif last is not None and last.status == last.Status.DECLINED:
            together["call_off_declined_by"] = next(
                (s.name for s in access.seats if s.number == last.declined_seat), ""
            )
        together["stalled"] = [
            {"number": s.number, "name": s.name}
            for s in access.seats
            if s.pk != human_seat.pk and services.stalled_since(game=game, seat=s, now=now) is not None
        ]
    if game.status in ENDED:
        together["rematch"] = selectors.rematch_info(game=game, user=viewer) if snapshot.last_rematch_id else None
        together["may_rematch"] = human_seat is not None
        if game.status == GameStatus.ABANDONED:
            last = selectors.last_call_off(game.pk) if snapshot.last_call_off_id else None
            together["abandoned_how"] = last.status if last is not None else ""
    context["together"] = together
    return context


def my_games_extra(*, user, game_ids: list[int], sections=None) -> dict:
    """The core's "My games" extra (``games.policies``): the whole context for the page's ``sections``, the
    unread chat of ``game_ids`` for the API's list."""
    if sections is not None:
        return my_games_context(user, sections)
    return {"chat_unread": selectors.unread_counts(user=user, game_ids=game_ids)}


def my_games_context(user, sections) -> dict:
    """For My games: unread chat per game, the rematch each invitation belongs to, and the live rematch
    of each finished game listed. Three queries whatever the number of games."""
    current = [seat.game_id for seat in (*sections.awaiting, *sections.waiting)]
    finished = [seat.game_id for seat in (sections.finished.object_list if sections.finished else [])]
    invited = [invitation.game_id for invitation in sections.invitations]
    open_games = [seat.game_id for seat in sections.open]
    links = selectors.rematch_links(original_ids=finished, rematch_game_ids=invited + open_games)
    return {
        "chat_unread": selectors.unread_counts(user=user, game_ids=current + finished),
        "rematch_of": {game_id: row.original_id for game_id, row in links["by_game"].items()},
        "rematch_pending": {
            game_id: row.game_id for game_id, row in links["by_original"].items() if row.game.status == GameStatus.OPEN
        },
    }


def replay_chat(*, access, user, step: int, total: int, last_move=None) -> list[dict]:
    """The chat as it stood at this step of the replay (all of it at the last step)."""
    game = access.game
    if not services.chat_readable(game=game, seat=access.seat, may_view=access.may_view):
        return []
    viewer = user if user is not None and user.is_authenticated else None
    before = None  # the last step shows all of it
    if step < total:
        # What was written while the table stood at this step: before the next move was made.
        from games.models import Move

        before = Move.objects.filter(game=game, sequence=step + 1).values_list("created_at", flat=True).first()
    messages = selectors.latest_messages(game_id=game.pk, viewer=viewer, before=before)
    return message_dicts(messages, viewer_id=viewer.pk if viewer else None)
