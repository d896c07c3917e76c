"""Moves by e-mail reply: short codes in "your move" e-mails, a signed reply address per recipient, and
the handling of what comes back.

The reply address ``move+<game>-<seat>-<version>-<mac>@INBOUND_MAIL_DOMAIN`` is the only credential:
``<mac>`` is an HMAC (key derived from SECRET_KEY) over the game, seat, version and the seat's user, so
it cannot be forged, names one seat, and stops working when the seat changes hands. The version is the
one the codes were listed at: the platform refuses the move as stale when the seat's legal moves have
changed since (``check_play_move``), so a token replayed after its move, or for a game that moved on,
changes nothing. A used token is also remembered (``UsedReplyToken``) so a second reply is told so.

What we send back (``move_reply`` e-mails through the outbox) goes to the seat's registered address,
never to the message's From (which anyone can write): no backscatter, nothing learnt by a forger.
Messages that look automatic (``Auto-Submitted``, bounces, ``Precedence: bulk/junk/list``, our own
loop marker) are dropped without an answer.
"""

from __future__ import annotations

import base64
import datetime as dt
import email
import email.policy
import hashlib
import hmac
import logging
import re
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games.exceptions import GameError, StaleVersion
from games.models import Seat, SeatView
from notifications.outbox import Draft, queue
from reach.mailtext import html_text
from reach.models import UsedReplyToken

logger = logging.getLogger(__name__)

MAX_CODES = 30  # more legal moves than this: the e-mail says to use the site
MOVE_REPLY = "move_reply"
LOOP_HEADER = "X-Mammamia-Loop"
# Numbers in their canonical form only (no leading zeros): "-02-" would carry the same numbers, hence pass the
# MAC, under another spelling, and so slip past the "used" mark, which remembers the token as written.
TOKEN_RE = re.compile(r"move\+(0|[1-9]\d{0,11})-(0|[1-9]\d{0,2})-(0|[1-9]\d{0,11})-([a-z2-7]{24})@",
                      re.IGNORECASE)


def enabled() -> bool:
    return bool(settings.INBOUND_MAIL_DOMAIN)


def _mac(game_id: int, seat_number: int, version: int, user_id: int) -> str:
    key = hashlib.sha256(f"mammamia.reply-address:{settings.SECRET_KEY}".encode()).digest()
    digest = hmac.new(key, f"{game_id}.{seat_number}.{version}.{user_id}".encode(), hashlib.sha256).digest()
    return base64.b32encode(digest[:15]).decode().lower()  # 24 characters, 120 bits


def reply_address(*, game_id: int, seat_number: int, version: int, user_id: int) -> str:
    token = f"{game_id}-{seat_number}-{version}-{_mac(game_id, seat_number, version, user_id)}"
    return f"move+{token}@{settings.INBOUND_MAIL_DOMAIN}"


# --- The codes -----------------------------------------------------------------------------------------------

def move_labels(*, game, view: dict, legal_moves: list) -> list[str]:
    """The legal moves as the game names them on its page (its folder's ``ui``), in the active language,
    from ``view``: the seat's own view (its ``SeatView``, i.e. the engine's view for that seat; need to
    know), so a label names only what the seat may see."""
    from games.ui import get_ui
    from games.ui.base import generic_move_label

    try:
        ui = get_ui(game.engine_slug)
    except KeyError:  # a game no longer installed
        return [generic_move_label(move) for move in legal_moves]
    return ui.move_labels(view=view or {}, legal_moves=legal_moves)


TEXT_WIDTH = 66  # columns of a line of codes in the plain-text part (a phone shows about this many)


@dataclass
class Codes:
    address: str | None
    codes: list[tuple[str, str]]  # (code, label)
    too_many: bool

    @property
    def lines(self) -> list[str]:
        """The codes as ``12 = Play No. 3``, as many to a line as fit in ``TEXT_WIDTH`` columns (a CJK character
        takes two), for the plain-text part: the list stays short, the labels whole."""
        lines, line, used = [], [], 0
        for code, label in self.codes:
            item = f"{code} = {label}"
            width = _columns(item)
            if line and used + 3 + width > TEXT_WIDTH:
                lines.append("   ".join(line))
                line, used = [], 0
            used += width + (3 if line else 0)
            line.append(item)
        if line:
            lines.append("   ".join(line))
        return lines


