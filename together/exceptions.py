"""Refusals of playing together: the platform's typed errors (translated message, HTTP status)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from games.exceptions import GameError


class RateLimited(GameError):
    code = "rate_limited"
    status = 429

    def default_message(self) -> str:
        return _("You are writing too fast: wait a minute before the next message.")
