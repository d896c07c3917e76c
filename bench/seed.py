"""Seeding the benchmark database: users, their sessions, games (through the services), histories (bulk).

Runs inside the runner's Django process (bench.settings, the bench database).
Users get an unusable password and a session made on the server, the same
cookie a login through the form would give (logging 600 users in through
allauth would mostly measure PBKDF2 and trip its per-IP rate limit).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone
from django.utils.crypto import get_random_string

from games.engines import engine_slugs


def make_users(prefix: str, count: int, *, languages: tuple[str, ...] = ("en",), email: bool = True) -> list:
    """``count`` users named ``<prefix><n>``, their languages taken in turn from ``languages``."""
    from accounts.models import User

    users = []
    for index in range(count):
        user = User(username=f"{prefix}{index}", email=f"{prefix}{index}@example.com" if email else "",
                    language=languages[index % len(languages)], display_name=f"{prefix.title()} {index}")
        user.set_unusable_password()
        users.append(user)
    User.objects.bulk_create(users, batch_size=2000)
    return list(User.objects.filter(username__startswith=prefix).order_by("id"))


def cookies_for(user) -> dict[str, str]:
    """A logged-in browser's cookies for ``user``: session, CSRF secret, language."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return {"sessionid": session.session_key, "csrftoken": get_random_string(32), "django_language": user.language}


def bench_engines() -> list[str]:
    """The registered games in a fixed order (by slug), not the installed apps' order: which game the
    1-player closed loop plays (Konamon!'s 2-seat game, ~270 moves) must not change when apps are reordered,
    or runs stop being comparable (after issue 13 it played Mamma Mia! instead, ~15 % more CPU per move)."""
    return sorted(engine_slugs())


def two_seat_game(slug: str, first, second):
    """A two-seat game of ``slug`` started through the services: created by ``first``, joined by ``second``."""
    from games.lobby import services as lobby_services

    game = lobby_services.create_game(user=first, engine_slug=slug, players=2)
    lobby_services.join_game(user=second, game_id=game.pk)
    return game


def http_pool(name: str, games: int, *, offset: int = 0) -> list[dict]:
    """``games`` started two-seat games (the games in turn), each with its two users' cookies."""
    engines = bench_engines()
    users = make_users(f"{name}_", 2 * games)
    pool = []
    for index in range(games):
        first, second = users[2 * index], users[2 * index + 1]
        game = two_seat_game(engines[(index + offset) % len(engines)], first, second)
        pool.append({"game": game.pk, "engine": game.engine_slug,
                     "users": [{"cookies": cookies_for(first), "id": first.pk},
                           {"cookies": cookies_for(second), "id": second.pk}]})
    return pool


def http_pools(plan: list[tuple[str, int, int]]) -> dict[str, list[dict]]:
    """The pools of a run, by name: ``(name, games, offset)`` each (the offset picks the first game's engine, so a
    pool seeded again, or in the other tree of ``--before``, plays the same games in turn)."""
    return {name: http_pool(name, games, offset=offset) for name, games, offset in plan}


# Histories (bulk: thousands of finished games in seconds) ----------------------------------


def finished_history(user, count: int, opponents: list) -> None:
    """``count`` finished games for ``user`` (2-4 seats, opponents from the list), newest last."""
    engines = bench_engines()
    from games.models import Game, GameStatus, Seat, seat_colours
    from games.play import services as play_services

    now = timezone.now()
    cycle = itertools.cycle(opponents)
    games, seat_specs = [], []
    for index in range(count):
        slug = engines[index % len(engines)]
        players = 2 + index % 3
        finished = now - dt.timedelta(minutes=10 * (count - index))
        outcome = [{"seat": s, "rank": s + 1, "score": 10 - s} for s in range(players)]
        games.append(
            Game(engine_slug=slug, players=players, status=GameStatus.FINISHED, version=80 + index % 50,
                 seed_sha256=hashlib.sha256(str(index).encode()).hexdigest(), revealed_seed=str(index),
                 created_by=user, started_at=finished - dt.timedelta(days=2), finished_at=finished,
                 outcome=outcome, options={})
        )
        mine = index % players
        seat_specs.append([(user if s == mine else next(cycle), s) for s in range(players)])
    created = []
    for start in range(0, len(games), 2000):
        created += Game.objects.bulk_create(games[start : start + 2000])
    seats = []
    for game, specs in zip(created, seat_specs, strict=True):
        colours = seat_colours(game.engine_slug, game.players)
        for seat_user, number in specs:
            seats.append(Seat(game=game, number=number, join_order=number, user=seat_user, colour=colours[number],
                              final_rank=number + 1, final_score=10 - number, finished_at=game.finished_at))
    Seat.objects.bulk_create(seats, batch_size=5000)
    # The counters games.play.services._finish keeps, added the same way (one upsert per game kind).
    for slug in engine_slugs():
        play_services.record_finished_seats(engine_slug=slug, seats=[s for s in seats if s.game.engine_slug == slug])


# The fan-out: active games whose seats await their players ----------------------------------


def awaited_seats(count: int, *, languages: tuple[str, ...] = ("en",)) -> list:
    """``count`` human seats awaited in active two-seat Konamon! games (both seats choose at once)."""
    from games.models import Game, GameStatus, Seat, seat_colours

    users = make_users("fan_", count, languages=languages)
    now = timezone.now()
    games = Game.objects.bulk_create(
        [
            Game(engine_slug="konamon", players=2, status=GameStatus.ACTIVE, version=12,
                 seed_sha256=hashlib.sha256(f"fan{index}".encode()).hexdigest(), created_by=users[2 * index],
                 started_at=now, options={})
            for index in range((count + 1) // 2)
        ],
        batch_size=2000,
    )
    colours = seat_colours("konamon", 2)
    seats = [
        Seat(game=games[index // 2], number=index % 2, join_order=index % 2, user=user, colour=colours[index % 2],
             awaited=True, awaited_since=now)
        for index, user in enumerate(users)
    ]
    Seat.objects.bulk_create(seats, batch_size=5000)
    return list(Seat.objects.filter(user__username__startswith="fan_").select_related("user", "game").order_by("id"))
