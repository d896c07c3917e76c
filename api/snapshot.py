"""One snapshot for a response read in several queries.

Under PostgreSQL's default READ COMMITTED each query sees the latest commit, so a game response
read as "the game row and seats" then "my SeatView" could pair version 20 with the view and legal
moves of version 21 when a move commits in between. A REPEATABLE READ, READ ONLY transaction makes
every query of the block see the same snapshot (taken at its first query); nothing is locked.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def snapshot() -> Iterator[None]:
    if connection.in_atomic_block:
        # Already inside a transaction (a caller's, or ATOMIC_REQUESTS): its isolation level was set
        # at its start and cannot change now.
        yield
        return
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
