"""The replay's chat: what the table had written at the step shown."""

from __future__ import annotations

from games.panels import Panel, Table


def select(table: Table) -> dict:
    from together.page import replay_chat

    step = table.extra
    lines = replay_chat(
        access=table, user=table.user, step=step["step"], total=step["total"], last_move=step.get("last_move")
    )
    return {"chat_lines": lines}


panel = Panel(
    name="together.replay_chat",
    template="together/_replay_chat.html",
    place="main",
    order=10,
    pages=frozenset({"replay"}),
    selector=select,
)
