"""What pages show of the clocks: each player's clock (bank left, or the running clock's deadline with its
pauses, so the browser makes it tick without asking the server) and their quiet days.

Built from the seat rows and their users only (no query), and with nothing that depends on the moment of
rendering: the game page's board, which lists the players, is cached per game version (``games.board``).
"""

from __future__ import annotations

import datetime as dt

from django.utils.translation import gettext as _

from clocks import turns
from clocks.arithmetic import ClockKind, TimeControl, pauses_between, quiet_weekdays


def _ms(moment: dt.datetime) -> int:
    return int(moment.timestamp() * 1000)


def seat_clock(seat, control: TimeControl) -> dict | None:
    """One seat's clock for a page: ``running`` with ``deadline`` (and ``deadline_ms``, ``pauses``: the pauses
    until then as "start-end" milliseconds, comma-separated), or a stopped bank's ``bank``; None: no clock."""
    if not control.is_timed or seat.number is None or seat.dropped_out or seat.is_bot:
        return None  # a bot moves at once: a countdown beside it ("1 day 23 hours") would say otherwise
    if seat.awaited and seat.deadline_at is not None:
        read_at = seat.clock_read_at or seat.awaited_since or seat.deadline_at
        windows = pauses_between(read_at, seat.deadline_at, turns.pauses_of(seat))
        return {
            "running": True,
            "deadline": seat.deadline_at,
            "deadline_ms": _ms(seat.deadline_at),
            "pauses": ",".join(f"{_ms(begin)}-{_ms(end)}" for begin, end in windows),
        }
    if control.kind == ClockKind.BANK:
        return {"running": False, "bank": control.turn_reading(seat.clock_left)}
    return None


def player_clocks(*, game, seats, players: list[dict]) -> list[dict]:
    """``players`` (``games.play.selectors.player_dicts`` of ``seats``) with each one's ``clock`` and ``quiet_days``
    (weekday numbers, in that player's ``time_zone``)."""
    control = game.time_control
    by_number = {seat.number: seat for seat in seats}
    result = []
    for player in players:
        seat = by_number.get(player["seat"])
        user = seat.user if seat is not None and seat.user_id and not seat.is_bot else None
        quiet = sorted(quiet_weekdays(user.quiet_days)) if user is not None and control.is_timed else []
        result.append(
            {
                **player,
                "clock": seat_clock(seat, control) if seat is not None else None,
                "quiet_days": quiet,
                "time_zone": user.time_zone if quiet else "",
            }
        )
    return result


def clock_left(clock: dict, now: dt.datetime) -> dt.timedelta:
    """What a running ``clock`` (``seat_clock``) shows at ``now``: the time until its deadline less the pauses
    still to come. The same arithmetic as ``static/js/clocks.js``, so the page says it before the script runs."""
    now_ms, deadline = _ms(now), clock["deadline_ms"]
    left = deadline - now_ms
    if left <= 0:
        return dt.timedelta(0)
    for pair in filter(None, (clock.get("pauses") or "").split(",")):
        begin, end = (int(part) for part in pair.split("-"))
        overlap = min(end, deadline) - max(begin, now_ms)
        if overlap > 0:
            left -= overlap
    return dt.timedelta(milliseconds=max(0, left))


def clock_text(left: dt.timedelta) -> str:
    """A clock's reading as the ticking clock writes it ("3 h 59 min", "2 d 4 h", "4 min 05 s"): rounded down,
    in the same translated patterns as ``static/js/clocks.js``, so a countdown and the clock beside it agree."""
    seconds = max(0, int(left.total_seconds()))
    days, hours, minutes = seconds // 86400, (seconds % 86400) // 3600, (seconds % 3600) // 60
    if days:
        pattern = _("{d} d {h} h")
    elif hours:
        pattern = _("{h} h {m} min")
    else:
        pattern = _("{m} min {s} s")
    return (
        pattern.replace("{d}", str(days))
        .replace("{h}", str(hours))
        .replace("{m}", f"{minutes:02d}" if hours else str(minutes))
        .replace("{s}", f"{seconds % 60:02d}")
    )


def clock_context(seat, *, now: dt.datetime) -> dict:
    """For an e-mail to ``seat``'s player: ``time_left`` (their clock's reading now, in words) and ``quiet_days``
    (weekday numbers). Empty when the seat has no running clock."""
    if seat is None:
        return {}
    from clocks.controls import duration_text

    left = turns.reading_now(seat, now)
    user = seat.user if seat.user_id else None
    return {
        "time_left": duration_text(left) if left is not None else "",
        "quiet_days": sorted(quiet_weekdays(user.quiet_days)) if user is not None else [],
    }
