"""``python -m bench``: the whole benchmark suite in one bounded run (``make bench``).

Needs DATABASE_URL and CELERY_BROKER_URL (``make bench`` starts embedded ones
through mammamia.devservices under ``var/bench``). Creates a fresh database
``<name>_bench`` on that server, migrates it, seeds it, serves the site with
gunicorn as in production and measures, in this order:

1. engines (a separate process on one CPU);
2. the ceilings: PostgreSQL (pgbench) and the framework (a bare Django view);
3. moves over HTTP: closed loop (N = 1, 8, 32, 128) and open loop (fixed load);
4. growth (queries and time vs game length and history size);
5. the e-mail fan-out (10,000 turn e-mails through Celery to an SMTP catcher).

Writes ``bench/results.json`` and ``docs/benchmarks.md`` and prints the table.
``--quick`` runs every part briefly (a smoke test of the suite, not figures).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench import stack as stack_module
from bench.stack import BASE_DIR, Stack

RESULTS = BASE_DIR / "bench" / "results.json"
DOC = BASE_DIR / "docs" / "benchmarks.md"
STARTED = time.monotonic()


def log(message: str) -> None:
    print(f"[bench {time.monotonic() - STARTED:6.1f}s] {message}", file=sys.stderr, flush=True)


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="brief runs of every part (smoke test)")
    parser.add_argument("--only", nargs="*", default=None,
                        choices=["engines", "ceilings", "closed", "open", "growth", "fanout"])
    parser.add_argument("--web-workers", type=int, default=int(os.environ.get("BENCH_WEB_WORKERS", 4)))
    parser.add_argument("--celery-concurrency", type=int, default=int(os.environ.get("BENCH_CELERY", 2)))
    parser.add_argument("--players", type=int, nargs="*", default=[1, 8, 32, 128])
    parser.add_argument("--duration", type=float, default=12.0, help="seconds measured per closed-loop level")
    parser.add_argument("--open-duration", type=float, default=30.0)
    parser.add_argument("--emails", type=int, default=10_000)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--doc", type=Path, default=DOC)
    parser.add_argument("--profile", action="store_true",
                        help="py-spy the web workers during the 32-player closed loop (bench/out/)")
    return parser.parse_args(argv)


def wants(args, part: str) -> bool:
    return args.only is None or part in args.only


# Steps ------------------------------------------------------------------------------------------


def run_engines(args) -> list[dict]:
    seconds = 0.3 if args.quick else 2.0
    done = subprocess.run([sys.executable, "-m", "bench.engines", "--seconds", str(seconds)], cwd=BASE_DIR,
                          capture_output=True, text=True, timeout=600, check=True)
    return json.loads(done.stdout)


def run_load(plan: dict, timeout: float) -> dict:
    done = subprocess.run([sys.executable, "-m", "bench.load"], cwd=BASE_DIR, input=json.dumps(plan),
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"load generator failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)


def py_spy(pids: list[int], seconds: float, out_dir: Path) -> subprocess.Popen | None:
    """Sample one gunicorn worker (they share the load evenly) into collapsed stacks."""
    binary = Path(sys.executable).parent / "py-spy"
    if not binary.exists() or not pids:
        return None
    out_dir.mkdir(parents=True, exist_ok=True)
    argv = [str(binary), "record", "-d", str(int(seconds)), "-r", "97", "-f", "raw", "--nonblocking",
            "-o", str(out_dir / "web-closed-32.txt"), "-p", str(pids[0])]
    return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


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

    call_command("migrate", "--noinput", verbosity=0)
    call_command("collectstatic", "--noinput", verbosity=0)
    ceilings.create_tables(database_url)
    log("migrated, static files collected")

    results: dict = {
        "machine": report.machine(database_url),
        "config": {
            "quick": args.quick, "web_workers": args.web_workers, "celery_concurrency": args.celery_concurrency,
            "closed_seconds": args.duration, "open_seconds": args.open_duration,
        },
    }

    if wants(args, "engines"):
        log("engines ...")
        results["engines"] = run_engines(args)

    stack = Stack(env=env, work_dir=work_dir, web_workers=args.web_workers,
                  celery_concurrency=args.celery_concurrency, email_port=email_port)
    try:
        stack.start_mail()
        stack.start_workers()
        stack.start_web()
        log(f"site at {stack.base_url} (gunicorn -w {args.web_workers}), "
            f"Celery -c {args.celery_concurrency}, SMTP catcher on {email_port}")
        warmup = 1.0 if args.quick else 3.0

        needs_pool = any(wants(args, p) for p in ("ceilings", "closed", "open"))
        pools = {}
        if needs_pool:
            started = time.perf_counter()
            sizes = {f"c{n}": n + max(9, n // 4) for n in args.players}
            if wants(args, "open"):
                sizes["open"] = 40 if args.quick else 100
            for offset, (name, size) in enumerate(sizes.items()):
                pools[name] = seed.http_pool(name, size, offset=offset)
            log(f"seeded {sum(sizes.values())} two-seat games with their players "
                f"in {time.perf_counter() - started:.1f} s")

        if wants(args, "ceilings"):
            seconds = 3 if args.quick else 10
            log("database ceiling (pgbench) ...")
            database = ceilings.pgbench(database_url, clients=8, seconds=seconds, work_dir=work_dir)
            log(f"  {database['tps']} tps")
            log("framework ceiling (bare view, 32 users) ...")
            users = [
                {"cookies": entry["users"][0]["cookies"], "row": index + 1}
                for index, entry in enumerate(pools.get("c32") or next(iter(pools.values())))
            ][:32]
            framework = run_load({"mode": "ceiling", "base": stack.base_url, "players": 32, "users": users,
                                  "warmup": warmup, "duration": seconds}, timeout=seconds + 120)
            log(f"  {framework['requests_per_s']} requests/s")
            results["ceilings"] = {"database": database, "framework": framework}

        if wants(args, "closed"):
            results["closed_loop"] = []
            for players in args.players:
                log(f"closed loop, {players} players ...")
                spy = None
                if args.profile and players == 32:
                    spy = py_spy(stack.web_pids(), warmup + args.duration, BASE_DIR / "bench" / "out")
                row = run_load({"mode": "closed", "base": stack.base_url, "players": players,
                                "pool": pools[f"c{players}"], "warmup": warmup, "duration": args.duration},
                               timeout=args.duration + warmup + 120)
                if spy is not None:
                    spy.wait(timeout=60)
                log(f"  {row['moves_per_s']} moves/s, {row['pages_per_s']} pages/s, "
                    f"client CPU {row['client_cpu_share']:.0%}")
                results["closed_loop"].append(row)

        if wants(args, "open"):
            log("open loop, 20 moves/s + 100 page views/s ...")
            row = run_load({"mode": "open", "base": stack.base_url, "moves_per_s": 20, "pages_per_s": 100,
                            "pool": pools["open"], "games": 32 if args.quick else 64, "warmup": warmup,
                            "duration": args.open_duration}, timeout=args.open_duration + warmup + 120)
            log(f"  move POST p50 {row['move_post'].get('p50_ms')} ms p99 {row['move_post'].get('p99_ms')} ms; "
                f"page p50 {row['game_page'].get('p50_ms')} ms p99 {row['game_page'].get('p99_ms')} ms")
            results["open_loop"] = row

        if wants(args, "growth"):
            log("growth ...")
            results["growth"] = growth.run(repeat=5 if args.quick else 15, log=log)

        if wants(args, "fanout"):
            log(f"fan-out, {args.emails} e-mails ...")
            results["fanout"] = fanout.run(stack.mail_dir, count=args.emails, log=log)
            log(f"  {results['fanout']['delivered']} delivered in {results['fanout']['seconds']} s")
    finally:
        stack.stop()

    results["targets"] = report.targets(results)
    results["elapsed_s"] = round(time.monotonic() - STARTED, 1)
    args.results.parent.mkdir(parents=True, exist_ok=True)
    args.results.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    markdown = report.markdown(results)
    args.doc.parent.mkdir(parents=True, exist_ok=True)
    args.doc.write_text(markdown)
    print(report.table(results))
    log(f"wrote {args.results.relative_to(BASE_DIR) if args.results.is_relative_to(BASE_DIR) else args.results} "
        f"and {args.doc.relative_to(BASE_DIR) if args.doc.is_relative_to(BASE_DIR) else args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
