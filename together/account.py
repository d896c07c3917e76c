"""What a person wrote at the tables, in their own data (``trust.account``'s export): their private notes and
their chat messages, never anyone else's. (Deleting the account clears both: ``trust.erasure``.)"""

from __future__ import annotations

from typing import Any

from together.models import ChatMessage, SeatCorner


def _iso(value) -> str | None:
    return value.isoformat() if value is not None else None


def export_table_words(user) -> dict[str, Any]:
    return {
        "notes": [
            {"game": corner.seat.game_id, "note": corner.note, "updated_at": _iso(corner.note_updated_at)}
            for corner in SeatCorner.objects.filter(seat__user=user).exclude(note="")
            .select_related("seat").order_by("seat__game_id")
        ],
        "chat_messages": [
            {
                "game": message.game_id,
                "text": message.text,
                "written_at": _iso(message.created_at),
                "removed_by_a_moderator": message.is_removed,
            }
            for message in ChatMessage.objects.filter(author=user).order_by("created_at", "pk")
        ],
    }
