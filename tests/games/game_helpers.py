"""Helpers of the platform tests (imported by the test modules; fixtures live in conftest.py)."""

from __future__ import annotations

import importlib
import random

import pytest

from games.engines import ENGINE_MODULES


def engine_available(slug: str) -> bool:
    try:
        importlib.import_module(f"games.engines.{ENGINE_MODULES[slug]}")
    except ImportError:
        return False
    return True


def ui_available(slug: str) -> bool:
    try:
        from games.ui import get_ui

        get_ui(slug)
    except (ImportError, KeyError):
        return False
    return True


SLUGS = list(ENGINE_MODULES)


def game_params(*, ui: bool = True):
    """One pytest param per engine, skipped while that engine (or, with ``ui``, its UI) has not landed."""
    return [
        pytest.param(
            slug,
            marks=pytest.mark.skipif(
                not (engine_available(slug) and (not ui or ui_available(slug))),
                reason=f"{slug} engine or UI not landed yet",
            ),
        )
        for slug in SLUGS
    ]


def start_game(
    slug: str, users, *, bots: int = 0, options=None, visibility="public", time_limit_hours=0, time_control=None
):
    """A started game: users[0] creates it, the others join (``time_control``: a clocks.arithmetic.TimeControl)."""
    from games import services

    humans = len(users)
    game = services.create_game(
        user=users[0],
        engine_slug=slug,
        players=humans + bots,
        options=options or {},
        bots=bots,
        visibility=visibility,
        time_limit_hours=time_limit_hours,
        time_control=time_control,
        allow_stacked_deal=True,
    )
    for user in users[1:]:
        if visibility == "private":
            services.join_game(user=user, game_id=game.pk, invite=services.invite_token(game))
        else:
            services.join_game(user=user, game_id=game.pk)
    game.refresh_from_db()
    return game


def awaited_human(game):
    """(seat, SeatView) of an awaited human seat, or (None, None)."""
    from games.models import Seat, SeatView

    seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").order_by("number").first()
    if seat is None:
        return None, None
    return seat, SeatView.objects.get(game=game, seat_number=seat.number)


def pick(rng: random.Random, legal_moves):
    return rng.choice(legal_moves)
