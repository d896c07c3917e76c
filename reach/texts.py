"""What a push notification or webhook says: built at delivery time in the recipient's language and time
zone, from the delivery's payload (the recipient's own view) and the game's public facts only."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from notifications.emails import game_title, game_url
from notifications.texts import awaited_phrase
from reach.models import Delivery, EventKind


def user_zone(user):
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def _body(row: Delivery, game) -> str:
    payload = row.payload
    what = awaited_phrase(game.engine_slug, payload.get("move_types") or []) if game is not None else ""
    kind = row.kind
    if kind == EventKind.TURN:
        return what[:1].upper() + what[1:] + "."
    if kind == EventKind.REMINDER:
        return _("Your deadline is near: %(what)s.") % {"what": what}
    if kind == EventKind.TIMEOUT:
        if payload.get("dropped_out"):
            return _("Your time ran out again: a bot has taken over your seat.")
        return _("Your time ran out: a bot moved for you.")
    if kind == EventKind.STARTED:
        if payload.get("awaited"):
            return _("The game has started: %(what)s.") % {"what": what}
        return _("The game has started.")
    if kind == EventKind.FINISHED:
        seat = payload.get("seat_number")
        line = next((x for x in (game.outcome or []) if x.get("seat") == seat), None)
        if line is not None and line.get("rank") == 1:
            return _("The game is over: you won!")
        if line is not None:
            return _("The game is over: you placed %(rank)s of %(count)s.") % {
                "rank": line.get("rank"), "count": len(game.outcome)}
        return _("The game is over.")
    if kind == EventKind.CANCELLED:
        return _("The game was called off.")
    if kind == EventKind.INVITATION:
        return _("%(name)s invites you to play.") % {"name": payload.get("invited_by") or _("A player")}
    return ""


def message(row: Delivery) -> dict:
    """The notification as a dict: what push shows and what a webhook receives (besides its envelope)."""
    user = row.user
    game = row.game
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(user_zone(user)):
        title = game_title(game) if game is not None else "mammamia"
        body = _body(row, game)
        url = game_url(game) if game is not None else settings.SITE_URL + "/games/"
        result = {
            "kind": row.kind,
            "title": str(title),
            "body": str(body),
            "url": url,
            "tag": f"game-{row.game_id}" if row.game_id else f"{row.kind}",
            "game": None,
        }
        if game is not None:
            result["game"] = {
                "id": game.pk,
                "name": str(game.engine_name),
                "slug": game.engine_slug,
                "version": row.payload.get("version"),
            }
            if row.kind == EventKind.FINISHED:
                result["game"]["ranking"] = [
                    {"seat": x.get("seat"), "rank": x.get("rank"), "score": x.get("score")}
                    for x in (game.outcome or [])
                ]
        for name in ("seat_number", "move_types", "deadline_at", "awaited_since"):
            if name in row.payload:
                result[name] = row.payload[name]
    return result
