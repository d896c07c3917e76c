"""``make run``: migrate, then serve the site (uvicorn) with a Celery worker and beat.

Runs under ``mammamia.devservices`` so DATABASE_URL and CELERY_BROKER_URL
point at real services. Processes are managed by honcho: Ctrl-C stops them all.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parent.parent


def main() -> int:
    python = sys.executable
    env = dict(os.environ)
    env.setdefault("DJANGO_SETTINGS_MODULE", "mammamia.settings")
    procfile_lines = []
    if not env.get("EMAIL_URL"):
        env["EMAIL_URL"] = "smtp://127.0.0.1:1025"
        procfile_lines.append(f"mail: {python} -m mammamia.mailcatcher --port 1025")
    subprocess.run([python, "manage.py", "migrate", "--noinput"], check=True, cwd=BASE_DIR, env=env)
    port = env.get("PORT", "8000")
    # The ASGI server, as in production: the site plus the live-update streams (mammamia/asgi.py).
    uvicorn = (
        f"{python} -m uvicorn mammamia.asgi:application --host 127.0.0.1 --port {port} --timeout-graceful-shutdown 2"
    )
    if env.get("DEBUG", "0").lower() in ("1", "true", "yes", "on"):
        web = f"{uvicorn} --reload"
    else:
        subprocess.run([python, "manage.py", "collectstatic", "--noinput", "-v0"], check=True, cwd=BASE_DIR, env=env)
        web = f"{uvicorn} --workers 2"
    procfile_lines += [
        f"web: {web}",
        f"worker: {python} -m celery -A mammamia worker -l info -c 2",
        f"beat: {python} -m celery -A mammamia beat -l info -s {BASE_DIR / 'var' / 'celerybeat-schedule'}",
    ]
    # Moves by e-mail reply: the inbound listener (reach/inbound.py). In development the domain is a
    # placeholder: send replies to 127.0.0.1:2525 yourself (README, "Moves by e-mail reply").
    env.setdefault("INBOUND_MAIL_DOMAIN", "reply.localhost")
    procfile_lines.append(f"inbound: {python} manage.py receive_mail --port {env.get('INBOUND_MAIL_PORT', '2525')}")
    procfile = BASE_DIR / "var" / "Procfile.run"
    procfile.parent.mkdir(parents=True, exist_ok=True)
    procfile.write_text("\n".join(procfile_lines) + "\n")
    print(f"mammamia at http://127.0.0.1:{port}/  (Ctrl-C stops everything)", flush=True)
    return subprocess.call([python, "-m", "honcho", "-f", str(procfile), "-d", str(BASE_DIR), "start"], env=env)


if __name__ == "__main__":
    sys.exit(main())
