"""Writes about clocks outside a move: a player's quiet days, time zone or absence change.

Such a change applies from now on, never to time already past: each running clock of the player is read
under the old settings (``clocks.turns.reread``), then its deadline is computed under the new ones.

Locking, as ``notifications.vacations`` did: the user row first (two changes cannot interleave), then the
user's active games with a turn awaiting them in id order, as a move locks its game first. A move racing with
the change is either fully before it (its newly awaited seat is re-read here) or fully after it (it reads the
new settings when it starts the turn).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from clocks import turns
from clocks.arithmetic import quiet_mask
from games.models import Game, GameStatus, Seat

SETTINGS_FIELDS = ["quiet_days", "time_zone", "away_until"]


@transaction.atomic
def change_clock_settings(*, user, apply: Callable, now: dt.datetime | None = None):
    """Lock ``user``, re-read their running clocks, call ``apply(locked_user)`` (it changes and saves the user's
    quiet days, time zone or absence), then recompute those clocks' deadlines. Returns the locked user."""
    now = now or timezone.now()
    locked = get_user_model().objects.select_for_update().get(pk=user.pk)
    game_ids = list(
        Game.objects.select_for_update(of=("self",))
        .filter(status=GameStatus.ACTIVE, seats__user=locked, seats__awaited=True)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    seats = list(Seat.objects.filter(game_id__in=game_ids, user=locked, awaited=True, is_bot=False)) if game_ids else []
    before = turns.pauses_of_user(locked)
    for seat in seats:
        turns.reread(seat, now, before)
    apply(locked)
    locked.refresh_from_db(fields=SETTINGS_FIELDS)
    after = turns.pauses_of_user(locked)
    for seat in seats:
        turns.recompute_deadline(seat, after)
    if seats:
        Seat.objects.bulk_update(seats, turns.CLOCK_FIELDS)
    for name in SETTINGS_FIELDS:
        setattr(user, name, getattr(locked, name))
    return locked


def set_quiet_days(*, user, weekdays, now: dt.datetime | None = None):
    """``user``'s clocks do not run on these weekdays (0 Monday ... 6 Sunday, at most three) from now on."""
    mask = quiet_mask(weekdays)

    def apply(locked) -> None:
        locked.quiet_days = mask
        locked.save(update_fields=["quiet_days"])

    return change_clock_settings(user=user, apply=apply, now=now)
