"""What a push notification or webhook says: built at delivery time in the recipient's language and time
zone, from the delivery's payload (the recipient's own view) and the game's public facts only."""

from __future__ import annotations

import zoneinfo

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from notifications.emails import game_title, game_url
from notifications.outbox import obsolete_reason_of
from notifications.texts import awaited_phrase
from reach.models import Channel, Delivery, EventKind

# The game page's move form (each game's moves.html: ``<section id="moves">``).
MOVE_ANCHOR = "#moves"


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
            from games.templatetags.games_tags import place

            # "2nd", 「2位」, « 2e place »: the end screen's ordinal, not a bare number (issue 19).
            return _("The game is over: you placed %(place)s of %(count)s.") % {
                "place": place(line.get("rank")), "count": len(game.outcome)}
        return _("The game is over.")
    if kind == EventKind.CANCELLED:
        return _("The game was called off.")
    if kind == EventKind.INVITATION:
        return _("%(name)s invites you to play.") % {"name": payload.get("invited_by") or _("A player")}
    if kind == EventKind.CHAT:
        return _chat_body(_chat(row))
    return ""


def _chat(row: Delivery):
    """The unread chat the message tells of (``row.chat``, set by the chat kind's ``prepare``: reach.delivery
    asks it first, to drop what was read meanwhile)."""
    if getattr(row, "chat", None) is None:
        obsolete_reason_of(row, quiet=False)
    return row.chat


def _chat_body(chat) -> str:
    if not chat.latest:
        return _("New messages in the chat.")
    last = chat.latest[-1]
    line = _("%(name)s: %(text)s") % {"name": last["name"], "text": last["text"]}
    more = chat.count - 1
    if more <= 0:
        return line
    return ngettext("%(line)s (and %(count)s more message)", "%(line)s (and %(count)s more messages)", more) % {
        "line": line, "count": more}


def message(row: Delivery) -> dict:
    """The notification as a dict: what push shows and what a webhook receives (besides its envelope)."""
    user = row.user
    game = row.game
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(user_zone(user)):
        title = game_title(game) if game is not None else "mammamia"
        body = _body(row, game)
        url = game_url(game) if game is not None else settings.SITE_URL + "/games/"
        tag = f"game-{row.game_id}" if row.game_id else f"{row.kind}"
        if row.kind == EventKind.CHAT:
            # Its own tag: a chat notification replaces the previous chat one, never the "your move" one.
            url, tag = url + "#chat", f"chat-{row.game_id}"
        elif row.channel == Channel.PUSH and game is not None and (
            row.kind in (EventKind.TURN, EventKind.REMINDER) or row.payload.get("awaited")
        ):
            url += MOVE_ANCHOR  # the notification opens the game page at its move form (webhooks: unchanged)
        result = {
            "kind": row.kind,
            "title": str(title),
            "body": str(body),
            "url": url,
            "tag": tag,
            "game": None,
        }
        if row.kind == EventKind.CHAT:
            chat = _chat(row)
            result["chat"] = {"count": chat.count, "latest": chat.latest}
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
