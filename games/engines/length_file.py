"""The stored length of a game (``length.json`` in its folder): its name and how to read it.

Apart from ``games.engines.length`` (which measures and writes it) so that the site's registry
(``games.registry``) reads the file without importing the engines' entry point it serves: no import circle.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

FILE_NAME = "length.json"


def read(path: Path) -> dict[str, Any] | None:
    """A stored length file, or ``None`` when the game has none (yet)."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
