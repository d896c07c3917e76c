"""A test-only channel: the whole of what a new way out for messages needs (registered by the test that uses it).

It keeps its "rows" in memory (a real channel writes them in the caller's transaction, as ``reach.fanout`` does)
and delivers a row by asking its kind whether it is still worth sending, then writing it down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from notifications.outbox import obsolete_reason_of


@dataclass
class Row:
    id: int
    user: Any
    kind: str
    key: str
    game: Any
    payload: dict = field(default_factory=dict)
    status: str = "pending"
    last_error: str = ""

    @property
    def user_id(self):
        return self.user.pk

    @property
    def game_id(self):
        return self.game.pk if self.game is not None else None


class LogbookChannel:
    name = "logbook"
    quiet = True  # for people: "your move" reaches it under the quiet rules

    def __init__(self) -> None:
        self.rows: dict[int, Row] = {}
        self.delivered: list[Row] = []

    def queue(self, messages) -> list[int]:
        ids = []
        for message in messages:
            if any(row.key == message.key for row in self.rows.values()):
                continue  # one logical message, one row
            row = Row(len(self.rows) + 1, message.user, str(message.kind), message.key, message.game,
                      dict(message.payload))
            self.rows[row.id] = row
            ids.append(row.id)
        return ids

    def deliver(self, ids: list[int]) -> dict:
        outcomes = {}
        for pk in ids:
            row = self.rows[pk]
            if row.status != "pending":
                outcomes[pk] = "skipped"
                continue
            reason = obsolete_reason_of(row, quiet=self.quiet)
            row.status, row.last_error = ("dropped", reason) if reason else ("sent", "")
            if not reason:
                self.delivered.append(row)
            outcomes[pk] = row.status
        return outcomes

    def sweep(self) -> dict:
        return self.deliver([pk for pk, row in self.rows.items() if row.status == "pending"])
