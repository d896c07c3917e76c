"""The bot task is queued by name (games.play.services.BOT_TASK, so that games.play need not import games.tasks):
it must be registered in a web process too, where Celery's autodiscovery never runs."""

from __future__ import annotations

import os
import subprocess
import sys

from django.conf import settings


def test_the_bot_task_is_registered_in_a_process_that_only_set_up_django():
    script = (
        "import django; django.setup()\n"
        "import sys\n"
        "from celery import current_app\n"
        "from games.play.services import BOT_TASK\n"
        "assert 'games.tasks' in sys.modules, 'games.tasks not imported at start-up'\n"
        "current_app.tasks[BOT_TASK]\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"}
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr[-2000:]
