"""Sealed choices: a commitment to a secret the log shows at once, the salt that opens it at the reveal.

Pure and deterministic like the engines that use it (no I/O, no clock, no global randomness).

    salt       = HMAC-SHA-256(key = the game's seed in decimal digits,
                              message = "mammamia salt:" + label)      as hex, first 32 digits
    commitment = SHA-256(salt + ":" + the choice as canonical JSON)     as hex

where the canonical JSON is ``json.dumps(choice, sort_keys=True, separators=(",", ":"))`` and ``label``
names the choice uniquely within the game (``"konamon:3:1"``: round 3, seat 1).

Why a salt derived from the seed rather than one drawn at random when the choice is made: the seed is fixed
before the first move (the site's committed secret and every player's contribution, ``games.fairness``), so
every salt is fixed before anyone chooses and nobody, the site included, can pick one afterwards; a replay
recomputes each commitment from the revealed seed and the moves alone, so ``verify_deal`` checks them all with
nothing else stored; and the engines stay pure. The salt is secret while the seed is (an HMAC reveals nothing
of its key), so a commitment to one of a handful of possible choices cannot be opened by trying them all. A
salt drawn at random would hide no more: the site sees every choice anyway, since it runs the game.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any

SALT_PREFIX = "mammamia salt:"


def salt(seed: Any, label: str) -> str:
    """The salt of the choice named ``label`` (32 hex digits, 128 bits), from the game's seed."""
    key = str(int(seed)).encode()
    return hmac.new(key, (SALT_PREFIX + label).encode(), hashlib.sha256).hexdigest()[:32]


def canonical(choice: Any) -> str:
    """The choice as canonical JSON: keys sorted, no spaces."""
    return json.dumps(choice, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def commitment(salt_hex: str, choice: Any) -> str:
    """SHA-256 of the salt, a colon and the canonical choice, as hex."""
    return hashlib.sha256(f"{salt_hex}:{canonical(choice)}".encode()).hexdigest()


def opens(commitment_hex: str, salt_hex: str, choice: Any) -> bool:
    """Whether ``salt_hex`` and ``choice`` open ``commitment_hex``: what anyone checks at the reveal."""
    return hmac.compare_digest(commitment(salt_hex, choice), commitment_hex)


def seal(state: dict, label: str, choice: Any) -> tuple[str, str]:
    """``(commitment, salt)`` of ``choice`` in a game dealt with sealed choices (``state["sealed"]``)."""
    salt_hex = salt(state["seed"], label)
    return commitment(salt_hex, choice), salt_hex
