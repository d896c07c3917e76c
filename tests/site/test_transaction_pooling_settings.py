"""Behind PgBouncer in transaction mode (docs/deploying.md, "Several hosts") a connection's consecutive
transactions may run on different server connections: with ``DB_TRANSACTION_POOLING=1`` nothing of ours may
outlive a transaction — no server-side cursor (``QuerySet.iterator()`` would DECLARE one) and no prepared
statement. Read from the settings module as a web or worker process would (issue 33)."""

import json
import os
import subprocess
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
READ = (
    "import json, django; django.setup(); from django.conf import settings; d = settings.DATABASES['default']; "
    "print(json.dumps({'cursors': d.get('DISABLE_SERVER_SIDE_CURSORS', False), "
    "'prepare': d.get('OPTIONS', {}).get('prepare_threshold', 'default')}))"
)


def database_settings(**extra: str) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "DB_TRANSACTION_POOLING"}
    env.update({"DJANGO_SETTINGS_MODULE": "mammamia.settings", **extra})
    done = subprocess.run([sys.executable, "-c", READ], cwd=BASE_DIR, env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_behind_a_transaction_pooler_no_server_side_cursor_and_no_prepared_statement():
    assert database_settings(DB_TRANSACTION_POOLING="1") == {"cursors": True, "prepare": None}


def test_a_direct_connection_keeps_the_defaults():
    assert database_settings() == {"cursors": False, "prepare": "default"}
