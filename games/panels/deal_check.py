"""The deal check under the table (``games.panels``): the seed's SHA-256 from the start, the seed itself at the
end. Reads nothing: the game row has both."""

from __future__ import annotations

from games.panels import Panel

panel = Panel(name="games.deal_check", template="games/_deal_check.html", place="below", order=90)
