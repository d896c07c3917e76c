"""The stack under test: a fresh benchmark database and the site's processes, as in production.

- ``bench_database_url``: the same PostgreSQL server as DATABASE_URL, database ``<name>_bench``.
- ``recreate_database``: DROP ... WITH (FORCE) and CREATE, so every run starts empty.
- ``Stack``: the SMTP catcher, the Celery workers and uvicorn (several worker processes,
  DEBUG=0, SECRET_KEY, ALLOWED_HOSTS=127.0.0.1, no SSL redirect, cookies not secure)
  on a free loopback port. Each process gets its own session, so stopping it
  stops its children too; only processes this module started are ever signalled.
  It serves the source tree it is given (``source``: this one by default; ``--before REV`` serves another
  commit's checkout beside it, bench/before.py, with its own queues and cache prefix).
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

BASE_DIR = Path(__file__).resolve().parent.parent


def bench_database_url(url: str) -> str:
    parts = urlsplit(url)
    name = parts.path.lstrip("/") or "mammamia"
    return urlunsplit(parts._replace(path=f"/{name}_bench"))


def libpq_conninfo(url: str, database: str | None = None) -> str:
    """A libpq URI for psycopg/pgbench (``postgres://`` + a percent-encoded socket dir both work)."""
    parts = urlsplit(url)
    if database is not None:
        parts = parts._replace(path=f"/{database}")
    return urlunsplit(parts._replace(scheme="postgresql"))


def database_name(url: str) -> str:
    return unquote(urlsplit(url).path.lstrip("/"))


def recreate_database(url: str) -> None:
    import psycopg
    from psycopg import sql

    name = database_name(url)
    with psycopg.connect(libpq_conninfo(url, "postgres"), autocommit=True) as conn:
        conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def free_port() -> int:
    return free_port_on("127.0.0.1")


def free_port_on(host: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def queue_names(env) -> tuple[str, str, str]:
    """The Celery queues of a bench stack (main, outgoing, slow): ``BENCH_QUEUE`` names them apart, so two stacks
    on one broker (a run with ``--before``) never take each other's tasks."""
    main = env.get("BENCH_QUEUE") or "mammamia-bench"
    return main, f"{main}-outgoing", f"{main}-slow"


def production_environment(*, database_url: str, email_port: int, work_dir: Path) -> dict[str, str]:
    """The environment of every process of the run: production settings on loopback."""
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "DEBUG": "0",
            "SECRET_KEY": env.get("BENCH_SECRET_KEY") or secrets.token_urlsafe(50),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "SECURE_HSTS_SECONDS": "0",
            "DATABASE_URL": database_url,
            "EMAIL_URL": f"smtp://127.0.0.1:{email_port}",
            "SITE_URL": "http://127.0.0.1",
            "BOT_MOVE_DELAY_SECONDS": "0",
            "LOG_LEVEL": env.get("BENCH_LOG_LEVEL", "WARNING"),
            "BENCH_STATIC_ROOT": str(work_dir / "static"),
            "PYTHONUNBUFFERED": "1",
        }
    )
    env.pop("CELERY_TASK_ALWAYS_EAGER", None)
    broker = env.get("CELERY_BROKER_URL", "")
    if not env.get("CACHE_URL") and broker.startswith("redis://"):
        # One cache for every web process, as in production (the boards, the sessions): database 1 of the
        # broker's Redis. Without it each process kept its own, sessions stayed in the database and a board
        # rendered by one process was rendered again by the next (issue 33).
        env["CACHE_URL"] = f"{broker.rsplit('/', 1)[0]}/1" if broker.count("/") > 2 else f"{broker}/1"
    return env


@dataclass
class Process:
    name: str
    popen: subprocess.Popen
    log: Path

    def stop(self, timeout: float = 15.0) -> None:
        if self.popen.poll() is not None:
            return
        try:
            os.killpg(self.popen.pid, signal.SIGTERM)  # the group this module created for it
        except ProcessLookupError:
            return
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.popen.pid, signal.SIGKILL)
            self.popen.wait(timeout=5)


