"""A deal nobody has to take on trust (issue 30, docs/fairness.md): the formulas, and the checks from public values.

1. When a game is created the site draws a 128-bit **secret** and publishes its SHA-256 (``Game.seed_sha256``, of
   the secret's decimal digits).
2. Each seat adds a **contribution** when it is taken: 128 bits as 32 lowercase hex digits, drawn by the player's
   page (``crypto.getRandomValues``) or API client; public at once and never changed. A bot's is derived from the
   committed secret (``bot_contribution``), so the site cannot choose it after seeing the players'; a seat whose
   player sent none contributes ``""``.
3. At the start the deal's **seed** is ``joint_seed(secret, contributions in join order)``: HMAC-SHA-256 keyed by
   the secret's decimal digits over ``"mammamia deal v2"`` and each contribution, one per line; the first 16
   bytes as a big-endian integer. The seat order and the whole deal follow from it, as before.
4. Once the game is over the secret is revealed (``Game.revealed_seed``); anyone recomputes the seed, and with the
   engine the deal (``verify``).

Games created before (``DealScheme.SITE``) were dealt from the secret alone; they are checked that way.
The site sees the contributions before the start: it could refuse a join, which the player would see, but it
cannot change a contribution or its own secret. Pure arithmetic at the top (no Django), the checks below.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from typing import Any

DEAL_LABEL = "mammamia deal v2"
BOT_LABEL = "mammamia bot contribution:"
SITE_LABEL = "mammamia site contribution:"
CONTRIBUTION = re.compile(r"[0-9a-f]{32}")


def secret_sha256(secret: int | str) -> str:
    """SHA-256 of the secret's decimal digits: what the game page shows from the creation."""
    return hashlib.sha256(str(int(secret)).encode()).hexdigest()


def joint_seed(secret: int | str, contributions: list[str]) -> int:
    """The deal's 128-bit seed from the site's secret and every seat's contribution, in join order."""
    message = "\n".join([DEAL_LABEL, *contributions]).encode()
    digest = hmac.new(str(int(secret)).encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:16], "big")


def bot_contribution(secret: int | str, join_order: int) -> str:
    """A bot's contribution: fixed by the secret committed at creation, so the site cannot pick it later."""
    key = str(int(secret)).encode()
    return hmac.new(key, f"{BOT_LABEL}{join_order}".encode(), hashlib.sha256).hexdigest()[:32]


def site_contribution(secret: int | str, join_order: int) -> str:
    """What the site contributes for a person's seat that sent none in time (a game whose deal waits, e.g. a
    league's): like a bot's, fixed by the secret committed at creation, so the site cannot pick it at the deadline
    after seeing the others'."""
    key = str(int(secret)).encode()
    return hmac.new(key, f"{SITE_LABEL}{join_order}".encode(), hashlib.sha256).hexdigest()[:32]


def parse_contribution(value: Any, *, required: bool = False) -> str:
    """A contribution as sent (32 hex digits, any case; nothing: ``""`` unless ``required``), normalised;
    ``BadInput`` otherwise."""
    from django.utils.translation import gettext as _

    from games.exceptions import BadInput

    if (value is None or value == "") and not required:
        return ""
    text = value.strip().lower() if isinstance(value, str) else None
    if text is None or not CONTRIBUTION.fullmatch(text):
        raise BadInput(_("A contribution to the deal is 128 bits written as 32 hexadecimal digits."))
    return text


# With Django: the game's rows ---------------------------------------------------------------------------------


def is_joint(game) -> bool:
    from games.models import DealScheme

    return game.deal_scheme == DealScheme.JOINT


def engine_options(game) -> dict[str, Any]:
    """The options the engine is set up with: a joint deal also seals secret choices (``sealing``)."""
    return {**game.options, "sealed": True} if is_joint(game) else dict(game.options)


def contributions_in_join_order(seats) -> list[str]:
    return [seat.contribution for seat in sorted(seats, key=lambda seat: seat.join_order)]


def deal_seed(game, secret: int | str, seats) -> int:
    """The engine's seed: the joint seed, or for games dealt before the secret itself."""
    return joint_seed(secret, contributions_in_join_order(seats)) if is_joint(game) else int(secret)


def bot_seat_contribution(game, join_order: int) -> str:
    """What a bot taking the seat ``join_order`` of ``game`` contributes ("" in games dealt the old way)."""
    from games.models import GameState

    if not is_joint(game):
        return ""
    return bot_contribution(GameState.objects.only("seed").get(game=game).seed, join_order)


def seated_as_bot(seat) -> bool:
    """A bot from its seat's start (whose contribution the site derived), not a player who resigned or dropped
    out and whom a bot replaced."""
    return seat.is_bot and seat.resigned_at is None and not seat.dropped_out


def drawn_by(seat) -> str:
    """Who drew a seat's contribution: ``player``, ``site`` (a bot's, or one the site drew for a person's seat
    whose deal waited: ``Seat.contribution_by_site``), or ``none``."""
    if seated_as_bot(seat) or seat.contribution_by_site:
        return "site"
    return "player" if seat.contribution else "none"


def check_contributions(game, secret: int | str, seats) -> list[str]:
    """What is wrong with the seats' published contributions: a malformed one, or one the site drew (a bot's, or
    a late player's) that is not the one the committed secret gives."""
    if not is_joint(game):
        return []
    problems = []
    for seat in sorted(seats, key=lambda seat: seat.join_order):
        if seat.contribution and not CONTRIBUTION.fullmatch(seat.contribution):
            problems.append(f"the contribution of join position {seat.join_order} is not 32 hex digits")
        if seated_as_bot(seat) and seat.contribution != bot_contribution(secret, seat.join_order):
            problems.append(f"the bot's contribution at join position {seat.join_order} is not the secret's")
        if seat.contribution_by_site and seat.contribution != site_contribution(secret, seat.join_order):
            problems.append(f"the site's contribution at join position {seat.join_order} is not the secret's")
    return problems


def check_sealed(engine, log: list[dict[str, Any]]) -> list[str]:
    """Every commitment the log showed that its reveal opens; an unopened one in a game over is a problem too."""
    from games.engines.sealing import opens

    problems = []
    for entry in engine.sealed_choices(log):
        where = f"round {entry['round']}, seat {entry['seat']}, {entry['kind']}"
        if entry["salt"] is None:
            problems.append(f"the commitment of {where} was never opened")
        elif not opens(entry["commitment"], entry["salt"], entry["choice"]):
            problems.append(f"the commitment of {where} does not match what was revealed")
    return problems