def _columns(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def codes_for(*, game, seat_number: int, user_id: int) -> Codes | None:
    """The codes and reply address for a seat awaited now, or None (not awaited, or inbound mail off)."""
    if not enabled():
        return None
    row = SeatView.objects.filter(game=game, seat_number=seat_number).only("legal_moves", "view").first()
    legal = row.legal_moves if row is not None else []
    if not legal:
        return None
    address = reply_address(game_id=game.pk, seat_number=seat_number, version=game.version, user_id=user_id)
    if len(legal) > MAX_CODES:
        return Codes(None, [], True)
    labels = move_labels(game=game, view=row.view, legal_moves=legal)
    return Codes(address, [(str(n), label) for n, label in enumerate(labels, start=1)], False)


def email_context(row) -> dict:
    """What the turn e-mail template and headers need: ``move_codes`` (a ``Codes``) or nothing."""
    seat_number = (row.payload or {}).get("seat_number")
    if row.game is None or seat_number is None:
        return {}
    ctx = {}
    if row.kind == "turn" and enabled():
        ctx["confirmed"] = folded_confirmations(row)  # moves played by reply, told here rather than on their own
    codes = codes_for(game=row.game, seat_number=seat_number, user_id=row.user_id)
    if codes is None:
        return ctx
    row.reply_address = codes.address  # notifications.emails.build_message makes it the Reply-To
    return {**ctx, "move_codes": codes}


# --- Reading a reply -----------------------------------------------------------------------------------------

QUOTE_START = re.compile(r"^(>|On .+ wrote:|Le .+ a écrit|-----Original Message-----|-- ?$|From: |_{5,})")


def first_line(message: email.message.EmailMessage) -> str | None:
    """The first line the sender wrote: quoted text, reply headers and signatures are not theirs."""
    part = message.get_body(preferencelist=("plain", "html"))
    if part is None:
        return None
    try:
        text = part.get_content()
    except (LookupError, ValueError):
        return None
    # NUL is no character anyone writes, and PostgreSQL stores none (the answer's JSON would be refused and
    # the listener would say 451 forever): gone before anything is read.
    text = text.replace("\x00", "")
    if part.get_content_type() == "text/html":
        text = html_text(text)  # a real parser, in bounded time (reach.mailtext)
    for line in text.splitlines():
        line = line[:1000].strip().lstrip("\ufeff")  # what is matched below stays short
        if not line:
            continue
        if QUOTE_START.match(line):
            return None
        return line[:200]
    return None


def parse_code(line: str | None) -> int | None:
    match = re.match(r"^\s*(?:#|code\s*)?(\d{1,3})\b", line or "", re.IGNORECASE)
    return int(match.group(1)) if match else None


def is_automatic(message, *, mail_from: str | None) -> bool:
    """Bounces, auto-replies, mailing lists and our own messages coming back."""
    if mail_from is not None and mail_from.strip("<> ") == "":
        return True  # null sender: a bounce or another automatic notice (RFC 5321)
    auto = (message.get("Auto-Submitted") or "no").strip().lower()
    if auto != "no":
        return True
    if (message.get("Precedence") or "").strip().lower() in ("bulk", "junk", "list", "auto_reply"):
        return True
    if any(message.get(name) for name in ("X-Autoreply", "X-Autorespond", "List-Id", LOOP_HEADER)):
        return True
    if message.get_content_type() == "multipart/report":
        return True
    sender = (message.get("From") or "").lower()
    return any(word in sender for word in ("mailer-daemon@", "postmaster@"))


@dataclass
class Result:
    outcome: str  # played, stale, illegal, unreadable, not_listed, used, ignored
    detail: str = ""


def handle(raw: bytes, *, recipients: list[str] | None = None, mail_from: str | None = None) -> Result:
    """Handle one inbound message (from the SMTP/LMTP listener or stdin). Never raises on bad input."""
    try:
        message = email.message_from_bytes(raw, policy=email.policy.default)
    except Exception:  # noqa: BLE001 - unreadable at all: nothing to do
        return Result("ignored", "unparseable")
    if is_automatic(message, mail_from=mail_from):
        return Result("ignored", "automatic")
    candidates = list(recipients or []) + [str(message.get(h) or "") for h in ("Delivered-To", "To", "Cc")]
    match = next((m for m in (TOKEN_RE.search(c) for c in candidates) if m), None)
    if match is None:
        return Result("ignored", "no reply address")
    game_id, seat_number, version = (int(match.group(i)) for i in (1, 2, 3))
    seat = Seat.objects.filter(game_id=game_id, number=seat_number).select_related("user", "game").first()
    if seat is None or seat.user_id is None or not hmac.compare_digest(
        match.group(4).lower(), _mac(game_id, seat_number, version, seat.user_id)
    ):
        logger.info("inbound mail with a forged or outdated reply address for game %s ignored", game_id)
        return Result("ignored", "bad token")
    token = f"move+{game_id}-{seat_number}-{version}-{match.group(4).lower()}@"  # one spelling per address
    # The answer's words (the move played, why it is not possible) in the player's language.
    with translation.override(seat.user.language or settings.LANGUAGE_CODE):
        return _play(seat=seat, version=version, token=token, line=first_line(message))


def _play(*, seat, version: int, token: str, line: str | None) -> Result:
    from games.play import services

    user, game = seat.user, seat.game
    if UsedReplyToken.objects.filter(token=token).exists():
        return _answer(seat, Result("used"))
    code = parse_code(line)
    if code is None:
        return _answer(seat, Result("unreadable", line or ""))
    # The seat's moves as they stand (if the game moved on since the e-mail, the move is refused as stale
    # and this goes unused): the label of the move played is its game's, from the view it was chosen in.
    before = SeatView.objects.filter(game=game, seat_number=seat.number).only("view", "legal_moves").first()

    def pick(game, legal_moves):
        if not 1 <= code <= len(legal_moves) or len(legal_moves) > MAX_CODES:
            raise _NoSuchCode()
        return legal_moves[code - 1]

    key = uuid.uuid5(uuid.NAMESPACE_URL, f"{token}#{code}")
    try:
        with transaction.atomic():
            UsedReplyToken.objects.create(token=token)
            result = services.check_play_move(user=user, game_id=game.pk, move=pick, expected_version=version,
                                              idempotency_key=str(key))
    except IntegrityError:
        return _answer(seat, Result("used"))
    except _NoSuchCode:
        return _answer(seat, Result("not_listed", str(code)))  # a number, but none of the e-mail's codes
    except StaleVersion:
        return _answer(seat, Result("stale"))
    except GameError as exc:
        return _answer(seat, Result("illegal", exc.message))
    if result.replayed:
        return _answer(seat, Result("used"))
    return _answer(seat, Result("played", _played_label(game, before, result.move.move if result.move else None)))


def _played_label(game, before, move) -> str:
    from games.ui.base import find_legal, generic_move_label

    if move is None:
        return ""
    if before is not None:
        labels = move_labels(game=game, view=before.view, legal_moves=before.legal_moves)
        for candidate, label in zip(before.legal_moves, labels, strict=True):
            if find_legal(move, [candidate]) is not None:
                return label
    return generic_move_label(move)


class _NoSuchCode(Exception):
    pass


def _answer(seat, result: Result) -> Result:
    """Queue the reply e-mail to the seat's own address (the move, if any, has committed)."""
    user = seat.user
    if user.is_active and user.email:
        now = timezone.now()
        stamp = int(now.timestamp() * 1_000_000)
        payload = {"seat_number": seat.number, "outcome": result.outcome, "detail": result.detail[:300]}
        hold = dt.timedelta(seconds=settings.TURN_NOTIFY_HOLD_SECONDS)
        not_before = None
        if result.outcome == "played" and hold:
            # "Your move is played" folds into the next e-mail of this game the player gets within the hold (their
            # next "your move"); it goes on its own only if none follows (``confirmation_folded``).
            payload["held"], not_before = True, now + hold
        queue([Draft(user, MOVE_REPLY, f"move_reply:{seat.game_id}:{seat.number}:{stamp}", seat.game, payload,
                     not_before=not_before)])
    return result


FOLDED = "folded into the next e-mail"


def confirmation_folded(row, *, quiet: bool = True) -> str | None:
    """At delivery of a held "your move is played": drop it if a later e-mail of this game to the same player
    is there to carry it (a "your move" written since; ``email_context`` tells it there)."""
    from notifications.models import OutboxEmail

    if row.payload.get("outcome") != "played" or not row.payload.get("held"):
        return None
    later = OutboxEmail.objects.filter(
        user_id=row.user_id, game_id=row.game_id, kind=OutboxEmail.Kind.TURN, created_at__gte=row.created_at,
        status__in=(OutboxEmail.Status.PENDING, OutboxEmail.Status.SENT),
    )
    return FOLDED if later.exists() else None


def folded_confirmations(row) -> list[str]:
    """The moves played by e-mail reply whose confirmation this "your move" e-mail carries: those confirmed by
    no e-mail of their own since the player's previous "your move" e-mail of this game."""
    from notifications.models import OutboxEmail

    previous = OutboxEmail.objects.filter(
        user_id=row.user_id, game_id=row.game_id, kind=OutboxEmail.Kind.TURN, created_at__lt=row.created_at,
    ).order_by("-created_at").values_list("created_at", flat=True).first()
    replies = OutboxEmail.objects.filter(
        user_id=row.user_id, game_id=row.game_id, kind=MOVE_REPLY, payload__outcome="played",
        payload__held=True, created_at__lte=row.created_at,
    ).exclude(status=OutboxEmail.Status.SENT)
    if previous is not None:
        replies = replies.filter(created_at__gt=previous)
    return [detail for detail in replies.order_by("created_at").values_list("payload__detail", flat=True) if detail]


def render_move_reply(row, ctx):
    """The reply e-mail: what happened, and the codes of the moves awaited now (with a fresh address)."""
    from notifications.emails import Rendered

    outcome = row.payload.get("outcome")
    ctx.update(outcome=outcome, detail=row.payload.get("detail", ""))
    ctx.update(email_context(row) if _awaited(row) else {})
    title = ctx.get("game_title", "")
    subjects = {
        "played": _("%(game)s: your move is played") % {"game": title},
        "stale": _("%(game)s: the game has moved on") % {"game": title},
        "illegal": _("%(game)s: that move is not possible") % {"game": title},
        "unreadable": _("%(game)s: we could not read your move") % {"game": title},
        "not_listed": _("%(game)s: that is not one of the listed moves") % {"game": title},
        "used": _("%(game)s: that reply was used already") % {"game": title},
    }
    return Rendered(subjects.get(outcome, title), "move_reply", ctx)


def _awaited(row) -> bool:
    number = row.payload.get("seat_number")
    return Seat.objects.filter(game_id=row.game_id, number=number, user_id=row.user_id, awaited=True,
                               is_bot=False).exists()
