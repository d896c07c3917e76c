"""``make run``: migrate, then serve the site with Celery workers (one per queue) and beat.

The site: with ``DEBUG=1`` (the default) one uvicorn serving the pages and the live-update streams, reloading on
changes; with ``DEBUG=0`` as in production, the pages on granian (a plain WSGI server) and the streams on uvicorn
on the next port (``LIVE_PORT``), which the pages are told of (``LIVE_STREAM_URL``).

Runs under ``mammamia.devservices`` so DATABASE_URL and CELERY_BROKER_URL
point at real services. Processes are managed by honcho: Ctrl-C stops them all.

``PORT`` (default 8000) is the site's port, and ``SITE_URL`` follows it unless set, so e-mails link
to the port actually served. A taken ``PORT`` stops with a clear message before anything starts; a
taken mail-catcher port (``MAIL_PORT``, default 1025) is replaced by a free one instead of taking the
whole site down.
"""

from __future__ import annotations

import os
import shlex
import socket
import subprocess
import sys
from pathlib import Path

from mammamia.workers import worker_commands

BASE_DIR = Path(__file__).resolve().parent.parent


def port_is_free(port: int, *, host: str = "127.0.0.1") -> bool:
    """Whether a server could listen on ``host:port`` now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def free_port(preferred: int, *, host: str = "127.0.0.1") -> int:
    """``preferred`` if it is free, else a port the system hands out."""
    if port_is_free(preferred, host=host):
        return preferred
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def main() -> int:
    python = sys.executable
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "mammamia.settings")
    port = env.get("PORT", "8000")
    if not port.isdigit() or not port_is_free(int(port)):
        print(f"make run: port {port} is taken (or not a port). Use another: PORT=8001 make run", file=sys.stderr)
        return 1
    env.setdefault("SITE_URL", f"http://127.0.0.1:{port}")
    procfile_lines = []
    if not env.get("EMAIL_URL"):
        wanted = int(env.get("MAIL_PORT", "1025"))
        mail_port = free_port(wanted)
        if mail_port != wanted:
            print(f"make run: mail-catcher port {wanted} is taken; catching e-mails on port {mail_port}.", flush=True)
        env["EMAIL_URL"] = f"smtp://127.0.0.1:{mail_port}"
        procfile_lines.append(f"mail: {python} -m mammamia.mailcatcher --port {mail_port}")
    subprocess.run([python, "manage.py", "migrate", "--noinput"], check=True, cwd=BASE_DIR, env=env)
    uvicorn = f"{python} -m uvicorn mammamia.asgi:application --host 127.0.0.1 --timeout-graceful-shutdown 2"
    if env.get("DEBUG", "0").lower() in ("1", "true", "yes", "on"):
        # Development: one ASGI server for the pages and the streams (mammamia/asgi.py), reloading on changes.
        servers = [f"web: {uvicorn} --port {port} --reload"]
    else:
        subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], check=True, cwd=BASE_DIR, env=env)
        # As in production (docs/deploying.md, issue 33): the pages on a plain WSGI server, without the ASGI
        # wrapper's cost per request, and the live-update streams on the ASGI server beside it; with no proxy
        # in front here, the pages open their streams at its own address.
        live_port = free_port(int(env.get("LIVE_PORT", str(int(port) + 1))))
        env.setdefault("LIVE_STREAM_URL", f"http://127.0.0.1:{live_port}/live/stream/")
        servers = [
            f"web: {python} -m granian --interface wsgi mammamia.wsgi:application --host 127.0.0.1 --port {port} "
            "--workers 2 --blocking-threads 4 --no-ws --log-level warning",
            f"live: {uvicorn} --port {live_port} --workers 1",
        ]
    procfile_lines += [
        *servers,
        # One worker per queue (mammamia/workers.py): webhooks and push never delay moves and e-mails.
        *(f"{key}: {shlex.join(argv)}" for key, argv in worker_commands(python, concurrency=2, name="run").items()),
        f"beat: {python} -m celery -A mammamia beat -l info -s {BASE_DIR / 'var' / 'celerybeat-schedule'}",
    ]
    # Moves by e-mail reply: the inbound listener (reach/inbound.py). In development the domain is a
    # placeholder: send replies to 127.0.0.1:2525 yourself (docs/notifications.md, "Moves by e-mail reply").
    env.setdefault("INBOUND_MAIL_DOMAIN", "reply.localhost")
    procfile_lines.append(f"inbound: {python} manage.py receive_mail --port {env.get('INBOUND_MAIL_PORT', '2525')}")
    procfile = BASE_DIR / "var" / "Procfile.run"
    procfile.parent.mkdir(parents=True, exist_ok=True)
    procfile.write_text("\n".join(procfile_lines) + "\n")
    print(f"mammamia at http://127.0.0.1:{port}/  (Ctrl-C stops everything)", flush=True)
    honcho = subprocess.Popen([python, "-m", "honcho", "-f", str(procfile), "-d", str(BASE_DIR), "start"], env=env)
    try:
        return honcho.wait()
    except KeyboardInterrupt:
        # honcho got the same Ctrl-C and stops its processes: wait for it quietly, no traceback.
        try:
            honcho.wait()
        except KeyboardInterrupt:
            honcho.terminate()
            honcho.wait()
        return 0


if __name__ == "__main__":
    sys.exit(main())
