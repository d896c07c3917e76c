"""Private feeds at secret URLs: an ICS calendar of my deadlines and an Atom feed of games awaiting me.

Both are read by calendar and feed clients with no session, so the secret in the URL is the credential
(regenerable from the settings page); both speak the owner's language and time zone. Each costs a fixed
number of queries (the awaited seats with their games, and those seats' own views), however many games.
Need to know: a line says which game awaits what kind of move, taken from the owner's own SeatView.
"""

from __future__ import annotations

import datetime as dt
from urllib.parse import urlsplit

import icalendar
from django.conf import settings
from django.db.models import Q
from django.urls import reverse
from django.utils import feedgenerator, timezone, translation
from django.utils.translation import gettext as _

from games.models import GameStatus, Seat, SeatView
from notifications.emails import game_title, game_url
from notifications.texts import awaited_phrase, move_types
from reach.texts import user_zone


def calendar_url(channel_settings) -> str:
    return settings.SITE_URL + reverse("reach:calendar", args=[channel_settings.feed_secret])


def atom_url(channel_settings) -> str:
    return settings.SITE_URL + reverse("reach:atom", args=[channel_settings.feed_secret])


def _awaited(user) -> list[tuple[Seat, str]]:
    """(seat, what is awaited) for every active game awaiting ``user``, oldest wait first."""
    seats = list(
        Seat.objects.filter(user=user, awaited=True, is_bot=False, game__status=GameStatus.ACTIVE)
        .select_related("game").order_by("awaited_since", "pk")
    )
    # The owner's own rows only (need to know), one query: (game, seat) pairs OR-ed together.
    mine = Q()
    for seat in seats:
        mine |= Q(game_id=seat.game_id, seat_number=seat.number)
    legal = {
        (game_id, number): moves
        for game_id, number, moves in SeatView.objects.filter(mine).values_list("game_id", "seat_number", "legal_moves")
    } if seats else {}
    return [(s, awaited_phrase(s.game.engine_slug, move_types(legal.get((s.game_id, s.number))))) for s in seats]


def _host() -> str:
    return urlsplit(settings.SITE_URL).hostname or "mammamia.invalid"


def calendar(*, user) -> bytes:
    zone = user_zone(user)
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(zone):
        cal = icalendar.Calendar()
        cal.add("prodid", "-//mammamia//deadlines//EN")
        cal.add("version", "2.0")
        cal.add("calscale", "GREGORIAN")
        cal.add("x-wr-calname", _("mammamia: my deadlines"))
        cal.add("x-wr-timezone", zone.key)
        for seat, what in _awaited(user):
            if seat.deadline_at is None:
                continue
            game = seat.game
            event = icalendar.Event()
            event.add("uid", f"deadline-{game.pk}-{seat.number}-{int(seat.awaited_since.timestamp())}@{_host()}")
            event.add("dtstamp", seat.awaited_since)
            deadline = seat.deadline_at.astimezone(zone)
            event.add("dtstart", deadline)
            event.add("dtend", deadline)
            event.add("summary", _("%(game)s: %(what)s (deadline)") % {"game": game_title(game), "what": what})
            event.add("description", _("Make your move before this time, or a bot moves for you.") + "\n"
                      + game_url(game))
            event.add("url", game_url(game))
            alarm = icalendar.Alarm()
            alarm.add("action", "DISPLAY")
            alarm.add("description", _("%(game)s: 1 hour left for your move") % {"game": game_title(game)})
            alarm.add("trigger", -dt.timedelta(hours=1))
            event.add_component(alarm)
            cal.add_component(event)
        cal.add_missing_timezones()
        return cal.to_ical()


def atom(*, user) -> bytes:
    zone = user_zone(user)
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(zone):
        awaited = _awaited(user)
        feed = feedgenerator.Atom1Feed(
            title=_("mammamia: games awaiting my move"),
            link=settings.SITE_URL + reverse("my-games"),
            description=_("Games where it is your move."),
            language=user.language or settings.LANGUAGE_CODE,
            feed_url=atom_url(user.channel_settings),
            feed_guid=f"tag:{_host()},2026:awaiting:{user.pk}",
        )
        for seat, what in awaited:
            game = seat.game
            since = seat.awaited_since.astimezone(zone)
            if seat.deadline_at is not None:
                deadline = timezone.localtime(seat.deadline_at, zone).strftime("%Y-%m-%d %H:%M")
                text = _("%(what)s. Deadline: %(when)s (%(zone)s).") % {"what": what, "when": deadline,
                                                                        "zone": zone.key}
            else:
                text = what
            feed.add_item(
                title=f"{game_title(game)}: {what}",
                link=game_url(game),
                description=text,
                unique_id=f"tag:{_host()},2026:game-{game.pk}-seat-{seat.number}-{int(since.timestamp())}",
                updateddate=since,
                pubdate=since,
            )
        return feed.writeString("utf-8").encode()
