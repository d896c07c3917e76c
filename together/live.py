"""How an open game page learns about chat and the other table news of this app.

The game page's live partial compares a token (``games.play.selectors.poll_token``) that holds the game's
``TableActivity.stamp`` next to its version: anything that raises the stamp makes the next poll (or,
with issue 18's server push, the next "game N changed" event) bring the whole live part again, chat
included. Every write of this app that changes what a page shows calls ``table_changed`` inside its
transaction; a chat message arrives through ``chat_arrived``. After commit, ``table_activity`` is sent
once per change: the place to publish a push event from.
"""

from __future__ import annotations

from django.db import connection, transaction
from django.dispatch import Signal

from together.models import ChatMessage, TableActivity

# table_activity(game_id, stamp, reason): sent after the commit of a change ("chat", "resigned",
# "call_off", "rematch", "note" is never sent: a note is the author's alone). Receivers must be quick.
table_activity = Signal()


def table_changed(*, game_id: int, reason: str) -> int:
    """Raise the game's activity stamp (one upsert, inside the caller's transaction); the new stamp."""
    table = TableActivity._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (game_id, stamp) VALUES (%s, 1) "  # noqa: S608 - the model's table name
            f"ON CONFLICT (game_id) DO UPDATE SET stamp = {table}.stamp + 1 RETURNING stamp",
            [game_id],
        )
        (stamp,) = cursor.fetchone()
    transaction.on_commit(
        lambda: table_activity.send(sender=TableActivity, game_id=game_id, stamp=stamp, reason=reason), robust=True
    )
    return stamp


def chat_arrived(message: ChatMessage) -> int:
    """A chat message was stored: every open page of the game must fetch it. The one function where
    chat arrives (issue 18 publishes from ``table_activity``, which this sends after commit)."""
    return table_changed(game_id=message.game_id, reason="chat")
