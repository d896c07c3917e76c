"""Turning an outbox row into an e-mail: subject, plain text, HTML and headers, in the recipient's language.

Rendering happens at delivery time (a worker), from the row's payload and the
current public facts of the game (names, ranking). Hidden information comes
only from the payload, which the receivers took from the recipient's OWN
``SeatView`` (need to know); nothing here reads ``GameState``.
"""

from __future__ import annotations

import datetime as dt
import email.policy
import html
import logging
import re
import zoneinfo
from email.headerregistry import BaseHeader

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone, translation
from django.utils.dateparse import parse_datetime
from django.utils.html import escape, strip_tags
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from clocks.display import clock_context
from notifications.models import DeadlineReminder, OutboxEmail
from notifications.outbox import game_thread_id, get_kind
from notifications.texts import awaited_phrase, platform_event_text
from notifications.tokens import unsubscribe_url

logger = logging.getLogger(__name__)

LIST_ID = "mammamia game notifications"


def absolute(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def _url(name: str, *args, fallback: str) -> str:
    try:
        return absolute(reverse(name, args=args))
    except NoReverseMatch:
        return absolute(fallback)


def game_url(game) -> str:
    try:
        return absolute(game.get_absolute_url())
    except NoReverseMatch:  # the game page's route has not landed yet
        return absolute(f"/games/{game.pk}/")


def game_title(game) -> str:
    return _("%(game)s #%(number)s") % {"game": game.engine_name, "number": game.pk}


def _player_dicts(seats: list) -> list[dict]:
    try:
        from games.play.selectors import player_dicts

        return player_dicts(seats)
    except ImportError:  # pragma: no cover - selectors landed with the platform
        return [
            {"seat": s.number, "name": s.name, "listed_name": s.listed_name, "is_bot": s.is_bot,
             "colour": s.colour, "user_id": s.user_id,
             "dropped_out": s.dropped_out, "away": bool(s.user_id and s.user.is_away()), "rank": s.final_rank,
             "score": s.final_score}
            for s in sorted(seats, key=lambda s: (s.number is None, s.number, s.join_order))
        ]


class Shared:
    """What the e-mails of one delivery batch share, computed once: each game's players, fixed links.

    ``seats_by_game``: every seat of the batch's games, user loaded (``notifications.delivery`` reads them in
    one query). Player names depend on the language (bots are "Bot 1" in the reader's words), so players are
    kept per game and language.
    """

    def __init__(self, seats_by_game: dict[int, list]) -> None:
        self.seats_by_game = seats_by_game
        self._players: dict[tuple[int, str], list[dict]] = {}
        self._links: dict[str, tuple[str, str]] = {}
        self._unsubscribe: dict[int, str] = {}

    def players(self, game) -> list[dict]:
        key = (game.pk, translation.get_language())
        if key not in self._players:
            self._players[key] = _player_dicts(self.seats(game))
        return self._players[key]

    def seats(self, game) -> list:
        """Every seat of ``game`` (user loaded)."""
        if game.pk not in self.seats_by_game:
            from games.models import Seat

            self.seats_by_game[game.pk] = list(Seat.objects.filter(game=game).select_related("user"))
        return self.seats_by_game[game.pk]

    def deadline(self, game, seat_number):
        seat = self.awaited_seat(game, seat_number)
        return seat.deadline_at if seat is not None else None

    def awaited_seat(self, game, seat_number):
        seats = self.seats_by_game.get(game.pk)
        if seats is None:
            return _awaited_seat(game, seat_number)
        return next((s for s in seats if s.number == seat_number and s.awaited), None)

    def links(self) -> tuple[str, str]:
        """(settings URL, away URL) in the active language."""
        language = translation.get_language()
        if language not in self._links:
            self._links[language] = _settings_links()
        return self._links[language]

    def unsubscribe_url(self, user) -> str:
        if user.pk not in self._unsubscribe:
            self._unsubscribe[user.pk] = unsubscribe_url(user)
        return self._unsubscribe[user.pk]


def _settings_links() -> tuple[str, str]:
    return _url("settings", fallback="/settings/"), _url("notifications:away", fallback="/settings/away/")


def _describe(slug: str, event, players, *, viewer: int | None = None) -> str:
    """One of the recipient's log events as an escaped sentence (games.ui), or a neutral one; events about the
    reader's own seat (``viewer``) are told to them as "you"."""
    try:
        from games.ui import describe_event

        return describe_event(slug, event, players, viewer=viewer)
    except Exception:  # noqa: BLE001 - a UI not landed or failing must not stop the e-mail
        logger.warning("cannot describe a %s event for an e-mail", slug, exc_info=True)
        seat = event.get("seat") if isinstance(event, dict) else None
        if isinstance(seat, int) and 0 <= seat < len(players):
            return escape(_("%(player)s made a move.") % {"player": players[seat].get("name") or ""})
        return escape(_("The game moved on."))


def _plain(sentence) -> str:
    return html.unescape(strip_tags(str(sentence)))


def _when(value) -> dt.datetime | None:
    return parse_datetime(value) if isinstance(value, str) else value


class Rendered:
    def __init__(self, subject: str, template: str, context: dict) -> None:
        self.subject, self.template, self.context = subject, template, context


def _events(row, ctx) -> dict:
    """The payload's log events of the reader, as sentences (HTML and plain), the reader's own told as "you"."""
    viewer = row.payload.get("seat_number")
    slug, players = row.game.engine_slug, ctx["players"]
    events = [_describe(slug, event, players, viewer=viewer) for event in row.payload.get("events") or []]
    return {
        "events": [mark_safe(e) for e in events],  # noqa: S308 - describe_event escapes
        "events_text": [_plain(e) for e in events],
        "events_skipped": row.payload.get("events_skipped") or 0,
    }


def _news_name(item: dict, players: list[dict]) -> str:
    """The player a news item is about: by seat (as the game names them now), else the name it was stored with."""
    seat = item.get("seat_number")
    named = next((p.get("name") for p in players if seat is not None and p.get("seat") == seat), None)
    return named or item.get("name") or _("A player")


def render_turn(row, ctx) -> Rendered:
    game, payload = row.game, row.payload
    what = awaited_phrase(game.engine_slug, payload.get("move_types") or [])
    players = ctx["players"]
    news = [platform_event_text(item.get("kind"), _news_name(item, players)) for item in payload.get("news") or []]
    # The button opens the game page at its move form (each game's moves.html: ``<section id="moves">``).
    ctx.update(what=what, news=[n for n in news if n], move_url=ctx["game_url"] + "#moves", **_events(row, ctx))
    ctx.update(_chat_news(row))
    ctx.update(_reply_codes(row))
    return Rendered(_("%(game)s: %(what)s") % {"game": ctx["game_title"], "what": what}, "turn", ctx)


def _chat_news(row, *, game=None) -> dict:
    """What registered apps tell about the game since the reader last looked (together: the new chat)."""
    ctx: dict = {}
    for news in GAME_NEWS:
        ctx.update(news(game=game or row.game, user=row.user))
    return ctx


def _reply_codes(row) -> dict:
    """Moves by e-mail reply (a registered app's, reach.replies): the codes of the legal moves, when it is on."""
    ctx: dict = {}
    for context in MOVE_REPLY_CONTEXT:
        ctx.update(context(row))
    return ctx


def render_started(row, ctx) -> Rendered:
    from games.ui.names import and_list

    payload = row.payload
    game = row.game
    reader = payload.get("seat_number")
    awaited = {seat.number for seat in ctx["seats"] if seat.awaited}
    # Konamon! begins with a secret choice everyone makes at once: nobody "begins", and telling each player both
    # "You begin" and "Bob moves first" contradicted itself (issue 19). A player who does not move first learns
    # who does.
    ctx["simultaneous"] = reader in awaited and len(awaited) > 1
    starters = [p.get("name") for p in ctx["players"] if p.get("seat") in awaited and p.get("seat") != reader]
    ctx["starters"] = and_list(starters) if starters and reader not in awaited else ""
    ctx["starters_count"] = len(starters)
    if game.time_control.is_timed:
        # Every player learns the clock now: the control, and who moves first by when (the reader's own deadline,
        # when they begin, is the e-mail's deadline paragraph).
        from clocks.controls import describe

        ctx["time_control"] = describe(game.time_control)
        seats = {seat.number: seat for seat in ctx["seats"] if seat.awaited and seat.deadline_at is not None}
        ctx["first_movers"] = [
            {"name": player.get("name"), "deadline": seats[player["seat"]].deadline_at}
            for player in ctx["players"]
            if player.get("seat") in seats and player.get("seat") != reader and not ctx["simultaneous"]
        ]
    if payload.get("awaited"):
        what = awaited_phrase(row.game.engine_slug, payload.get("move_types") or [])
        ctx["what"] = what
        ctx.update(_reply_codes(row))
        subject = _("%(game)s has started: %(what)s") % {"game": ctx["game_title"], "what": what}
    else:
        subject = _("%(game)s has started") % {"game": ctx["game_title"]}
    return Rendered(subject, "started", ctx)


def render_finished(row, ctx) -> Rendered:
    game = row.game
    players = ctx["players"]
    by_seat = {p.get("seat"): p for p in players}
    ui = _ui(game.engine_slug)
    ranking = []
    for line in sorted(game.outcome or [], key=lambda item: (item.get("rank", 0), item.get("seat", 0))):
        player = by_seat.get(line.get("seat"), {})
        ranking.append(
            {
                # The seat's place in history (a resigned seat is last, issue 17), else the engine's.
                "rank": player.get("rank") or line.get("rank"),
                "score": line.get("score"),
                # What the number counts, in words: "4 recipes", "23 points".
                "score_text": ui.score_text(line.get("score")) if ui is not None else str(line.get("score")),
                "name": player.get("name") or "",
                "is_you": line.get("seat") == row.payload.get("seat_number"),
                "resigned": bool(player.get("resigned")),
            }
        )
    for line in ranking:
        # The name with its marks, each bracketed phrase one string: 「alice（あなた）」, not "alice (あなた)".
        label = line["name"]
        if line["is_you"]:
            label = _("%(name)s (you)") % {"name": label}
        if line["resigned"]:
            label = _("%(name)s (resigned: counts as last)") % {"name": label}
        line["label"] = label
    ranking.sort(key=lambda line: line["rank"] or 0)  # stable: ties keep the engine's order
    mine = next((line for line in ranking if line["is_you"]), None)
    ctx.update(ranking=ranking, my_rank=mine["rank"] if mine else None, ties=_ties(ranking, ui))
    if mine is not None and mine["rank"] == 1:
        subject = _("%(game)s is over: you won!") % {"game": ctx["game_title"]}
    elif mine is not None:
        from games.templatetags.games_tags import place

        # "2nd of 4", as the end screen says it, not "2 of 4" (issue 19).
        subject = _("%(game)s is over: you placed %(place)s of %(count)s") % {
            "game": ctx["game_title"], "place": place(mine["rank"]), "count": len(ranking)
        }
    else:
        subject = _("%(game)s is over") % {"game": ctx["game_title"]}
    return Rendered(subject, "finished", ctx)


def _ui(slug: str):
    from games.ui import get_ui

    try:
        return get_ui(slug)
    except KeyError:  # a game no longer installed
        return None


def _ties(ranking: list[dict], ui) -> list[str]:
    """A sentence for each score shared by several players (resigned ones aside: they are last anyway): how the
    tie was broken ("… the most topping cards left in hand decides"), or that they share the place."""
    from games.ui.names import and_list

    groups: dict = {}
    for line in ranking:
        if not line["resigned"] and line["score"] is not None:
            groups.setdefault(line["score"], []).append(line)
    sentences = []
    for lines in groups.values():
        if len(lines) < 2:
            continue
        values = {"names": and_list(line["name"] for line in lines), "score": lines[0]["score_text"]}
        rule = getattr(ui, "tie_break", None) if ui is not None else None
        if len({line["rank"] for line in lines}) > 1 and rule:
            values["rule"] = rule
            sentences.append(_("%(names)s tied on %(score)s; the tie is broken by %(rule)s.") % values)
        elif rule:
            values["rule"] = rule
            sentences.append(
                _(
                    "%(names)s tied on %(score)s and are still tied after the tie-break (%(rule)s): "
                    "they share the place."
                )
                % values
            )
        else:
            sentences.append(_("%(names)s tied on %(score)s: they share the place.") % values)
    return sentences


def render_cancelled(row, ctx) -> Rendered:
    return Rendered(_("%(game)s was called off") % {"game": ctx["game_title"]}, "cancelled", ctx)


def render_invitation(row, ctx) -> Rendered:
    inviter = row.payload.get("invited_by") or _("A player")
    ctx["inviter"] = inviter
    subject = _("%(name)s invites you to play %(game)s") % {"name": inviter, "game": row.game.engine_name}
    return Rendered(subject, "invitation", ctx)


def render_reminder(row, ctx) -> Rendered:
    stage = row.payload.get("stage")
    ctx.update(what=awaited_phrase(row.game.engine_slug, row.payload.get("move_types") or []), stage=stage)
    title = ctx["game_title"]
    if stage == DeadlineReminder.Stage.ONE_HOUR:
        subject = _("%(game)s: 1 hour left for your move") % {"game": title}
    elif stage == DeadlineReminder.Stage.FOUR_HOURS:
        subject = _("%(game)s: 4 hours left for your move") % {"game": title}
    else:
        subject = _("%(game)s: half of your time for this move is gone") % {"game": title}
    return Rendered(subject, "reminder", ctx)


def render_timeout(row, ctx) -> Rendered:
    from games.play.services import DROP_OUT_AFTER_TIMEOUTS

    ctx.update(
        dropped_out=row.payload.get("dropped_out"),
        timeouts=row.payload.get("timeouts"),
        drop_out_after=DROP_OUT_AFTER_TIMEOUTS,
        **_events(row, ctx),  # what the bot played for the reader, told to them ("You play No. 16.")
    )
    if row.payload.get("dropped_out"):
        subject = _("%(game)s: a bot has taken over your seat") % {"game": ctx["game_title"]}
    else:
        subject = _("%(game)s: your time ran out, a bot moved for you") % {"game": ctx["game_title"]}
    return Rendered(subject, "timeout", ctx)


def render_digest(row, ctx) -> Rendered:
    from games.models import Game

    items = row.payload.get("games") or []
    games = Game.objects.in_bulk([item["game_id"] for item in items])
    lines = []
    for item in items:
        game = games.get(item["game_id"])
        if game is None:
            continue
        lines.append(
            {
                "title": game_title(game),
                "url": game_url(game),
                "what": awaited_phrase(game.engine_slug, item.get("move_types") or []),
                "since": _when(item.get("awaited_since")),
                "deadline": _when(item.get("deadline_at")),
                **_chat_news(row, game=game),
            }
        )
    ctx["lines"] = lines
    count = len(lines)
    subject = ngettext(
        "%(count)s game awaits your move", "%(count)s games await your move", count
    ) % {"count": count}
    return Rendered(subject, "digest", ctx)


# What other apps add to game e-mails, registered in their ready(): ``GAME_NEWS`` (game, user) -> context (the
# chat that is new, in "your move" e-mails and each line of the digest); ``MOVE_REPLY_CONTEXT`` row -> context
# (the codes for moving by e-mail reply, in "your move" and "the game has started" e-mails).
GAME_NEWS: list = []
MOVE_REPLY_CONTEXT: list = []


def _user_zone(user):
    try:
        return zoneinfo.ZoneInfo(user.time_zone or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def render(row: OutboxEmail, *, shared: Shared | None = None) -> tuple[str, str, str]:
    """(subject, plain text, HTML) of an outbox row, in its recipient's language and time zone.

    ``shared``: what a delivery batch loaded once for all its rows; without it, the row's own queries.
    """
    user = row.user
    shared = shared or Shared({})
    with translation.override(user.language or settings.LANGUAGE_CODE), timezone.override(_user_zone(user)):
        settings_url, away_url = shared.links()
        ctx = {
            "user": user,
            "name": user.public_name,
            "site_url": settings.SITE_URL,
            "unsubscribe_url": shared.unsubscribe_url(user),
            "settings_url": settings_url,
            "away_url": away_url,
            "time_zone": user.time_zone,
        }
        if row.game is not None:
            game = row.game
            players = shared.players(game)
            seat_number = row.payload.get("seat_number")
            ctx.update(
                game=game,
                game_title=game_title(game),
                game_url=game_url(game),
                seats=shared.seats(game),
                players=players,
                others=[p for p in players if seat_number is None or p.get("seat") != seat_number],
                deadline=shared.deadline(game, seat_number) if seat_number is not None else None,
            )
            if ctx["deadline"] is not None:
                # What the reader's clock shows as the e-mail goes out, and their quiet days (clocks).
                ctx.update(clock_context(shared.awaited_seat(game, seat_number), now=timezone.now()))
        renderer = get_kind(row.kind).render_email
        if renderer is None:  # a kind nobody registered (notifications.outbox.register_kind)
            raise LookupError(f"no e-mail renderer is registered for the message kind {row.kind!r}")
        rendered = renderer(row, ctx)
        ctx["subject"] = rendered.subject
        text = re.sub(r"\n{3,}", "\n\n", render_to_string(f"notifications/email/{rendered.template}.txt", ctx))
        html_body = render_to_string(f"notifications/email/{rendered.template}.html", ctx)
    return rendered.subject, text, html_body


def _awaited_seat(game, seat_number):
    if seat_number is None:
        return None
    from games.models import Seat

    return Seat.objects.filter(game=game, number=seat_number, awaited=True).select_related("user").first()


class UnfoldedHeader(str):
    """A header written on one line as it is (up to RFC 5322's 998 characters).

    Python folds a long header without spaces into RFC 2047 encoded words,
    which turns ``List-Unsubscribe: <https://...>`` into something mail
    clients no longer recognise as a URL. The email package keeps a value
    that has a ``name`` and folds itself.
    """

    def __new__(cls, name: str, value: str):
        obj = super().__new__(cls, value)
        obj.name = name
        return obj

    def fold(self, *, policy) -> str:
        return f"{self.name}: {self}{policy.linesep}"


class MemoisingPolicy(email.policy.EmailPolicy):
    """The e-mail policy it is made from, remembering the headers it parsed and folded.

    Building a message with the ``email`` package parses every header it sets
    and refolds every header it writes, which costs more CPU than rendering
    the e-mail's templates; most headers repeat from one notification to the
    next (From, List-Id, the MIME headers of the parts, a game's subject and
    thread). Header objects are immutable and the result depends only on the
    name, the value and the policy, so a repeat is served from memory.
    """

    MAX_REMEMBERED = 4096

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._forget()

    def clone(self, **kw):
        if all(getattr(self, name) == value for name, value in kw.items()):
            return self  # policies are immutable: the generator clones each part's with the same line separator
        clone = super().clone(**kw)
        clone._forget()  # another line length or separator folds differently
        return clone

    def _forget(self) -> None:
        object.__setattr__(self, "_parsed", {})
        object.__setattr__(self, "_folded", {})
        object.__setattr__(self, "_max_counts", {})

    def header_store_parse(self, name, value):
        if type(value) is not str:
            return super().header_store_parse(name, value)
        key = (name, value)
        parsed = self._parsed.get(key)
        if parsed is None:
            parsed = self._remember(self._parsed, key, super().header_store_parse(name, value))
        return parsed

    def header_max_count(self, name):
        # The registry builds a new class for every lookup; the answer depends on the name alone.
        key = name.lower()
        if key not in self._max_counts:
            self._max_counts[key] = super().header_max_count(name)
        return self._max_counts[key]

    def _fold(self, name, value, refold_binary=False):
        if not isinstance(value, BaseHeader):
            return super()._fold(name, value, refold_binary=refold_binary)
        # By identity: a header object remembered above, folded before (it holds on to it, so the id stays its own).
        key = (id(value), name, refold_binary)
        remembered = self._folded.get(key)
        if remembered is None or remembered[0] is not value:
            remembered = self._remember(
                self._folded, key, (value, super()._fold(name, value, refold_binary=refold_binary))
            )
        return remembered[1]

    def _remember(self, memory: dict, key, value):
        if len(memory) >= self.MAX_REMEMBERED:
            memory.clear()
        memory[key] = value
        return value


# The policies Django's mail backends use (the SMTP backend: email.policy.SMTP), each with its memoising twin.
_MEMOISING = {policy: MemoisingPolicy(**vars(policy)) for policy in (email.policy.SMTP, email.policy.default)}


class NotificationMessage(EmailMultiAlternatives):
    UNFOLDED = ("List-Unsubscribe",)

    def message(self, *, policy=email.policy.default):
        policy = _MEMOISING.get(policy, policy)
        msg = super().message(policy=policy)
        for name in self.UNFOLDED:
            value = msg.get(name)
            if value is not None and str(value).isascii() and len(name) + len(str(value)) < 990:
                del msg[name]
                msg[name] = UnfoldedHeader(name, str(value))
        return msg


def build_message(row: OutboxEmail, *, shared: Shared | None = None) -> EmailMultiAlternatives:
    builder = get_kind(row.kind).build_email
    if builder is not None:  # rendered elsewhere (account mail: allauth's)
        return builder(row)
    shared = shared or Shared({})
    subject, text, html_body = render(row, shared=shared)
    link = shared.unsubscribe_url(row.user)
    headers = {
        "Message-ID": row.message_id,
        "List-Unsubscribe": f"<{link}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "List-Id": f"{LIST_ID} <notifications.{_list_domain()}>",
        "Auto-Submitted": "auto-generated",
        "X-Auto-Response-Suppress": "All",
    }
    if row.game_id is not None:
        root = game_thread_id(row.game_id)
        headers["In-Reply-To"] = root
        headers["References"] = root
    message = NotificationMessage(
        subject=" ".join(subject.split()),  # never a line break in a header
        body=text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.user.email],
        headers=headers,
    )
    message.attach_alternative(html_body, "text/html")
    if getattr(row, "reply_address", None):  # set while rendering a "your move" e-mail with move codes
        message.reply_to = [row.reply_address]
    return message


def _list_domain() -> str:
    from notifications.outbox import mail_domain

    return mail_domain()
