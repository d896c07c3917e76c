"""Scale-out (issue 33): two web servers, two Celery workers, PostgreSQL behind PgBouncer in transaction mode.

The site as it would run on several hosts, on one machine: two web servers (production's server and
settings) bound to 127.0.0.2 and 127.0.0.3 (standing in for two hosts), two Celery workers of the main
queue, one PostgreSQL reached only through PgBouncer in transaction mode (Debian's ``pgbouncer``, started
here like the other services) and the run's one Redis. It shows:

- moves posted through one server update the streams pages hold on the other (update latency, missed
  updates: none may be lost);
- moves/s of a 32-player closed loop through both servers vs through one (on 2 cores it cannot double:
  the point is that nothing breaks — no error, no refused move, no missed update);
- everything under transaction pooling (``DB_TRANSACTION_POOLING=1``: no server-side cursor, no prepared
  statement; mammamia/settings.py).

Skipped, with the reason in the results, where there is no ``pgbouncer``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from bench.stack import Stack, _port_open, _wait, database_name, free_port

HOSTS = ("127.0.0.2", "127.0.0.3")


def pgbouncer_binary() -> str | None:
    return shutil.which("pgbouncer") or next(
        (path for path in ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer") if Path(path).exists()), None
    )


class PgBouncer:
    """One PgBouncer in transaction mode in front of ``database_url``'s server, on a free loopback port."""

    def __init__(self, binary: str, database_url: str, work_dir: Path) -> None:
        self.binary, self.folder = binary, work_dir / "pgbouncer"
        self.port = free_port()
        self.name = database_name(database_url)
        parts = urlsplit(database_url)
        self.user = unquote(parts.username or "postgres")
        host = unquote(parts.hostname or "") if not parts.netloc.split("@")[-1].startswith("%2F") else ""
        # A socket directory given percent-encoded as the host (the embedded server's).
        socket_dir = unquote(parts.netloc.split("@")[-1].split(":")[0]) if not host else ""
        self.server = f"host={socket_dir or host} port={parts.port or 5432} dbname={self.name} user={self.user}"
        self.popen: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"postgres://{self.user}@127.0.0.1:{self.port}/{self.name}"

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "userlist.txt").write_text(f'"{self.user}" ""\n')
        (self.folder / "pgbouncer.ini").write_text(
            "\n".join(
                [
                    "[databases]",
                    f"{self.name} = {self.server}",
                    "[pgbouncer]",
                    "listen_addr = 127.0.0.1",
                    f"listen_port = {self.port}",
                    "unix_socket_dir =",
                    "auth_type = trust",
                    f"auth_file = {self.folder / 'userlist.txt'}",
                    "pool_mode = transaction",
                    "max_client_conn = 2000",
                    "default_pool_size = 20",
                    # psycopg sends none of these by default; a client that does is not refused for it.
                    "ignore_startup_parameters = extra_float_digits,options",
                    f"logfile = {self.folder / 'pgbouncer.log'}",
                    f"pidfile = {self.folder / 'pgbouncer.pid'}",
                    "",
                ]
            )
        )
        preexec = None
        if os.geteuid() == 0:
            # PgBouncer refuses to run as root: as the owner of the PostgreSQL socket it connects to.
            owner = self._socket_owner()
            for path in self.folder.rglob("*"):
                os.chown(path, owner[0], owner[1])
            os.chown(self.folder, owner[0], owner[1])

            def preexec() -> None:
                os.setgid(owner[1])
                os.setuid(owner[0])

        self.popen = subprocess.Popen(  # noqa: PLW1509 - preexec_fn only drops root, before exec
            [self.binary, str(self.folder / "pgbouncer.ini")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, preexec_fn=preexec,
        )
        _wait(lambda: self.popen.poll() is None and _port_open(self.port), 20, "pgbouncer")

    def _socket_owner(self) -> tuple[int, int]:
        socket_dir = self.server.split("host=", 1)[1].split()[0]
        if socket_dir.startswith("/"):
            info = Path(socket_dir).stat()
            return info.st_uid, info.st_gid
        return 65534, 65534  # nobody

    def stop(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            try:
                self.popen.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.popen.kill()
                self.popen.wait(timeout=5)


def run(*, stack: Stack, database_url: str, work_dir: Path, pools: dict, roots: dict, run_load, warmup: float,
        seconds: float, quick: bool, log) -> dict:
    binary = pgbouncer_binary()
    if binary is None:
        return {"skipped": "no pgbouncer (Debian: apt-get install pgbouncer; `make bench` installs it)"}
    bouncer = PgBouncer(binary, database_url, work_dir)
    bouncer.start()
    log(f"scale-out: pgbouncer (transaction mode) on 127.0.0.1:{bouncer.port}")
    env = {"DATABASE_URL": bouncer.url, "DB_TRANSACTION_POOLING": "1",
           "ALLOWED_HOSTS": ",".join(("127.0.0.1", *HOSTS))}
    results: dict = {"pgbouncer": subprocess.run([binary, "--version"], capture_output=True, text=True,
                                                 check=False).stdout.strip().splitlines()[0:1],
                     "hosts": list(HOSTS)}
    started: list[str] = []
    try:
        # The run's own workers read the database directly: two through PgBouncer take the main queue instead.
        stack.stop_process("worker")
        from bench import settings as bench_settings
        from mammamia.workers import worker_commands

        for index in range(2):
            argv = worker_commands(sys.executable, concurrency=1, name=f"scale{index}-{os.getpid()}",
                                   loglevel="warning", extra=("--without-gossip", "--without-mingle"),
                                   main_queue=bench_settings.CELERY_TASK_DEFAULT_QUEUE,
                                   outgoing_queue=bench_settings.CELERY_OUTGOING_QUEUE)["worker"]
            stack._start(f"scale-worker-{index}", argv, env=env)
            started.append(f"scale-worker-{index}")
        workers = max(1, stack.web_workers // 2)
        # One server per host that serves the pages and holds the streams (uvicorn), whatever the run's layout:
        # what crosses hosts here is the database (through PgBouncer) and Redis, not the server.
        server = "uvicorn" if stack.server.startswith("split") else stack.server
        bases = []
        for index, host in enumerate(HOSTS):
            name = f"scale-web-{index}"
            port = stack.start_server(name, server, host=host, workers=workers, env=env)
            started.append(name)
            bases.append(f"http://{host}:{port}")
        log(f"scale-out: {server} on {' and '.join(bases)} ({workers} worker processes each), "
            "2 Celery workers, all through pgbouncer")
        scale_roots = {
            "web": None, "workers": None, "db": roots.get("db"), "broker": roots.get("broker"),
        }
        web_pids = [stack.pid(f"scale-web-{i}") for i in range(2)]
        worker_pids = [stack.pid(f"scale-worker-{i}") for i in range(2)]

        def tree_roots(webs: list[int | None]) -> dict:
            found = dict(scale_roots)
            for i, pid in enumerate(webs):
                found[f"web{i}"] = pid
            for i, pid in enumerate(worker_pids):
                found[f"worker{i}"] = pid
            found["pgbouncer"] = bouncer.popen.pid if bouncer.popen else None
            return {k: v for k, v in found.items() if v}

        from bench import live_runner

        latency = live_runner.cross_server_latency(
            post_base=bases[0], stream_base=bases[1], pool=pools["scale-live"], quick=quick, roots=tree_roots(web_pids),
        )
        results["latency_post_a_streams_b"] = latency
        log(f"  moves through {bases[0]}, streams on {bases[1]}: p50 {latency['from_publish'].get('p50_ms')} ms, "
            f"p99 {latency['from_publish'].get('p99_ms')} ms, {latency['missed']} missed, "
            f"move errors {latency['move_errors'] or 'none'}")
        closed = {}
        for label, targets in (("one server", bases[:1]), ("two servers", bases)):
            pool = pools["scale-one" if label == "one server" else "scale-two"]
            row = run_load({"cpu_roots": tree_roots(web_pids), "mode": "closed", "base": targets[0], "bases": targets,
                            "players": 32, "pool": pool, "warmup": warmup, "duration": seconds},
                           timeout=seconds + warmup + 120)
            closed[label] = row
            log(f"  closed loop 32 players, {label}: {row['moves_per_s']} moves/s, errors {row['errors'] or 'none'}, "
                f"refused {row['refused']}")
        results["closed_32"] = closed
        results["pgbouncer_log_errors"] = _bouncer_errors(bouncer)
        results["server_errors"] = {name: _server_errors(stack, name) for name in started}
    finally:
        for name in started:
            stack.stop_process(name)
        bouncer.stop()
    return results


def _bouncer_errors(bouncer: PgBouncer) -> list[str]:
    try:
        lines = (bouncer.folder / "pgbouncer.log").read_text(errors="replace").splitlines()
    except OSError:
        return []
    return [line for line in lines if " ERROR " in line or " FATAL " in line][-10:]


def _server_errors(stack: Stack, name: str) -> list[str]:
    process = stack.processes.get(name)
    if process is None:
        return []
    try:
        lines = process.log.read_text(errors="replace").splitlines()
    except OSError:
        return []
    return [line for line in lines if "Traceback" in line or "ERROR" in line][-10:]

