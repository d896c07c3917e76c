"""``python -m bench``: the whole benchmark suite in one bounded run (``make bench``).

Needs DATABASE_URL and CELERY_BROKER_URL (``make bench`` starts embedded ones
through mammamia.devservices under ``var/bench``). Creates a fresh database
``<name>_bench`` on that server, migrates it, seeds it, serves the site with
uvicorn as in production and measures, in this order:

1. engines (a separate process on one CPU);
2. the ceilings: PostgreSQL (pgbench) and the framework (a bare Django view);
3. moves over HTTP: closed loop (N = 1, 8, 32, 128) and open loop (fixed load);
4. growth (queries and time vs game length and history size), and of the leaderboard and the profile
   with 100 vs 100,000 rated players (100 vs 1,000,000 rated games: ``bench.ratings``);
5. the e-mail fan-out (10,000 turn e-mails through Celery to an SMTP catcher), and whole games played by e-mail
   replies alone (e-mails, replies and CPU per move against a baseline of the same run: ``bench.email_play``);
6. live updates: idle cost of polling vs push, update latency with 1,000 idle streams, 5,000 streams held;
7. quiet at the table (issue 34): "your move" e-mails and pushes per move, hold on vs off, a live table, an away
   player (``bench.quiet``).

Writes ``bench/results.json`` and ``docs/benchmarks.md`` and prints the table.
``--quick`` runs every part briefly (a smoke test of the suite, not figures).
``--before REV`` also serves commit REV's site beside this tree's and measures issue 33's targets for both in
this one run (bench/before.py): the bare request, the closed loops (32 players: before, after, before again), the
open loop at half of each tree's capacity and the game page's queries and CPU; the report gets a before/after
table, and a full run (not ``--quick``) writes it into the README between ``<!-- issue33-table -->`` markers.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench import cpu, flamegraph
from bench import stack as stack_module
from bench.stack import BASE_DIR, Stack

RESULTS = BASE_DIR / "bench" / "results.json"
PROFILES = BASE_DIR / "bench" / "out"  # git-ignored
DOC = BASE_DIR / "docs" / "benchmarks.md"
STARTED = time.monotonic()


def log(message: str) -> None:
    print(f"[bench {time.monotonic() - STARTED:6.1f}s] {message}", file=sys.stderr, flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="brief runs of every part (smoke test)")
    parser.add_argument("--only", nargs="*", default=None,
                        choices=["engines", "ceilings", "servers", "closed", "open", "growth", "ratings", "fanout",
                                 "live", "scaleout", "email", "quiet"])
    parser.add_argument("--web-workers", type=int, default=int(os.environ.get("BENCH_WEB_WORKERS", 4)))
    # docs/deploying.md's deployment runs `celery worker -c 4`; so does the bench.
    parser.add_argument("--celery-concurrency", type=int, default=int(os.environ.get("BENCH_CELERY", 4)))
    parser.add_argument("--players", type=int, nargs="*", default=[1, 8, 32, 128])
    parser.add_argument("--duration", type=float, default=12.0, help="seconds measured per closed-loop level")
    parser.add_argument("--open-duration", type=float, default=30.0)
    parser.add_argument("--open-moves", type=float, default=20.0, help="offered moves/s in the open loop")
    parser.add_argument("--open-pages", type=float, default=100.0, help="offered page views/s in the open loop")
    parser.add_argument("--open-fractions", type=float, nargs="*", default=[0.5, 0.25],
                        help="also run the open loop at these fractions of the offered load")
    parser.add_argument("--capacity-fractions", type=float, nargs="*", default=[0.5],
                        help="also run the open loop at these fractions of the capacity the closed loop measured")
    parser.add_argument("--emails", type=int, default=10_000)
    parser.add_argument("--nice", type=int, default=int(os.environ.get("BENCH_NICE", 0)),
                        help="run the whole stack at this nice value (e.g. -10, as root) to shield it from other "
                             "work on a shared machine; recorded in the results")
    parser.add_argument("--access-log", action="store_true",
                        help="uvicorn's access log (in var/bench/web.log)")
    parser.add_argument("--server", choices=["uvicorn", "gunicorn", "split-gunicorn", "split-granian"],
                        default="split-granian",
                        help="the web server: split-granian (the default: the pages on granian, the streams on "
                             "uvicorn beside it, production's layout behind a proxy, docs/deploying.md) or "
                             "split-gunicorn; uvicorn (the site and the streams in one ASGI server, as before issue "
                             "33); gunicorn (the WSGI site alone, no streams)")
    parser.add_argument("--compare-servers", nargs="*", default=["uvicorn", "gunicorn", "granian"],
                        help="the servers the site's requests are compared under (the server tax), beside --server")
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--doc", type=Path, default=DOC)
    parser.add_argument("--no-profile", dest="profile", action="store_false",
                        help="do not py-spy the web workers (32-player closed loop) and Celery workers (fan-out)")
    parser.add_argument("--before", metavar="REV",
                        help="also measure commit REV's site in this run, beside this tree's (issue 33's before/after "
                             "table): its checkout in var/bench/before-<sha7>, its own database, same bench")
    parser.add_argument("--before-python", metavar="PYTHON",
                        help="the Python (of a venv) that serves --before's tree when this venv cannot (the run "
                             "checks its requirements and imports and says so)")
    parser.add_argument("--readme", type=Path, default=BASE_DIR / "README.md",
                        help="where a full run with --before writes its before/after table (between the "
                             "<!-- issue33-table --> markers); --readme '' leaves it alone")
    return parser.parse_args(argv)


def prioritise(pid: int | None, nice: int) -> None:
    """Give ``pid``'s process tree, and the scheduler autogroup of its session, this nice value.

    With autogroups (Linux's default for desktop-like systems) the CPU is shared between sessions first,
    so a process's own nice value only counts within its session: both are set.
    """
    for member in cpu.tree_pids(pid):
        try:
            os.setpriority(os.PRIO_PROCESS, member, nice)
        except OSError as exc:
            log(f"could not renice process {member}: {exc}")
    if pid:
        # No autogroups here, or not allowed: the nice values above still count.
        with contextlib.suppress(OSError):
            Path(f"/proc/{pid}/autogroup").write_text(str(nice))


def cpu_roots(stack: Stack, work_dir: Path) -> dict[str, int | None]:
    """The process trees whose CPU time the runs report: site, workers, mail catcher, PostgreSQL, broker."""
    return {
        "web": stack.pid("web"),
        "live": stack.pid("web-live"),  # the streams' ASGI server, when the pages are served apart
        "workers": stack.pid("worker"),
        "mail": stack.pid("mail"),
        "db": cpu.postmaster_pid(work_dir / "pg"),
        "broker": broker_pid(),
    }


def broker_pid() -> int | None:
    """The embedded Redis serving CELERY_BROKER_URL's socket, if that is what it is."""
    broker_socket = os.environ.get("CELERY_BROKER_URL", "").split("://", 1)[-1]
    return cpu.find_process("redis-server", broker_socket) if broker_socket.endswith(".sock") else None


class Phase:
    """Wall time, load average and the whole machine's CPU use during one part of the run.

    Other work on the machine shows as CPU busy beyond what the stack could use.
    """

    def __init__(self, results: dict, name: str) -> None:
        self.results, self.name = results, name

    @staticmethod
    def _cpu() -> tuple[int, int]:
        try:
            fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        except (OSError, ValueError):
            return 0, 0
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
        return sum(fields) - idle, sum(fields)

    def __enter__(self):
        self.wall, self.cpu = time.monotonic(), self._cpu()
        self.load = os.getloadavg()[0] if hasattr(os, "getloadavg") else None
        return self

    def __exit__(self, *exc) -> None:
        busy, total = self._cpu()
        share = (busy - self.cpu[0]) / (total - self.cpu[1]) if total > self.cpu[1] else None
        self.results.setdefault("phases", {})[self.name] = {
            "seconds": round(time.monotonic() - self.wall, 1),
            "load_average_1min_at_start": round(self.load, 2) if self.load is not None else None,
            "machine_cpu_busy": round(share, 3) if share is not None else None,
        }


def servers_to_compare(args) -> list[str]:
    """The other servers of the server-tax comparison that can run here (granian only when installed)."""
    import importlib.util

    found = []
    for server in args.compare_servers:
        if server == args.server or (server.startswith("granian") and importlib.util.find_spec("granian") is None):
            continue
        found.append(server)
    return found


def wants(args, part: str) -> bool:
    return args.only is None or part in args.only


# Steps ------------------------------------------------------------------------------------------


def run_engines(args) -> list[dict]:
    seconds = 0.3 if args.quick else 3.0
    done = subprocess.run([sys.executable, "-m", "bench.engines", "--seconds", str(seconds)], cwd=BASE_DIR,
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def run_load(plan: dict, timeout: float) -> dict:
    return stack_module.run_json_module("bench.load", plan, timeout)


def py_spy(pid: int | None, seconds: float, out: Path) -> subprocess.Popen | None:
    """Sample a process and its children (gunicorn's or Celery's workers) into collapsed stacks."""
    binary = Path(sys.executable).parent / "py-spy"
    if not binary.exists() or pid is None:
        return None
    out.parent.mkdir(parents=True, exist_ok=True)
    argv = [str(binary), "record", "-d", str(max(1, int(seconds))), "-r", "97", "-f", "raw", "--nonblocking",
            "--subprocesses", "-o", str(out), "-p", str(pid)]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def finish_py_spy(spy: subprocess.Popen, seconds: float = 60) -> None:
    """Let py-spy write its samples; on a loaded machine it may need longer: ask it to stop (it writes what it
    has on SIGINT), and never fail the run for a profile."""
    try:
        spy.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        spy.send_signal(signal.SIGINT)
        try:
            spy.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            spy.kill()
            spy.wait(timeout=10)
            log("py-spy did not finish: no profile this time")


def _ours(frame: str) -> bool:
    location = frame.rsplit("(", 1)[-1]
    return location.startswith(("games/", "notifications/", "accounts/", "mammamia/", "bench/")) or (
        str(BASE_DIR) in location and "/.venv/" not in location
    )


def summarize_profile(path: Path, top: int = 12) -> dict | None:
    """The hottest frames of collapsed stacks: by own samples, and our code's by inclusive samples."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return None
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    for line in lines:
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [flamegraph.function_of(frame) for frame in stack.split(";")]
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for frame in {f for f in frames if _ours(f)}:
            inclusive[frame] = inclusive.get(frame, 0) + n
    if not total:
        return None

    def rows(counts: dict) -> list[dict]:
        ranked = sorted(counts.items(), key=lambda item: -item[1])[:top]
        return [{"frame": frame.replace(str(BASE_DIR) + "/", ""), "share": round(n / total, 3)} for frame, n in ranked]

    shown = path.relative_to(BASE_DIR) if path.is_relative_to(BASE_DIR) else path
    return {"samples": total, "file": str(shown), "own": rows(own), "ours_inclusive": rows(inclusive)}


# The web workers' request kinds, told apart by the view each sampled stack is in (issue 33: a flame graph per
# request kind). Collapsed stacks: open them in speedscope or flamegraph.pl.
REQUEST_KINDS = {
    "game-page": ("game (games/views.py",),
    "move-post": ("game_move (games/views.py",),
    "live-partial": ("game_table (games/views.py",),
}


def split_by_kind(path: Path) -> dict[str, Path]:
    """Write ``<stem>-<kind>.txt`` beside ``path`` for each request kind (and ``-other``); their paths."""
    try:
        lines = path.read_text().splitlines()
    except OSError:
        return {}
    buckets: dict[str, list[str]] = {kind: [] for kind in [*REQUEST_KINDS, "other"]}
    for line in lines:
        kind = next((k for k, frames in REQUEST_KINDS.items() if any(f in line for f in frames)), "other")
        buckets[kind].append(line)
    written = {}
    for kind, rows in buckets.items():
        if rows:
            out = path.with_name(f"{path.stem}-{kind}.txt")
            out.write_text("\n".join(rows) + "\n")
            written[kind] = out
    return written


def profiled_level(args) -> int | None:
    """The closed-loop level whose web workers are profiled and whose rounds interleave with --before's (32)."""
    return max((p for p in args.players if p <= 32), default=None)


def closed_round(args, results: dict, *, base: str, web_pid: int | None, roots: dict, pool: list, players: int,
                 warmup: float, phase: str, profile: str | None = None, profile_label: str = "") -> dict:
    """One closed-loop run of ``players`` against ``base``; with ``profile``, the web workers sampled by py-spy into
    ``bench/out/<profile>.txt`` and that split by request kind, each summarised in ``results["profiles"]``."""
    spy = py_spy(web_pid, warmup + args.duration, PROFILES / f"{profile}.txt") if profile else None
    with Phase(results, phase):
        row = run_load({"cpu_roots": roots, "mode": "closed", "base": base, "players": players, "pool": pool,
                        "warmup": warmup, "duration": args.duration}, timeout=args.duration + warmup + 120)
    if spy is not None:
        finish_py_spy(spy)
        profiles = results.setdefault("profiles", {})
        summary = summarize_profile(PROFILES / f"{profile}.txt")
        if summary:
            profiles[f"{profile_label}web workers, closed loop {players}"] = summary
            for kind, path in split_by_kind(PROFILES / f"{profile}.txt").items():
                part = summarize_profile(path)
                if part:
                    part["share_of_web_samples"] = round(part["samples"] / summary["samples"], 3)
                    profiles[f"{profile_label}web workers, closed loop {players}: {kind}"] = part
        flamegraph.write_svgs(PROFILES, profile)
    log(f"  {row['moves_per_s']} moves/s, {row['pages_per_s']} pages/s, CPU {row['server_cpu_ms_per_move']} ms per "
        f"move, client CPU {row['client_cpu_share']:.0%}")
    return row


def warm_up(args, *, base: str, pool: list) -> None:
    """An unmeasured closed loop of 8 players: every web worker renders game pages and every Celery worker runs a
    move's tasks once (templates compiled, lazy imports done) before the measured rounds, so neither tree's first
    round pays its one-off costs (with --before the baseline's first round did: its 32-player rounds differed ~2x)."""
    seconds = 2.0 if args.quick else 6.0
    run_load({"mode": "closed", "base": base, "players": min(8, len(pool)), "pool": pool, "warmup": 0,
              "duration": seconds}, timeout=seconds + 120)


def open_at_capacity(args, results: dict, *, base: str, roots: dict, pool: list, closed: list[dict], warmup: float,
                     label: str = "") -> list[dict]:
    """The open loop at fractions of the capacity this tree's closed loop measured (its best moves/s), in the closed
    loop's mix: each move's page load and its redirect page, so two page views per move."""
    capacity = max((row["moves_per_s"] for row in closed), default=None)
    rows = []
    for fraction in args.capacity_fractions if capacity else []:
        moves = round(capacity * fraction, 2)
        log(f"{label}open loop at {fraction:.0%} of capacity ({capacity} moves/s): {moves:g} moves/s + "
            f"{2 * moves:g} page views/s ...")
        with Phase(results, f"{label}open loop at {fraction:g} of capacity"):
            row = run_load({"cpu_roots": roots, "mode": "open", "base": base, "moves_per_s": moves,
                            "pages_per_s": 2 * moves, "pool": pool, "games": 32 if args.quick else 64, "seed": 3,
                            "warmup": warmup, "duration": args.open_duration},
                           timeout=args.open_duration + warmup + 120)
        log(f"  move POST p50 {row['move_post'].get('p50_ms')} ms; page p50 {row['game_page'].get('p50_ms')} ms")
        rows.append({"fraction": fraction, "capacity_moves_per_s": capacity, **row})
    return rows


def ceiling_users(pools: dict) -> list[dict]:
    """The bare request's 32 users: the first user of each pool's games, each with a row of its own."""
    return [
        {"cookies": entry["users"][0]["cookies"], "row": index + 1}
        for index, entry in enumerate(entry for pool in pools.values() for entry in pool)
    ][:32]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    if not os.environ.get("DATABASE_URL") or not os.environ.get("CELERY_BROKER_URL"):
        print("DATABASE_URL and CELERY_BROKER_URL are needed: run `make bench` "
              "(it starts embedded PostgreSQL and Redis).", file=sys.stderr)
        return 2
    work_dir = Path(os.environ.get("MAMMAMIA_VAR_DIR", BASE_DIR / "var" / "bench"))
    work_dir.mkdir(parents=True, exist_ok=True)
    if args.quick:
        args.duration, args.open_duration, args.emails = 3.0, 6.0, min(args.emails, 300)
        args.players = [p for p in args.players if p <= 8] or [1]

    if args.nice:
        # Everything this process starts inherits it; PostgreSQL and Redis, started before, are reniced below.
        os.setpriority(os.PRIO_PROCESS, 0, args.nice)
        prioritise(os.getpid(), args.nice)
    database_url = stack_module.bench_database_url(os.environ["DATABASE_URL"])
    log(f"fresh database {stack_module.database_name(database_url)}")
    stack_module.recreate_database(database_url)
    email_port = stack_module.free_port()
    env = stack_module.production_environment(database_url=database_url, email_port=email_port, work_dir=work_dir)
    os.environ.update(env)

    import django

    django.setup()
    from django.core.management import call_command

    from bench import ceilings, fanout, growth, report, seed
    from bench import engines as _engines  # noqa: F401 - imported for its module docstring in the report
    from bench import ratings as ratings_bench

    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    ceilings.create_tables(database_url)
    log("migrated, static files collected")
    baseline = None
    if args.before:
        from bench import before as before_module

        baseline = before_module.prepare(args.before, work_dir=work_dir, after_database_url=database_url,
                                         python=args.before_python, log=log)

    results: dict = {
        "machine": report.machine(database_url),
        "config": {
            "quick": args.quick, "web_workers": args.web_workers, "celery_concurrency": args.celery_concurrency,
            "nice": args.nice, "server": args.server,
            "closed_seconds": args.duration, "open_seconds": args.open_duration,
            "argv": sys.argv[1:] if argv is None else list(argv),
        },
    }
    if baseline is not None:
        results["config"]["before"] = baseline.commit
        results["before"] = baseline.results

    if wants(args, "engines"):
        log("engines ...")
        with Phase(results, "engines"):
            results["engines"] = run_engines(args)

    if wants(args, "email"):
        # In this process with Celery eager and no stack: nothing else takes its outbox rows.
        from bench import email_play

        log("whole games by e-mail replies alone ...")
        with Phase(results, "email play"):
            results["email_play"] = email_play.run(quick=args.quick, log=log)
    if args.only is not None and set(args.only) <= {"engines", "email"}:
        return write_results(args, results)  # no part left that needs the site running

    web_options = []
    if args.access_log:
        web_options = ["--access-log"]
    stack = Stack(env=env, work_dir=work_dir, web_workers=args.web_workers,
                  celery_concurrency=args.celery_concurrency, email_port=email_port, web_options=web_options,
                  server=args.server)
    try:
        stack.start_mail()
        stack.start_workers()
        stack.start_web()
        log(f"site at {stack.base_url} ({args.server}, {args.web_workers} worker processes), "
            f"Celery -c {args.celery_concurrency}, SMTP catcher on {email_port}")
        warmup = 1.0 if args.quick else 3.0
        roots = cpu_roots(stack, work_dir)
        if args.nice:
            for pid in roots.values():
                prioritise(pid, args.nice)
        results["config"]["cpu_measured_for"] = sorted(name for name, pid in roots.items() if pid)

        needs_pool = any(wants(args, p) for p in ("ceilings", "servers", "closed", "open", "live", "scaleout"))
        pools = {}
        if needs_pool:
            started = time.perf_counter()
            sizes = {}
            if wants(args, "closed") or wants(args, "ceilings") or wants(args, "servers"):
                sizes = {f"c{n}": n + max(9, n // 4) for n in args.players}
            if wants(args, "servers"):
                for server in servers_to_compare(args):
                    sizes[f"s-{server}"] = 32 + 9
            if wants(args, "open"):
                sizes["open"] = 40 if args.quick else 100
            if wants(args, "live"):
                sizes["live"] = 16 if args.quick else 48
            if wants(args, "scaleout"):
                sizes.update({"scale-live": 8, "scale-one": 41, "scale-two": 41})
            plan = [(name, size, offset) for offset, (name, size) in enumerate(sizes.items())]
            pools = seed.http_pools(plan)
            log(f"seeded {sum(sizes.values())} two-seat games with their players "
                f"in {time.perf_counter() - started:.1f} s")
            if baseline is not None:
                # The baseline's pools: the same games in turn (the same offsets), only what its parts need, and
                # a second pool for its second round at the interleaved level.
                kept = [entry for entry in plan if entry[0].startswith("c") or entry[0] == "open"]
                kept += [(f"{name}-again", size, offset) for name, size, offset in kept
                         if name == f"c{profiled_level(args)}"]
                started = time.perf_counter()
                baseline.pools = baseline.call("seed", {"pools": kept})["pools"]
                log(f"baseline: seeded {sum(size for _, size, _ in kept)} games "
                    f"in {time.perf_counter() - started:.1f} s")
        before_roots: dict = {}
        if baseline is not None and needs_pool:  # its parts that need its site served
            before_stack = baseline.make_stack(web_workers=args.web_workers,
                                               celery_concurrency=args.celery_concurrency, web_options=web_options,
                                               server=args.server, on_start=stack.on_start)
            before_stack.start_mail()
            before_stack.start_workers()
            before_stack.start_web()
            before_roots = cpu_roots(before_stack, work_dir)  # the same PostgreSQL and broker
            if args.nice:
                for pid in before_roots.values():
                    prioritise(pid, args.nice)
            log(f"baseline {baseline.commit[:7]} at {before_stack.base_url} ({args.server}), its own Celery workers "
                f"and SMTP catcher")

        if wants(args, "ceilings"):
            seconds = 3 if args.quick else 10
            log("database ceiling (pgbench) ...")
            with Phase(results, "database ceiling"):
                before = cpu.snapshot({"db": roots.get("db")})
                database = ceilings.pgbench(database_url, clients=8, seconds=seconds, work_dir=work_dir)
                spent = cpu.delta(before, cpu.snapshot({"db": roots.get("db")}))["db"]
                if spent and database["tps"]:
                    database["db_cpu_ms_per_transaction"] = round(1000 * spent / (database["tps"] * seconds), 3)
            log(f"  {database['tps']} tps")
            log("framework ceiling (bare view, 32 users) ...")
            with Phase(results, "framework ceiling"):
                framework = run_load({"cpu_roots": roots, "mode": "ceiling", "base": stack.base_url, "players": 32,
                                      "users": ceiling_users(pools), "warmup": warmup, "duration": seconds},
                                     timeout=seconds + 120)
            log(f"  {framework['requests_per_s']} requests/s, {framework['server_cpu_ms_per_move']} ms CPU each")
            results["ceilings"] = {"database": database, "framework": framework}
            if baseline is not None:
                log("baseline: framework ceiling (bare view, 32 users) ...")
                with Phase(results, "before: framework ceiling"):
                    framework = run_load({"cpu_roots": before_roots, "mode": "ceiling",
                                          "base": baseline.stack.base_url, "players": 32,
                                          "users": ceiling_users(baseline.pools), "warmup": warmup,
                                          "duration": seconds}, timeout=seconds + 120)
                log(f"  {framework['requests_per_s']} requests/s, {framework['server_cpu_ms_per_move']} ms CPU each")
                baseline.results["ceilings"] = {"framework": framework}

        if wants(args, "servers"):
            # The server tax: the same bare request and the same game pages (32 users each) under each server,
            # in this run: the whole stack's CPU per request against the production server's. (A closed loop of
            # moves has too few moves in a short window on a loaded machine to compare servers.)
            seconds = 3 if args.quick else 10
            users = ceiling_users(pools)
            rows = {}
            for server in [args.server, *servers_to_compare(args)]:
                name = "web" if server == args.server else f"web-{server}"
                if name != "web":
                    log(f"starting {server} for the server comparison ...")
                    try:
                        stack.start_server(name, server)
                    except RuntimeError as exc:
                        log(f"  {server} did not start: {exc}")
                        continue
                    if args.nice:
                        # Its own session (and scheduler autogroup): the same priority as the run's own server.
                        prioritise(stack.pid(name), args.nice)
                base = stack.urls.get(name, stack.base_url)
                server_roots = {**roots, "web": stack.pid(name)}
                log(f"server tax: {server}, bare view and game pages, 32 users ...")
                with Phase(results, f"server {server}"):
                    bare = run_load({"cpu_roots": server_roots, "mode": "ceiling", "base": base, "players": 32,
                                     "users": users, "warmup": warmup, "duration": seconds},
                                    timeout=seconds + 120)
                    pool = pools.get(f"s-{server}") or pools[f"c{max(args.players)}"]
                    pages = run_load(
                        {
                            "cpu_roots": server_roots,
                            "mode": "pages",
                            "base": base,
                            "players": 32,
                            "pool": pool,
                            "warmup": warmup,
                            "duration": seconds,
                        },
                        timeout=seconds + warmup + 120,
                    )
                rows[server] = {"bare": bare, "pages": pages}
                log(f"  bare {bare['requests_per_s']} requests/s, {bare['server_cpu_ms_per_move']} ms CPU each; "
                    f"game page {pages['pages_per_s']}/s, {pages['server_cpu_ms_per_page']} ms CPU each")
                if name != "web":
                    stack.stop_process(name)
            results["servers"] = {"production": args.server, "rows": rows}

        if wants(args, "closed"):
            # With --before, each level is run for the baseline, then this tree; the profiled level (32) once more
            # for the baseline after this tree's (before, after, before: the spread beside the difference).
            results["closed_loop"] = []
            before_rows: dict[int, list[dict]] = {}
            warm = f"c{max(args.players)}"  # its games only go on a move or two
            if baseline is not None:
                warm_up(args, base=baseline.stack.base_url, pool=baseline.pools[warm])
            warm_up(args, base=stack.base_url, pool=pools[warm])
            for players in args.players:
                profiled = args.profile and players == profiled_level(args)
                if baseline is not None:
                    log(f"baseline: closed loop, {players} players ...")
                    before_rows[players] = [closed_round(
                        args, results, base=baseline.stack.base_url, web_pid=baseline.stack.pid("web"),
                        roots=before_roots, pool=baseline.pools[f"c{players}"], players=players, warmup=warmup,
                        phase=f"before: closed loop {players}", profile=f"before-web-closed-{players}" if profiled
                        else None, profile_label="before: ")]
                log(f"closed loop, {players} players ...")
                results["closed_loop"].append(closed_round(
                    args, results, base=stack.base_url, web_pid=stack.pid("web"), roots=roots,
                    pool=pools[f"c{players}"], players=players, warmup=warmup, phase=f"closed loop {players}",
                    profile=f"web-closed-{players}" if profiled else None))
                if baseline is not None and players == profiled_level(args):
                    log(f"baseline: closed loop, {players} players, second round ...")
                    before_rows[players].append(closed_round(
                        args, results, base=baseline.stack.base_url, web_pid=baseline.stack.pid("web"),
                        roots=before_roots, pool=baseline.pools[f"c{players}-again"], players=players,
                        warmup=warmup, phase=f"before: closed loop {players}, again"))
            if baseline is not None:
                baseline.results["closed_loop"] = [before_module.pooled(rows) for rows in before_rows.values()]

        if wants(args, "open") and args.open_moves > 0:  # --open-moves 0: only the loops at a share of capacity
            log(f"open loop, {args.open_moves:g} moves/s + {args.open_pages:g} page views/s ...")
            with Phase(results, "open loop"):
                row = run_load({"cpu_roots": roots, "mode": "open", "base": stack.base_url,
                                "moves_per_s": args.open_moves, "pages_per_s": args.open_pages, "pool": pools["open"],
                                "games": 32 if args.quick else 64,
                                "warmup": warmup, "duration": args.open_duration},
                               timeout=args.open_duration + warmup + 120)
            log(f"  move POST p50 {row['move_post'].get('p50_ms')} ms p99 {row['move_post'].get('p99_ms')} ms; "
                f"page p50 {row['game_page'].get('p50_ms')} ms p99 {row['game_page'].get('p99_ms')} ms")
            results["open_loop"] = row
            # The same mix at lower rates: the latencies the stack gives at a load it can carry.
            results["open_loop_scaled"] = []
            for fraction in args.open_fractions:
                moves, pages = args.open_moves * fraction, args.open_pages * fraction
                log(f"open loop, {moves:g} moves/s + {pages:g} page views/s ...")
                with Phase(results, f"open loop x{fraction:g}"):
                    row = run_load({"cpu_roots": roots, "mode": "open", "base": stack.base_url,
                                    "moves_per_s": moves, "pages_per_s": pages, "pool": pools["open"],
                                    "games": 32 if args.quick else 64, "seed": 2,
                                    "warmup": warmup, "duration": args.open_duration / 2},
                                   timeout=args.open_duration + warmup + 120)
                log(f"  move POST p50 {row['move_post'].get('p50_ms')} ms p99 {row['move_post'].get('p99_ms')} ms; "
                    f"page p50 {row['game_page'].get('p50_ms')} ms p99 {row['game_page'].get('p99_ms')} ms")
                results["open_loop_scaled"].append({"fraction": fraction, **row})

        if wants(args, "open"):
            results["open_loop_at_capacity"] = open_at_capacity(
                args, results, base=stack.base_url, roots=roots, pool=pools["open"],
                closed=results.get("closed_loop") or [], warmup=warmup)
            if baseline is not None:
                baseline.results["open_loop_at_capacity"] = open_at_capacity(
                    args, results, base=baseline.stack.base_url, roots=before_roots, pool=baseline.pools["open"],
                    closed=baseline.results.get("closed_loop") or [], warmup=warmup, label="before: ")
        if baseline is not None and baseline.stack is not None:
            baseline.stack.stop()  # nothing else of the baseline needs its servers
            log("baseline's stack stopped")

        if wants(args, "live"):
            from bench import live_runner

            with Phase(results, "live updates"):
                results["live"] = live_runner.run(base=stack.base_url, stream_base=stack.stream_url, roots=roots,
                                                  web_pid=stack.pid("web-live") or stack.pid("web"),
                                                  pool=pools["live"], quick=args.quick, log=log)

        if wants(args, "growth"):
            log("growth ...")
            with Phase(results, "growth"):
                results["growth"] = growth.run(repeat=5 if args.quick else 11, log=log)
            if baseline is not None:
                log("baseline: growth (the bare request, the game page and the move) ...")
                with Phase(results, "before: growth"):
                    baseline.results["growth"] = baseline.call("growth", {"repeat": 5 if args.quick else 11})

        if wants(args, "ratings"):
            log("ratings growth (100 vs 100,000 players) ...")
            with Phase(results, "ratings"):
                results["ratings"] = ratings_bench.run(repeat=5 if args.quick else 11, log=log, quick=args.quick)

        if wants(args, "fanout"):
            log(f"fan-out, {args.emails} e-mails ...")
            spy = py_spy(stack.pid("worker"), 90 if not args.quick else 15, PROFILES / "celery-fanout.txt") \
                if args.profile else None
            with Phase(results, "fan-out"):
                before = cpu.snapshot(roots)
                results["fanout"] = fanout.run(stack.mail_dir, count=args.emails, log=log)
                spent = cpu.delta(before, cpu.snapshot(roots))
                spent.pop("web", None)
                results["fanout"]["server_cpu_s"] = spent
                delivered = results["fanout"]["delivered"] or 1
                results["fanout"]["server_cpu_ms_per_email"] = round(1000 * sum(spent.values()) / delivered, 2)
            if spy is not None:
                if spy.poll() is None:
                    spy.send_signal(signal.SIGINT)  # py-spy writes what it has on SIGINT
                finish_py_spy(spy)
                summary = summarize_profile(PROFILES / "celery-fanout.txt")
                if summary:
                    results.setdefault("profiles", {})["Celery workers, fan-out"] = summary
            log(f"  {results['fanout']['delivered']} delivered in {results['fanout']['seconds']} s")
        if wants(args, "quiet"):
            # Issue 34: "your move" e-mails and pushes per move with the hold and without (the site restarted with
            # each), a live table of each engine, an away player (bench/quiet.py). Restarts the web and workers.
            from bench import quiet

            with Phase(results, "quiet at the table"):
                try:
                    results["quiet"] = quiet.run(stack=stack, roots=roots, warmup=warmup, seconds=args.duration,
                                                 open_seconds=args.open_duration, quick=args.quick, log=log)
                except (RuntimeError, OSError, KeyError, subprocess.SubprocessError) as exc:
                    log(f"  quiet failed: {exc}")
                    results["quiet"] = {"failed": f"{type(exc).__name__}: {str(exc)[-2000:]}"}
            roots = cpu_roots(stack, work_dir)  # the restarted processes
            if args.nice:
                for pid in roots.values():
                    prioritise(pid, args.nice)
        if wants(args, "scaleout"):
            # Last: it replaces the run's Celery worker by two that reach PostgreSQL through PgBouncer.
            from bench import scaleout

            log("scale-out: two web servers, two Celery workers, PgBouncer in transaction mode ...")
            with Phase(results, "scale-out"):
                if args.nice:
                    stack.on_start = lambda pid: prioritise(pid, args.nice)
                try:
                    results["scaleout"] = scaleout.run(stack=stack, database_url=database_url, work_dir=work_dir,
                                                       pools=pools, roots=roots, run_load=run_load, warmup=warmup,
                                                       seconds=args.duration, quick=args.quick, log=log)
                except (RuntimeError, OSError, KeyError, subprocess.SubprocessError) as exc:
                    # Reported as a missed target, with the rest of the run's figures kept.
                    log(f"  scale-out failed: {exc}")
                    results["scaleout"] = {"failed": f"{type(exc).__name__}: {str(exc)[-2000:]}"}
    finally:
        if baseline is not None and baseline.stack is not None:
            baseline.stack.stop()
        stack.stop()
        if args.nice:
            # PostgreSQL, Redis and this session outlive the run: give them back the default priority.
            for pid in (cpu.postmaster_pid(work_dir / "pg"), broker_pid(), os.getpid()):
                prioritise(pid, 0)

    return write_results(args, results)


def write_results(args, results: dict) -> int:
    from bench import report

    results["targets"] = report.targets(results)
    if "before" in results:
        results["before"]["targets"] = report.targets({**results["before"], "machine": results["machine"]})
    results["elapsed_s"] = round(time.monotonic() - STARTED, 1)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    markdown = report.markdown(results)
    args.doc.parent.mkdir(parents=True, exist_ok=True)
    args.doc.write_text(markdown)
    print(report.table(results))
    if "before" in results:
        from bench import compare

        before, after = compare.sides(results)
        print(compare.issue33_markdown(before, after, same_run=True))
        if args.readme and args.readme.name and not args.quick:
            compare.write_readme(args.readme, compare.issue33_markdown(before, after, same_run=True))
            log(f"wrote issue 33's before/after table into {args.readme}")
    log(f"wrote {args.results.relative_to(BASE_DIR) if args.results.is_relative_to(BASE_DIR) else args.results} "
        f"and {args.doc.relative_to(BASE_DIR) if args.doc.is_relative_to(BASE_DIR) else args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
