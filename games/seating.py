"""Which player sits where: drawn from the seed, pure (no Django), so that a tutorial script
(``games.tutorial_script``) can tell its player's seat without a database."""

from __future__ import annotations

import hashlib
import random


def seat_order(seed: int | str, players: int) -> list[int]:
    """Which join position sits in which seat: ``order[seat] = join position``, drawn from the seed."""
    digest = hashlib.sha256(f"{int(seed)}:seats".encode()).digest()
    order = list(range(players))
    random.Random(int.from_bytes(digest[:16], "big")).shuffle(order)
    return order
