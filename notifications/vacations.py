"""Vacations: a user declares an absence (``User.away_until``) and their clocks stop meanwhile.

The rule, precisely: a turn's clock does not run while its player is away (``clocks.arithmetic``: an
absence is one of the clock's pauses, with the player's quiet days; the two overlapping count once).
``Seat.deadline_at`` (which the pages show) is computed from the clock's reading and these pauses:

- declaring, changing or ending an absence re-reads every running clock of the user at that moment and
  computes its deadline again with the new absence (``games.clock_settings.change_clock_settings``): a turn that
  had 5 hours left when its player left has 5 hours left when they are back, coming back early takes the
  unused days back;
- a turn that begins while its player is away gets its deadline with the rest of the absence as a pause
  (``clocks.turns.start_turn``), so its clock starts when they are back;
- nothing needs to happen when an absence simply runs out.

Meanwhile ``check_deadlines`` sends no reminders to an absent player and plays no timeout for them, and
opponents see "away" (``User.is_away()``, used by ``games.play.selectors.player_dicts``). An absence lasts at
most ``MAX_ABSENCE`` from the moment it is declared. Locking: see ``games.clock_settings``.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from games.clock_settings import change_clock_settings

MAX_ABSENCE = dt.timedelta(days=14)
ZERO = dt.timedelta(0)


def remaining_absence(away_until, now) -> dt.timedelta:
    if away_until is None or away_until <= now:
        return ZERO
    return away_until - now


def set_away(*, user, until: dt.datetime | None, now: dt.datetime | None = None):
    """Declare (``until`` in the future), change, or end (``until=None``) an absence; the user's clocks stop
    meanwhile. ``until`` is capped at ``now + MAX_ABSENCE``. Returns the updated user."""
    now = now or timezone.now()
    if until is not None and until <= now:
        until = None
    if until is not None and until > now + MAX_ABSENCE:
        until = now + MAX_ABSENCE

    def apply(locked) -> None:
        locked.away_until = until
        locked.save(update_fields=["away_until"])

    return change_clock_settings(user=user, apply=apply, now=now)
