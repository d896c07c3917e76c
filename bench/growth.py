"""Growth: SQL queries and time per request as games get long and histories big.

Runs in the runner's Django process with Django's test client (the whole
middleware stack, production settings) and ``CaptureQueriesContext``:

- the game page and a move near the start and near the end of the longest game
  (4-player Konamon!, played through the services with each seat's bot move);
- "My games" and the profile page (match history, paginated) of a user with 10
  and a user with 10,000 finished games.

A move is measured inside a transaction that is rolled back, so the same move
can be timed again from the same position (the commit itself and the e-mail
queued after it are not in these figures; the HTTP runs have them).
"""

from __future__ import annotations

import statistics
import time
import uuid

from django.core.cache import cache
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext

from bench import seed


class _Rollback(Exception):
    pass


def _client(user) -> Client:
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    return client


TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO SAVEPOINT")


def _is_control(sql: str) -> bool:
    return sql.lstrip().upper().startswith(TRANSACTION_CONTROL)


def _head(sql: str) -> str:
    """A statement's first words and table: enough to tell the queries apart in the results."""
    words = sql.split()
    if not words:
        return ""
    verb = words[0].upper()
    if verb in ("SELECT", "DELETE"):
        table = _top_level_from(sql)
    elif verb in ("INSERT", "UPDATE"):
        table = words[2] if verb == "INSERT" else words[1]
    else:
        return " ".join(words[:2])
    return f"{verb} {table.strip(chr(34))}"


def _top_level_from(sql: str) -> str:
    """The table after the statement's own FROM, not a subquery's (a column read in a subquery of the seats
    query is no query of its own)."""
    depth, upper = 0, sql.upper()
    for index, char in enumerate(sql):
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0 and upper.startswith(" FROM ", index):
            rest = sql[index + 6 :].split()
            return rest[0].strip('"') if rest else "?"
    return "?"


def _measure(call, repeat: int, before=None) -> dict:
    """Median time and SQL statements of ``call`` (data queries apart from BEGIN/COMMIT/SAVEPOINT);
    ``before``, if given, runs untimed before each call (e.g. emptying a cache)."""
    times, cpu, sql_time, sql_size, queries, control, statuses = [], [], [], [], [], [], set()
    call()  # warm-up
    heads: list[str] = []
    for _ in range(repeat):
        if before is not None:
            before()
        with CaptureQueriesContext(connection) as captured:
            started, cpu_started = time.perf_counter(), time.process_time()
            status = call()
            times.append(time.perf_counter() - started)
            cpu.append(time.process_time() - cpu_started)
        sqls = [q["sql"] for q in captured.captured_queries]
        sql_time.append(sum(float(q["time"]) for q in captured.captured_queries))
        sql_size.append(sum(len(sql) for sql in sqls))
        queries.append(sum(1 for sql in sqls if not _is_control(sql)))
        control.append(sum(1 for sql in sqls if _is_control(sql)))
        heads = [_head(sql) for sql in sqls if not _is_control(sql)]
        statuses.add(status)
    return {
        "queries": max(queries),
        "queries_min": min(queries),
        "transaction_statements": max(control),
        "median_ms": round(1000 * statistics.median(times), 2),
        # The fastest repeat: the least disturbed by other work on a shared machine.
        "min_ms": round(1000 * min(times), 2),
        # This process's CPU only (Django and the engine; PostgreSQL's share is not in it).
        "cpu_ms": round(1000 * statistics.median(cpu), 2),
        # Time spent waiting for PostgreSQL's answers (round trips included).
        "sql_ms": round(1000 * statistics.median(sql_time), 2),
        # Size of the SQL sent (values inlined): what the request writes grows with it.
        "sql_kb": round(statistics.median(sql_size) / 1024, 1),
        "p90_ms": round(1000 * sorted(times)[int(0.9 * (len(times) - 1))], 2),
        "status": sorted(statuses),
        "repeat": repeat,
        "sql": heads,
    }


def _merge(rows: list[dict]) -> dict:
    """Several positions in one row: the most queries, the median of the medians."""
    merged = dict(max(rows, key=lambda r: r["queries"]))
    merged["queries_min"] = min(r["queries_min"] for r in rows)
    merged["median_ms"] = round(statistics.median(r["median_ms"] for r in rows), 2)
    merged["p90_ms"] = round(statistics.median(r["p90_ms"] for r in rows), 2)
    merged["min_ms"] = round(statistics.median(r["min_ms"] for r in rows), 2)
    merged["cpu_ms"] = round(statistics.median(r["cpu_ms"] for r in rows), 2)
    merged["sql_ms"] = round(statistics.median(r["sql_ms"] for r in rows), 2)
    merged["sql_kb"] = round(statistics.median(r["sql_kb"] for r in rows), 1)
    merged["positions"] = [{"queries": r["queries"], "median_ms": r["median_ms"]} for r in rows]
    return merged


def _boards_forgotten(client: Client):
    """Empty the cache (the boards), then put the client's session back in it: a first view of a version
    reads its board's rows, not the session a live site keeps cached."""
    from importlib import import_module

    from django.conf import settings

    def forget() -> None:
        cache.clear()
        key = client.cookies.get(settings.SESSION_COOKIE_NAME)
        if key is not None:
            import_module(settings.SESSION_ENGINE).SessionStore(key.value).load()

    return forget


