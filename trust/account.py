"""Users own their data: download it (a JSON archive) and delete the account.

Export: the account, its settings and addresses, its API tokens (names and dates, never the tokens), and every
game it has a seat in: the game's public facts, the player's own moves, and the player's OWN view of the game
(their SeatView: need to know, as on their page), plus invitations and the e-mails sent to them (kind and
dates). Deletion: personal data is removed at once (name, addresses, password, tokens, statistics, pending
e-mails, invitations), seats in finished games stay as "Deleted player" so other players' history stays whole,
seats in running games are handed to the bot, and open games are left (or called off, when the player made them;
a league's game waiting for its deal goes on with the bot in the seat, issue 30).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone


def _iso(value) -> str | None:
    return value.isoformat() if isinstance(value, dt.datetime) else value


def export_data(user) -> dict[str, Any]:
    """Everything the site holds about ``user``, as JSON-ready data (queries bounded per game)."""
    from allauth.account.models import EmailAddress

    from games.models import GameStatus, Invitation, Move, Seat, SeatView
    from notifications.models import OutboxEmail
    from reach.account import export_channels
    from together.account import export_table_words
    from trust.models import ApiToken

    seats = list(Seat.objects.filter(user=user).select_related("game").order_by("game_id"))
    game_ids = [seat.game_id for seat in seats]
    others = {}
    for seat in Seat.objects.filter(game_id__in=game_ids).select_related("user"):
        others.setdefault(seat.game_id, []).append(seat)
    numbers = {seat.game_id: seat.number for seat in seats}
    views = {
        row.game_id: row
        for row in SeatView.objects.filter(game_id__in=game_ids, seat_number__isnull=False)
        if numbers.get(row.game_id) == row.seat_number
    }
    moves: dict[int, list[dict]] = {}
    for move in Move.objects.filter(game_id__in=game_ids).order_by("game_id", "sequence"):
        if move.seat_number == numbers.get(move.game_id):
            moves.setdefault(move.game_id, []).append(
                {"sequence": move.sequence, "move": move.move, "made_by": move.made_by, "at": _iso(move.created_at)}
            )
    games = []
    for seat in seats:
        game = seat.game
        view = views.get(game.pk)
        games.append(
            {
                "id": game.pk,
                "game": game.engine_slug,
                "status": game.status,
                "options": game.options,
                "visibility": game.visibility,
                "created_at": _iso(game.created_at),
                "started_at": _iso(game.started_at),
                "finished_at": _iso(game.finished_at),
                "seed_sha256": game.seed_sha256,
                "seed": game.revealed_seed or None,
                "my_seat": seat.number,
                "my_rank": seat.final_rank,
                "my_score": seat.final_score,
                "timeouts": seat.timeouts,
                "dropped_out": seat.dropped_out,
                "players": [
                    {"seat": s.number, "name": s.name, "is_bot": s.is_bot}
                    for s in sorted(others.get(game.pk, []), key=lambda s: (s.number is None, s.number, s.join_order))
                ],
                "my_moves": moves.get(game.pk, []),
                "my_view": (
                    {**view.view, "log": view.log_tail, "log_size": view.log_size}
                    if view is not None and game.status != GameStatus.OPEN
                    else None
                ),
            }
        )
    return {
        "format": "mammamia-export-1",
        "exported_at": _iso(timezone.now()),
        "account": {
            "username": user.username,
            "display_name": user.display_name,
            "email": user.email,
            "date_joined": _iso(user.date_joined),
            "last_login": _iso(user.last_login),
            "email_addresses": [
                {"email": a.email, "verified": a.verified, "primary": a.primary}
                for a in EmailAddress.objects.filter(user=user)
            ],
        },
        "settings": {
            "language": user.language,
            "time_zone": user.time_zone,
            "notify_mode": user.notify_mode,
            "deadline_reminders": user.deadline_reminders,
            "away_until": _iso(user.away_until),
            "email_undeliverable_since": _iso(user.email_undeliverable_since),
        },
        "api_tokens": [
            {"name": t.name, "created": _iso(t.created), "last_used": _iso(t.last_used_at), "expiry": _iso(t.expiry)}
            for t in ApiToken.objects.filter(user=user)
        ],
        "games": games,
        "invitations_received": [
            {"game": i.game_id, "status": i.status, "at": _iso(i.created_at)}
            for i in Invitation.objects.filter(user=user)
        ],
        "emails": [
            {
                "kind": e.kind,
                "game": e.game_id,
                "status": e.status,
                "created_at": _iso(e.created_at),
                "sent_at": _iso(e.sent_at),
            }
            for e in OutboxEmail.objects.filter(user=user).order_by("created_at")
        ],
        "channels": export_channels(user),  # push, webhooks, the choices per kind (issue 20)
        **export_table_words(user),  # my notes and my chat messages (issue 29)
    }


DELETED_NAME = "Deleted player"


def delete_account(*, user) -> None:
    """Remove ``user``'s personal data now; keep their finished seats anonymous; bots take their running seats."""
    from allauth.account.models import EmailAddress

    from games.exceptions import GameError
    from games.lobby.seated import give_up_unstarted_seat
    from games.models import Game, GameStatus, Invitation, PlayerStats, Seat
    from games.tables import lock_table
    from games.tasks import play_bot_moves
    from notifications.models import OutboxEmail
    from reach.account import forget_channels
    from trust.erasure import erase_traces
    from trust.models import ApiToken

    for game in Game.objects.filter(seats__user=user, status=GameStatus.OPEN).distinct():
        # Leaves it (cancels it if theirs); a league's game not dealt yet goes on with the bot (issue 30). One that
        # started meanwhile is handled with the running games below.
        with contextlib.suppress(GameError):
            give_up_unstarted_seat(user=user, game_id=game.pk)
    with transaction.atomic():
        # The user row first, as a change of their clocks (absence, quiet days) locks it before their games; then
        # each game as a move locks it, game row first, in id order (one lock order: issue 29 item 6).
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        running_ids = Seat.objects.filter(user=user, game__status=GameStatus.ACTIVE).values_list("game_id", flat=True)
        running = []
        for game_id in sorted(running_ids):
            table = lock_table(game_id, with_state=False)
            seat = table.seat_of(user)
            if seat is not None and table.game.status == GameStatus.ACTIVE:
                running.append((seat, table.game.version))
        for seat, version in running:
            seat.is_bot, seat.dropped_out = True, True
            seat.save(update_fields=["is_bot", "dropped_out"])
            if seat.awaited:
                game_id = seat.game_id

                def queue(game_id=game_id, version=version) -> None:
                    play_bot_moves.apply_async(args=[game_id, version], countdown=0)

                # The stalled-bot sweep plays it if the broker is down now.
                transaction.on_commit(queue, robust=True)
        OutboxEmail.objects.filter(user=user, status=OutboxEmail.Status.PENDING).delete()
        OutboxEmail.objects.filter(user=user).update(payload={})
        Invitation.objects.filter(user=user).delete()
        PlayerStats.objects.filter(user=user).delete()
        ApiToken.objects.filter(user=user).delete()
        EmailAddress.objects.filter(user=user).delete()
        forget_channels(user)  # browsers, webhooks, feeds (issue 20)
        erase_traces(user=user, replacement=DELETED_NAME)  # chat, logs, the others' queued messages (issue 29)
        user.username = f"deleted-{user.pk}-{secrets.token_hex(4)}"
        user.display_name = DELETED_NAME
        user.email = ""
        user.first_name = user.last_name = ""
        user.is_active = False
        user.is_staff = user.is_superuser = False
        user.away_until = None
        user.email_undeliverable_since = None
        user.set_unusable_password()
        user.save()
