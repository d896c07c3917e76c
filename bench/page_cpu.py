"""The game page's and the move's Django CPU against the bare request, in one process: a quick, repeatable
harness for issue 33 (``make bench``'s growth part measures the same, with the whole suite around it).

    set -a; . ./.env.helper; set +a   # DATABASE_URL, CACHE_URL (a Redis), ...
    .venv/bin/python -m bench.page_cpu setup            # fresh <db>_pagecpu: migrate, static, a long game
    .venv/bin/python -m bench.page_cpu measure [--repeat 200] [--cprofile page-cold|page|move|bare]

``measure`` prints CPU time (``time.process_time``, this process only: PostgreSQL's and Redis's work are not
in it) per call, median of ``--repeat`` calls after a warm-up, for: the bare request (a logged-in POST that
locks, inserts and updates one row, ``bench/views.py``), the game page of the long 4-player Konamon! game as a
cached view and as the first view of its version (the cache emptied before each call), and a move there
(rolled back each time). Run it from two source trees on the same database to compare them in the same
hour (``bench/notes.md``, "Issue 33, third stop").
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import statistics
import sys
import time
from pathlib import Path

from bench import stack as stack_module


@functools.cache
def _database_url() -> str:
    return stack_module.bench_database_url(os.environ["DATABASE_URL"]).replace("_bench", "_pagecpu")


def _setup_django() -> None:
    work_dir = Path(os.environ.get("MAMMAMIA_VAR_DIR", stack_module.BASE_DIR / "var")) / "pagecpu"
    env = stack_module.production_environment(database_url=_database_url(), email_port=1, work_dir=work_dir)
    # A fixed key, so the sessions of one tree's run are the other's (the same cache, the same database).
    env["SECRET_KEY"] = "page-cpu-harness-" + "x" * 40
    os.environ.update(env)
    import django

    django.setup()


def setup() -> None:
    stack_module.recreate_database(_database_url())
    _setup_django()
    from django.core.management import call_command

    from bench import ceilings, growth, seed
    from games.lobby import services as lobby_services
    from games.models import Game

    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    ceilings.create_tables(_database_url())
    seed.make_users("bare_", 1)
    users = seed.make_users("long_", 4)
    game = lobby_services.create_game(user=users[0], engine_slug="konamon", players=4)
    for user in users[1:]:
        lobby_services.join_game(user=user, game_id=game.pk)
    game = Game.objects.get(pk=game.pk)
    total = growth._length(game)
    growth._play_to(game, total - 5)
    print(f"game {game.pk}: played to move {total - 5} of {total}")


def _calls() -> dict:
    from accounts.models import User
    from bench import growth
    from games.models import Game

    game = Game.objects.filter(seats__user__username="long_0").get()
    seat = game.seats.select_related("user").filter(awaited=True).order_by("number").first()
    client = growth._client(seat.user)
    page = growth._page(client, f"/games/{game.pk}/")
    forget = growth._boards_forgotten(client)

    def page_cold():
        forget()
        return page()

    bare_client = growth._client(User.objects.get(username="bare_0"))

    def bare():
        return bare_client.post("/bench/ceiling/1/").status_code

    return {"bare": (bare, None), "page": (page, None), "page-cold": (page_cold, forget),
            "move": (growth._move(client, game, seat.number), None)}


def _cpu_ms(call, before, repeat: int) -> float:
    for _ in range(3):
        if before is not None:
            before()
        call()
    samples = []
    for _ in range(repeat):
        if before is not None:
            before()
        started = time.process_time()
        status = call()
        samples.append(time.process_time() - started)
        assert status in (200, 302), status
    return 1000 * statistics.median(samples)


def measure(repeat: int, cprofile: str | None, label: str) -> None:
    _setup_django()
    calls = _calls()
    if cprofile:
        import cProfile
        import pstats

        call, before = calls[cprofile]
        for _ in range(3):
            call()
        profiler = cProfile.Profile(time.process_time)
        for _ in range(repeat):
            if before is not None:
                before()
            profiler.enable()
            call()
            profiler.disable()
        stats = pstats.Stats(profiler)
        stats.sort_stats("cumulative").print_stats(60)
        stats.sort_stats("tottime").print_stats(30)
        if os.environ.get("BENCH_PROFILE_DUMP"):
            stats.dump_stats(os.environ["BENCH_PROFILE_DUMP"])
        return
    # Interleaved kinds, several rounds: a neighbour's burst of work spreads over all of them.
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(5):
        for name, (call, before) in calls.items():
            samples[name].append(_cpu_ms(call, before, max(1, repeat // 5)))
    result = {name: round(statistics.median(values), 2) for name, values in samples.items()}
    bare = result["bare"]
    result.update({f"{name}_bare": round(result[name] / bare, 2) for name in ("page", "page-cold", "move")})
    print(json.dumps({"label": label, **result}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.page_cpu", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=["setup", "measure"])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--cprofile", choices=["bare", "page", "page-cold", "move"])
    parser.add_argument("--label", default=str(Path.cwd().name))
    args = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL"):
        print("DATABASE_URL is needed (and CACHE_URL, a Redis)", file=sys.stderr)
        return 2
    if args.what == "setup":
        setup()
    else:
        measure(args.repeat, args.cprofile, args.label)
    return 0


if __name__ == "__main__":
    sys.exit(main())