def _page(client: Client, path: str):
    def call():
        return client.get(path).status_code

    return call


def _move(client: Client, game, seat_number: int):
    """POST the seat's bot move as the player would (the ``move`` field), inside a rolled-back transaction."""
    import json

    from games.models import GameState

    state = GameState.objects.get(game=game).state
    move = game.engine.bot_move(state, seat_number)
    path = f"/games/{game.pk}/move/"

    def call():
        status = None
        try:
            with transaction.atomic():
                response = client.post(
                    path,
                    {"move": json.dumps(move), "version": game.version, "idempotency_key": str(uuid.uuid4())},
                )
                status = response.status_code
                raise _Rollback
        except _Rollback:
            pass
        return status

    return call


def _play_to(game, target_moves: int) -> None:
    """Play the game's bot moves through the services until ``target_moves`` have been made."""
    from games import tables
    from games.models import Game, MadeBy
    from games.play import services as play_services

    while True:
        game = Game.objects.get(pk=game.pk)
        if game.version >= target_moves:
            return
        with transaction.atomic():
            table = tables.lock_table(game.pk)
            awaited = [s for s in table.seats if s.awaited]
            seat = awaited[0]
            move = table.game.engine.bot_move(table.state_row.state, seat.number)
            play_services.do_play_move(table=table, seat=seat, move=move, made_by=MadeBy.PLAYER)


def _length(game) -> int:
    """How many moves this game lasts when every seat plays its bot move (engine only)."""
    from games.models import GameState

    engine = game.engine
    state = GameState.objects.get(game=game).state
    moves = 0
    while not engine.is_over(state):
        seat = engine.waiting_for(state)[0]
        state = engine.play(state, seat, engine.bot_move(state, seat))
        moves += 1
    return moves


def longest_game(repeat: int, log, positions: int = 5) -> dict:
    """Page and move at ``positions`` consecutive positions near the start and near the end of the game."""
    from games.lobby import services as lobby_services
    from games.models import Game

    users = seed.make_users("long_", 4)
    game = lobby_services.create_game(user=users[0], engine_slug="konamon", players=4)
    for user in users[1:]:
        lobby_services.join_game(user=user, game_id=game.pk)
    game = Game.objects.get(pk=game.pk)
    total = _length(game)
    results = {"game": "konamon", "players": 4, "moves_in_game": total}
    for label, first in (("start", 2), ("end", total - 2 - positions)):
        started = time.perf_counter()
        _play_to(game, first)
        log(f"growth: konamon 4p played to move {first} of {total} in {time.perf_counter() - started:.1f} s")
        pages, cold, moves = [], [], []
        for offset in range(positions):
            _play_to(game, first + offset)
            game = Game.objects.get(pk=game.pk)
            seat = game.seats.select_related("user").filter(awaited=True).order_by("number").first()
            client = _client(seat.user)
            pages.append(_measure(_page(client, f"/games/{game.pk}/"), repeat))
            # The first view of a new version (every page of a move's flow): the board not in the cache.
            cold.append(_measure(_page(client, f"/games/{game.pk}/"), repeat, before=_boards_forgotten(client)))
            moves.append(_measure(_move(client, game, seat.number), repeat))
        results[label] = {
            "moves_played": f"{first}-{first + positions - 1}",
            "game_page": _merge(pages),
            "game_page_cold": _merge(cold),
            "move": _merge(moves),
        }
    return results


def histories(repeat: int, log) -> dict:
    opponents = seed.make_users("opp_", 30)
    results = {}
    for label, count in (("10", 10), ("10000", 10_000)):
        (user,) = seed.make_users(f"hist{label}_", 1)
        started = time.perf_counter()
        seed.finished_history(user, count, opponents)
        for slug, opponent in zip(("konamon", "mamma-mia"), opponents, strict=False):
            seed.two_seat_game(slug, user, opponent)  # and two games in progress, as a real player has
        log(f"growth: {count} finished games bulk-inserted in {time.perf_counter() - started:.1f} s")
        client = _client(user)
        results[label] = {
            "finished_games": count,
            "my_games": _measure(_page(client, "/games/"), repeat),
            "profile": _measure(_page(client, f"/u/{user.username}/"), repeat),
            # The history pages by keyset: its "Oldest" link is the last page.
            "profile_last_page": _measure(_page(client, f"/u/{user.username}/?page=oldest"), repeat),
        }
    return results


def bare_request(repeat: int) -> dict:
    """The framework's bare request (``bench/views.py``: a logged-in POST that locks, inserts and updates one
    row) through the same test client: the baseline the pages and the move are counted in."""
    from bench import seed as bench_seed

    (user,) = bench_seed.make_users("bare_", 1)
    client = _client(user)

    def call():
        return client.post("/bench/ceiling/1/").status_code

    return _measure(call, repeat)


def run(repeat: int = 15, log=print, *, with_histories: bool = True) -> dict:
    """``with_histories=False``: the bare request and the game page and move only (the baseline tree of
    ``--before``, whose targets need no history)."""
    found = {"bare_request": bare_request(repeat * 3), "longest_game": longest_game(max(3, repeat // 2), log)}
    if with_histories:
        found["history"] = histories(repeat, log)
    return found