@dataclass
class Stack:
    env: dict[str, str]
    work_dir: Path
    web_workers: int = 4
    celery_concurrency: int = 2
    port: int = 0
    email_port: int = 0
    web_options: list[str] = field(default_factory=list)
    # "uvicorn" (the site and the streams), "gunicorn" (the WSGI site alone, as before live updates), or
    # "split-gunicorn"/"split-granian": the pages on that WSGI server, the streams on uvicorn beside it.
    server: str = "uvicorn"
    processes: dict[str, Process] = field(default_factory=dict)
    urls: dict[str, str] = field(default_factory=dict)
    on_start: Callable[[int], None] | None = None  # e.g. renice each process started from now on
    source: Path = BASE_DIR  # the tree served (another commit's checkout for --before)
    python: str = sys.executable
    label: str = ""  # names its Celery workers apart from another stack's on the same broker

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def mail_dir(self) -> Path:
        return self.work_dir / "mail"

    def _start(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> Process:
        log = self.work_dir / f"{name}.log"
        handle = log.open("ab")
        popen = subprocess.Popen(
            argv, cwd=self.source, env={**self.env, **(env or {})}, stdin=subprocess.DEVNULL, stdout=handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        handle.close()
        process = Process(name, popen, log)
        self.processes[name] = process
        if self.on_start is not None:
            self.on_start(popen.pid)
        return process

    def start_mail(self) -> None:
        self.mail_dir.mkdir(parents=True, exist_ok=True)
        self._start("mail", [self.python, "-m", "mammamia.mailcatcher", "--host", "127.0.0.1",
                             "--port", str(self.email_port), "--folder", str(self.mail_dir)])
        _wait(lambda: _port_open(self.email_port), 20, "the mail catcher")

    def start_workers(self) -> None:
        from mammamia.workers import worker_commands

        # One worker per queue, as in production: the main one with the bench's concurrency.
        main_queue, outgoing_queue, slow_queue = queue_names(self.env)
        node = f"bench-{self.label}-{os.getpid()}" if self.label else f"bench-{os.getpid()}"
        for name, argv in worker_commands(self.python, concurrency=self.celery_concurrency,
                                          name=node, loglevel="warning",
                                          extra=("--without-gossip", "--without-mingle"),
                                          main_queue=main_queue, outgoing_queue=outgoing_queue,
                                          slow_queue=slow_queue).items():
            self._start(name, argv)
        from mammamia.celery import app

        def answers() -> bool:
            self._alive("worker")
            self._alive("worker-outgoing")
            # This stack's own workers: another stack's on the same broker answer pings too.
            return sum(f"-{node}@" in name for reply in app.control.ping(timeout=0.5) for name in reply) >= 2

        _wait(answers, 60, "the Celery worker")

    def start_web(self) -> None:
        if self.server.startswith("split"):
            # The pages on a plain WSGI server, the live-update streams on the ASGI one (issue 33's server tax):
            # a proxy sends /live/stream/ to the latter (docs/deploying.md); here the clients do.
            self.port = self.start_server("web", self.server.split("-", 1)[1] if "-" in self.server else "gunicorn")
            self.start_server("web-live", "uvicorn")
        else:
            self.port = self.start_server("web", self.server)

    @property
    def stream_url(self) -> str:
        """Where the live-update streams are served: the ASGI server (the site's own address unless split)."""
        return self.urls.get("web-live", self.base_url)

    def start_server(self, name: str, server: str, *, host: str = "127.0.0.1", workers: int | None = None,
                     env: dict[str, str] | None = None) -> int:
        """Serve the site with ``server`` as process ``name`` on a free port of ``host``; its port.

        ``uvicorn``: production's ``mammamia.asgi`` (the WSGI site in ``WEB_THREADS`` threads per process
        through a2wsgi, and the live-update streams); ``gunicorn`` and ``granian``: the WSGI site alone, no
        wrapper (``granian`` only when installed); ``granian-asgi``: ``mammamia.asgi`` under granian.
        """
        port = free_port_on(host)
        workers = workers or self.web_workers
        address = f"{host}:{port}"
        if server == "gunicorn":
            argv = [self.python, "-m", "gunicorn", "mammamia.wsgi", "-b", address, "-w", str(workers),
                    "--backlog", "2048", "--timeout", "60", "--graceful-timeout", "10"]
        elif server in ("granian", "granian-asgi"):
            wsgi = server == "granian"
            argv = [self.python, "-m", "granian", "--interface", "wsgi" if wsgi else "asgi",
                    "mammamia.wsgi:application" if wsgi else "mammamia.asgi:application",
                    "--host", host, "--port", str(port), "--workers", str(workers), "--backlog", "2048",
                    "--no-ws", "--log-level", "warning"]
            if wsgi:
                # As many blocking threads per process as the ASGI site's WEB_THREADS, so the two compare.
                argv += ["--blocking-threads", self.env.get("WEB_THREADS", "4")]
        else:
            argv = [self.python, "-m", "uvicorn", "mammamia.asgi:application", "--host", host,
                    "--port", str(port), "--workers", str(workers), "--backlog", "4096",
                    "--timeout-graceful-shutdown", "5", *(self.web_options or ["--no-access-log"])]
        self._start(name, argv, env=env)
        base = f"http://{host}:{port}"
        self.urls[name] = base

        def answers() -> bool:
            self._alive(name)
            try:
                with urllib.request.urlopen(f"{base}/", timeout=15) as response:  # noqa: S310 - loopback
                    return response.status == 200
            except OSError:
                return False

        # A cold worker's first page (imports, URL resolvers, templates) is slow on a loaded machine.
        _wait(answers, 240, f"{server} ({name})")
        # Warm every worker (imports, templates, URL resolvers) before anything is measured.
        for _ in range(workers * 6):
            with urllib.request.urlopen(f"{base}/", timeout=60) as response:  # noqa: S310 - loopback
                response.read()
        return port

    def stop_process(self, name: str) -> None:
        process = self.processes.pop(name, None)
        if process is not None:
            process.stop()

    def pid(self, name: str) -> int | None:
        process = self.processes.get(name)
        return process.popen.pid if process is not None and process.popen.poll() is None else None

    def _alive(self, name: str) -> None:
        process = self.processes[name]
        if process.popen.poll() is not None:
            tail = process.log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"{name} exited with {process.popen.returncode}:\n{tail}")

    def stop(self) -> None:
        for name in [name for name in self.processes if name not in ("worker", "worker-outgoing", "mail")]:
            self.stop_process(name)
        for name in ("worker", "worker-outgoing", "mail"):
            self.stop_process(name)


def _port_open(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def _wait(check, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not come up within {seconds:.0f} s")


def run_json_module(module: str, plan: dict, timeout: float, *, source: Path = BASE_DIR, python: str | None = None,
                    env: dict[str, str] | None = None) -> dict:
    """Run ``python -m <module>`` with ``plan`` as JSON on its stdin and return the JSON it prints (the bench's
    load generators run as their own processes so their CPU is not the site's; ``source`` and ``env``: in
    another tree, e.g. the baseline's of ``--before``)."""
    done = subprocess.run([python or sys.executable, "-m", module], cwd=source, input=json.dumps(plan),
                          capture_output=True, text=True, timeout=timeout, check=False, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{module} failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)

