"""Profile one kind of request in one process, on the data the last ``make bench`` left in its database.

    MAMMAMIA_VAR_DIR=var/bench .venv/bin/python -m mammamia.devservices -- \\
        .venv/bin/python -m bench.profile page|page-cold|move|history|email [--repeat 30] [--cprofile]

``page``: the game page near the end of the long 4-player Konamon! game (``page-cold``: its board not cached,
the cache emptied before each call); ``move``: a move there (rolled back
each time); ``history``: the profile page of the user with 10,000 finished games; ``email``: delivering turn
e-mails of the fan-out to an SMTP catcher started for it. pyinstrument's tree by default (wall clock, waits on
PostgreSQL included); ``--cprofile`` sorts functions by CPU time instead.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from bench import stack as stack_module


def _setup(email_port: int | None = None) -> None:
    database_url = stack_module.bench_database_url(os.environ["DATABASE_URL"])
    # The run's own folder (its collected static files): MAMMAMIA_VAR_DIR, as for the run itself.
    work_dir = Path(os.environ.get("MAMMAMIA_VAR_DIR", stack_module.BASE_DIR / "var" / "bench"))
    env = stack_module.production_environment(database_url=database_url, email_port=email_port or 1,
                                              work_dir=work_dir)
    os.environ.update(env)
    import django

    django.setup()


def _page_call(repeat: int):
    from bench.growth import _client, _page
    from games.models import Game

    game = Game.objects.filter(seats__user__username="long_0").get()
    seat = game.seats.select_related("user").filter(awaited=True).order_by("number").first()
    call = _page(_client(seat.user), f"/games/{game.pk}/")
    return call, f"game page of game {game.pk} after {game.version} moves"


def _page_cold_call(repeat: int):
    """The same page as the first view of its version: the cache (the boards) emptied before each call."""
    from bench.growth import _boards_forgotten, _client, _page
    from games.models import Game

    game = Game.objects.filter(seats__user__username="long_0").get()
    seat = game.seats.select_related("user").filter(awaited=True).order_by("number").first()
    client = _client(seat.user)
    page, forget = _page(client, f"/games/{game.pk}/"), _boards_forgotten(client)

    def call():
        forget()
        return page()

    return call, f"game page of game {game.pk} after {game.version} moves, board not cached (cache emptied first)"


def _move_call(repeat: int):
    from bench.growth import _client, _move
    from games.models import Game

    game = Game.objects.filter(seats__user__username="long_0").get()
    seat = game.seats.select_related("user").filter(awaited=True).order_by("number").first()
    call = _move(_client(seat.user), game, seat.number)
    return call, f"move in game {game.pk} after {game.version} moves (rolled back)"


def _history_call(repeat: int):
    from accounts.models import User
    from bench.growth import _client, _page

    user = User.objects.get(username="hist10000_0")
    return _page(_client(user), f"/u/{user.username}/"), "profile page with 10,000 finished games"


def _email_call(repeat: int):
    from notifications.delivery import deliver
    from notifications.models import OutboxEmail

    ids = list(OutboxEmail.objects.filter(kind="turn", user__username__startswith="fan_")
               .order_by("id").values_list("id", flat=True)[: repeat + 5])
    OutboxEmail.objects.filter(id__in=ids).update(status="pending", attempts=0)
    pending = iter(ids)

    def call():
        return deliver(next(pending)).value

    return call, "delivering one turn e-mail (claim, render, SMTP, mark sent)"


CALLS = {"page": _page_call, "page-cold": _page_cold_call, "move": _move_call, "history": _history_call,
         "email": _email_call}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.profile", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=sorted(CALLS))
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--cprofile", action="store_true", help="functions by CPU time (cProfile) instead")
    args = parser.parse_args(argv)
    if not os.environ.get("DATABASE_URL"):
        print("DATABASE_URL is needed: run it under mammamia.devservices with MAMMAMIA_VAR_DIR=var/bench",
              file=sys.stderr)
        return 2
    catcher = None
    if args.what == "email":
        import subprocess
        import tempfile

        # Its own process, so its CPU stays out of this one's profile.
        port = stack_module.free_port()
        catcher = subprocess.Popen(
            [sys.executable, "-m", "mammamia.mailcatcher", "--host", "127.0.0.1", "--port", str(port),
             "--folder", tempfile.mkdtemp(prefix="bench-mail-")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        stack_module._wait(lambda: stack_module._port_open(port), 20, "the mail catcher")
        _setup(email_port=port)
    else:
        _setup()
    try:
        call, label = CALLS[args.what](args.repeat)
        for _ in range(3 if args.what != "email" else 2):
            call()  # warm-up
        cpu0, wall0 = time.process_time(), time.perf_counter()
        if args.cprofile:
            import cProfile
            import pstats

            profiler = cProfile.Profile(time.process_time)
            profiler.enable()
            for _ in range(args.repeat):
                call()
            profiler.disable()
            stats = pstats.Stats(profiler)
            stats.sort_stats("cumulative").print_stats(40)
            stats.sort_stats("tottime").print_stats(30)  # where the CPU itself goes
            if os.environ.get("BENCH_PROFILE_DUMP"):
                stats.dump_stats(os.environ["BENCH_PROFILE_DUMP"])
        else:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.001)
            profiler.start()
            for _ in range(args.repeat):
                call()
            profiler.stop()
            print(profiler.output_text(unicode=True, color=False))
        cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
        print(f"{label}: {1000 * wall / args.repeat:.1f} ms wall, {1000 * cpu / args.repeat:.1f} ms CPU "
              f"per call under the profiler ({args.repeat} calls)")
    finally:
        if catcher is not None:
            catcher.terminate()
            catcher.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
