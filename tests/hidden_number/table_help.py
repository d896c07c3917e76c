"""Hidden number's help on the table: the plug-in test game brings its own explanations in one module beside
its engine, as a fourth game of the site would (games/ui/help.py)."""

from __future__ import annotations

from games.ui.base import Move, Players, View
from games.ui.help import Explanation, TableHelp

TEXTS = {
    "marker-secret": Explanation(
        title="Your secret number",
        text="The other player tries to guess it; every wrong guess tells them higher or lower.",
    ),
    "marker-range": Explanation(
        title="Secret numbers", text="Each player holds one number in this range; the first to guess the other's wins."
    ),
}


class HiddenNumberHelp(TableHelp):
    def explain(self, topic: str) -> Explanation | None:
        return TEXTS.get(topic)

    def catalogue(self) -> list[str]:
        return list(TEXTS)

    def markers(self, *, view: View, legal_moves: list[Move], seat: int | None) -> list[str]:
        return ["marker-range", *(["marker-secret"] if view.get("my_number") is not None else [])]

    def what_now(self, *, view: View, legal_moves: list[Move], seat: int | None, players: Players) -> str:
        numbers = sorted(move["number"] for move in legal_moves if move.get("type") == "guess")
        if not numbers:
            return ""
        return f"Guess the other number: it lies between {numbers[0]} and {numbers[-1]}, as your hints so far tell."


table_help = HiddenNumberHelp()
