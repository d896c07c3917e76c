"""The viewer's board on the game page, rendered once per viewer and game version and kept in Django's cache.

The board is everything of the live part under the turn status: players, final ranking, table, move
form and log (``templates/games/_board.html``). It is built only from the viewer's own SeatView row,
the game row and its seats. Every SeatView row is written by ``games.tables`` in the transaction
that sets the game's version (the start, each move), so the game's version stands for the rows'
``view_version``/``moves_version``, and a page served from the cache reads no SeatView at all. The key
(``board_key``) holds:

- the game: its id and the SHA-256 of its seed (a recreated database never meets an older game's
  boards), its version and status;
- the viewer: the seat number, or "spectator" (a spectator's key is never a seat's), and whether the
  seat's move forms are shown (not for a seat the bot plays);
- the players as the page lists them (names, bots, drop-outs, away, to move), by digest;
- the language and the time zone;
- a fingerprint of the code, templates and translations that render it, so a deployment (which is
  also the only way stored views are ever rebuilt) never serves a board of the previous one.

Two seats of one game never share a key: hidden information (a hand, a secret choice) stays with its
seat. A board built from a row newer than the game row it was keyed by (a move committed in between)
is shown but not stored. The board is rendered without the request, so no per-request value can be
cached in it: the move form's CSRF token and idempotency key are random placeholders, stored with the
HTML and replaced in every response.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import SafeString, mark_safe

logger = logging.getLogger(__name__)

BOARD_TEMPLATE = "games/_board.html"
# Boards of past versions are never read again; they only need to outlive a burst of page views.
BOARD_TIMEOUT_SECONDS = 60 * 60

# What renders a board: the games package (views, UIs, engines' data), the templates, the translations.
_FINGERPRINT_SOURCES = (("games", ("*.py", "*.json")), ("templates", ("*.html",)), ("locale", ("*.mo",)))


@dataclass(frozen=True)
class BoardParts:
    """What a page's ``build`` gives on a cache miss: the board's template context, whether the
    viewer has a move to make, and whether the board may be stored under the page's key."""

    context: dict[str, Any]
    my_turn: bool
    cacheable: bool = True


@dataclass(frozen=True)
class Board:
    html: SafeString
    my_turn: bool


@functools.cache
def code_fingerprint() -> str:
    """A digest of the files that render a board (read once per process) and of the static files' manifest."""
    digest = hashlib.blake2b(digest_size=8)
    base = Path(settings.BASE_DIR)
    for folder, patterns in _FINGERPRINT_SOURCES:
        for pattern in patterns:
            for path in sorted((base / folder).rglob(pattern)):
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    from django.contrib.staticfiles.storage import staticfiles_storage

    digest.update(str(getattr(staticfiles_storage, "manifest_hash", "")).encode())
    return digest.hexdigest()


def board_key(*, game, viewer_seat: int | None, players: list[dict[str, Any]], shows_moves: bool) -> str:
    """The cache key of one viewer's board: every input of the board is in it (see the module's docstring)."""
    viewer = "spectator" if viewer_seat is None else f"seat{viewer_seat}"
    inputs = (
        game.seed_sha256,
        game.version,
        game.status,
        viewer,
        shows_moves,
        players,
        translation.get_language(),
        timezone.get_current_timezone_name(),
        code_fingerprint(),
    )
    digest = hashlib.blake2b(repr(inputs).encode(), digest_size=16).hexdigest()
    return f"games:board:{game.pk}:{viewer}:{digest}"


def render_board(*, key: str, build: Callable[[], BoardParts], csrf_token: str, idempotency_key: str) -> Board:
    """The board under ``key`` from the cache, or rendered from ``build()`` (and stored); with this
    response's CSRF token and idempotency key filled in."""
    cached = _cache_get(key)
    if cached is None:
        parts = build()
        # Random per rendering, so no text a player can type (a name) ever looks like one.
        csrf_placeholder, key_placeholder = f"csrf-{secrets.token_hex(16)}", f"key-{secrets.token_hex(16)}"
        context = {**parts.context, "csrf_token": csrf_placeholder, "idempotency_key": key_placeholder}
        cached = (render_to_string(BOARD_TEMPLATE, context), csrf_placeholder, key_placeholder, parts.my_turn)
        if parts.cacheable:
            _cache_set(key, cached)
    html, csrf_placeholder, key_placeholder, my_turn = cached
    filled = html.replace(csrf_placeholder, csrf_token).replace(key_placeholder, idempotency_key)
    # Rendered by the autoescaping template; the two values put in are tokens.
    return Board(html=mark_safe(filled), my_turn=my_turn)  # noqa: S308


def _cache_get(key: str) -> tuple[str, str, str, bool] | None:
    # A cache that is down costs a rendering, never the page.
    try:
        return cache.get(key)
    except Exception:  # noqa: BLE001 - any backend's connection error
        logger.warning("game board cache unavailable (get)", exc_info=True)
        return None


def _cache_set(key: str, value: tuple[str, str, str, bool]) -> None:
    try:
        cache.set(key, value, BOARD_TIMEOUT_SECONDS)
    except Exception:  # noqa: BLE001 - any backend's connection error
        logger.warning("game board cache unavailable (set)", exc_info=True)
