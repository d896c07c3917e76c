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
from dataclasses import dataclass, field

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
    parts: list[tuple[str, str]] = field(default_factory=list)  # (letter, meaning): "12K" = 12, refill from…
    several: bool = False  # several codes in one reply, played in order (a whole Konamon! card)
    stop: str = ""  # with ``several``: the code that ends the card ("0")
    stop_label: str = ""

    @property
    def lines(self) -> list[str]:
        """The codes as ``12 = Play No. 3``, as many to a line as fit in ``TEXT_WIDTH`` columns (a CJK character
        takes two), for the plain-text part: the list stays short, the labels whole."""
        lines, line, used = [], [], 0
        for code, label in self.all_codes:
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

    @property
    def all_codes(self) -> list[tuple[str, str]]:
        return self.codes + ([(self.stop, self.stop_label)] if self.several and self.stop else [])

    @property
    def parts_line(self) -> str:
        """How to add a letter for a part of the move, with an example from the list ("" when none)."""
        if not self.parts or not self.codes:
            return ""
        letters = ", ".join(f"{letter} = {meaning}" for letter, meaning in self.parts)
        example = f"{self.codes[0][0]}{self.parts[0][0]}"
        return _("After the code, write the letter of your choice (%(letters)s), e.g. %(example)s.") % {
            "letters": letters, "example": example}

    @property
    def several_line(self) -> str:
        """How to write a whole card in one line ("" for a game with one code per reply)."""
        if not self.several or not self.codes:
            return ""
        example = " ".join(code for code, _label in self.codes[:3])
        return _("You may write several steps on that line, in order, separated by spaces (e.g. %(example)s): a "
                 "code of a later step ends the current one early. If one of them cannot be played, none is.") % {
            "example": example}


def _columns(text: str) -> int:
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def reply_menu(*, game, view: dict, legal_moves: list):
    """The seat's reply menu (``games.ui.base.ReplyMenu``) as its game writes it, from its own view."""
    from games.ui import get_ui
    from games.ui.base import GameUI

    try:
        ui = get_ui(game.engine_slug)
    except KeyError:  # a game no longer installed: one number per move, generic labels
        ui = GameUI()
    return ui.reply_menu(view=view or {}, legal_moves=legal_moves)


def codes_for(*, game, seat_number: int, user_id: int) -> Codes | None:
    """The codes and reply address for a seat awaited now, or None (not awaited, or inbound mail off)."""
    if not enabled():
        return None
    row = SeatView.objects.filter(game=game, seat_number=seat_number).only("legal_moves", "view").first()
    legal = row.legal_moves if row is not None else []
    if not legal:
        return None
    address = reply_address(game_id=game.pk, seat_number=seat_number, version=game.version, user_id=user_id)
    menu = reply_menu(game=game, view=row.view, legal_moves=legal)
    if len(menu.options) > MAX_CODES:
        return Codes(None, [], True)
    return Codes(address, [(option.code, option.label) for option in menu.options], False, parts=menu.parts,
                 several=menu.several, stop=menu.stop, stop_label=menu.stop_label)


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


WORD_RE = re.compile(r"#?(\d{1,3})([A-Za-z])?")
MAX_WORDS = 12  # codes in one reply: a Konamon! card has at most 5 steps, two cards 10


