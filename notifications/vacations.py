"""Vacations: a user declares an absence (``User.away_until``) and their deadlines pause meanwhile.

The rule, precisely: a turn's clock does not run while its player is away.
It is kept in ``Seat.deadline_at`` (which the game page shows) by shifting it:

- declaring or changing an absence moves the deadline of every turn awaiting
  the user by the change in *remaining* absence: going away for 3 days adds
  3 days; coming back one day early takes that day back; extending by 2 days
  adds 2 days. So a turn that had 5 hours left when its player left has 5
  hours left when they are back;
- a turn that begins while its player is away (``game_advanced``) gets the
  rest of the absence added to its fresh ``awaited_since + limit``, so its
  full time limit starts when they are back;
- nothing needs to happen when an absence simply runs out.

Meanwhile ``check_deadlines`` sends no reminders to an absent player and
plays no timeout for them, and opponents see "away" (``User.is_away()``,
used by ``games.play.selectors.player_dicts``). An absence lasts at most
``MAX_ABSENCE`` from the moment it is declared.

Locking: the absence is changed with the user row locked (two submissions
cannot both shift), then the user's active games locked in id order, as every
move locks its game first. A move racing with the change is either fully
before it (its newly awaited seat is shifted by the UPDATE here) or fully
after it (it reads the new ``away_until`` and shifts its own seat).
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone

MAX_ABSENCE = dt.timedelta(days=14)
ZERO = dt.timedelta(0)


def remaining_absence(away_until, now) -> dt.timedelta:
    if away_until is None or away_until <= now:
        return ZERO
    return away_until - now


@transaction.atomic
def set_away(*, user, until: dt.datetime | None, now: dt.datetime | None = None):
    """Declare (``until`` in the future), change, or end (``until=None``) an absence; shifts deadlines.

    ``until`` is capped at ``now + MAX_ABSENCE``. Returns the updated user.
    """
    from games.models import Game, GameStatus, Seat

    now = now or timezone.now()
    if until is not None and until <= now:
        until = None
    if until is not None and until > now + MAX_ABSENCE:
        until = now + MAX_ABSENCE
    locked = get_user_model().objects.select_for_update().get(pk=user.pk)
    delta = remaining_absence(until, now) - remaining_absence(locked.away_until, now)
    locked.away_until = until
    locked.save(update_fields=["away_until"])
    if delta:
        game_ids = list(
            Game.objects.select_for_update(of=("self",))
            .filter(status=GameStatus.ACTIVE, seats__user=locked, seats__awaited=True)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        if game_ids:
            Seat.objects.filter(
                game_id__in=game_ids, user=locked, awaited=True, is_bot=False, deadline_at__isnull=False
            ).update(deadline_at=F("deadline_at") + delta)
    user.away_until = locked.away_until
    return locked


def pause_new_turns(seats, *, now) -> None:
    """For seats that just became awaited (inside the move's transaction): add the rest of their player's absence."""
    from games.models import Seat

    for seat in seats:
        user = seat.user if seat.user_id else None
        if user is None or seat.deadline_at is None:
            continue
        extra = remaining_absence(user.away_until, now)
        if extra:
            seat.deadline_at = seat.deadline_at + extra
            Seat.objects.filter(pk=seat.pk).update(deadline_at=seat.deadline_at)