def parse_words(line: str | None) -> list[tuple[str, str]] | None:
    """The codes of a reply's first line, each as (number, letter: "" or upper case): "12K", "1 1 5 8", "12 K";
    None unless the whole line is codes (strict: "12 please" is not read as 12)."""
    words: list[tuple[str, str]] = []
    for token in re.split(r"[\s,;.]+", (line or "").strip()):
        if not token:
            continue
        match = WORD_RE.fullmatch(token)
        if match is not None:
            words.append((str(int(match.group(1))), (match.group(2) or "").upper()))
        elif len(token) == 1 and token.isascii() and token.isalpha() and words and not words[-1][1]:
            words[-1] = (words[-1][0], token.upper())  # "12 K": the letter of the code before
        else:
            return None
    return words if 0 < len(words) <= MAX_WORDS else None


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
    from games.ui import get_ui
    from games.ui.base import GameUI

    user, game = seat.user, seat.game
    if UsedReplyToken.objects.filter(token=token).exists():
        return _answer(seat, Result("used"))
    words = parse_words(line)
    if words is None:
        return _answer(seat, Result("unreadable", line or ""))
    # The seat's moves as they stand (if the game moved on since the e-mail, the move is refused as stale and this
    # goes unused): the codes are read in the menu of the e-mail's position, the labels of the moves played are
    # the game's, from the views they were chosen in.
    try:
        ui = get_ui(game.engine_slug)
    except KeyError:
        ui = GameUI()
    before = SeatView.objects.filter(game=game, seat_number=seat.number) \
        .only("view", "legal_moves", "moves_version").first()
    if before is None or not before.legal_moves:
        return _answer(seat, _platform_refusal(user, game, version))
    if version < before.moves_version:
        return _answer(seat, Result("stale"))  # the moves listed in that e-mail are gone
    menu = ui.reply_menu(view=before.view, legal_moves=before.legal_moves)
    try:
        targets = _targets(menu, words)
    except _NoSuchCode as exc:
        return _answer(seat, Result(exc.outcome, exc.detail))
    played: list[str] = []
    try:
        with transaction.atomic():  # every code of the reply, or none
            UsedReplyToken.objects.create(token=token)
            expected = version
            turn = None
            for position, (word, target) in enumerate(targets, start=1):
                if target is not None:
                    turn = None  # a step: within the card current when it comes; "0": the card of the steps before
                for _attempt in range(MAX_WORDS):  # steps ending a process early, then the code's own
                    current = SeatView.objects.filter(game=game, seat_number=seat.number) \
                        .only("view", "legal_moves").first()
                    awaited = Seat.objects.filter(pk=seat.pk, awaited=True, is_bot=False).exists()
                    if turn is None:
                        turn = ui.reply_turn(current.view)
                    step = ui.reply_step(target, view=current.view, legal_moves=current.legal_moves, turn=turn) \
                        if awaited else None
                    if step is None and target is None:
                        break  # "0": the card is over
                    key = uuid.uuid5(uuid.NAMESPACE_URL, f"{token}#{position}#{len(played)}")
                    try:
                        # A code that cannot be played now goes to the platform all the same: it says why (not
                        # your move, the game is over, the engine's reason), and the whole reply is undone.
                        result = services.check_play_move(user=user, game_id=game.pk, move=step or target,
                                                           expected_version=expected, idempotency_key=str(key))
                    except StaleVersion:
                        raise
                    except GameError as exc:
                        if len(targets) == 1:
                            raise
                        raise _StepRefused(position, word, exc.message) from None
                    if result.replayed:
                        raise _Replayed()
                    played.append(_played_label(game, current, result.move.move if result.move else None))
                    expected = result.game.version
                    if target is not None and step == target:
                        break
    except (IntegrityError, _Replayed):
        return _answer(seat, Result("used"))
    except _StepRefused as exc:
        return _answer(seat, Result("illegal", _(
            "code %(code)s (number %(position)s in your reply) cannot be played at that point: %(reason)s So none "
            "of your codes was played.") % {"code": exc.word, "position": exc.position, "reason": exc.reason}))
    except StaleVersion:
        return _answer(seat, Result("stale"))
    except GameError as exc:
        return _answer(seat, Result("illegal", exc.message))
    return _answer(seat, Result("played", "; ".join(label for label in played if label)))


def _platform_refusal(user, game, version: int) -> Result:
    """Why the seat has nothing to play by reply, in the platform's words (the game is over, not your move…)."""
    from games.play import services

    def nothing(game, legal_moves):
        raise _NoSuchCode("illegal", "")

    try:
        services.check_play_move(user=user, game_id=game.pk, move=nothing, expected_version=version)
    except StaleVersion:
        return Result("stale")
    except GameError as exc:
        return Result("illegal", exc.message)
    except _NoSuchCode:
        pass
    return Result("stale")


def _targets(menu, words: list[tuple[str, str]]) -> list[tuple[str, dict | None]]:
    """The move each code of the reply names in ``menu`` (None: the menu's stop), or ``_NoSuchCode``."""
    if len(words) > 1 and not menu.several:
        raise _NoSuchCode("unreadable", " ".join(number + letter for number, letter in words))
    options = {option.code: option for option in menu.options}
    targets = []
    for number, letter in words:
        written = number + letter
        if menu.several and menu.stop and number == menu.stop and not letter:
            targets.append((written, None))
            continue
        option = options.get(number)
        if option is None or len(options) > MAX_CODES:
            raise _NoSuchCode("not_listed", written)
        move = option.moves.get(letter)
        if move is None:
            raise _NoSuchCode("no_part" if not letter else "not_listed", written)
        targets.append((written, move))
    return targets


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
    def __init__(self, outcome: str, detail: str) -> None:
        super().__init__(outcome)
        self.outcome, self.detail = outcome, detail


class _StepRefused(Exception):
    def __init__(self, position: int, word: str, reason: str) -> None:
        super().__init__(word)
        self.position, self.word, self.reason = position, word, reason


class _Replayed(Exception):
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
        "no_part": _("%(game)s: that move needs a letter") % {"game": title},
        "used": _("%(game)s: that reply was used already") % {"game": title},
    }
    return Rendered(subjects.get(outcome, title), "move_reply", ctx)


def _awaited(row) -> bool:
    number = row.payload.get("seat_number")
    return Seat.objects.filter(game_id=row.game_id, number=number, user_id=row.user_id, awaited=True,
                               is_bot=False).exists()
