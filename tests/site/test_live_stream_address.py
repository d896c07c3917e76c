"""The pages on a WSGI server and the live-update streams on the ASGI server at an address of their own
(``LIVE_STREAM_URL``; ``make run`` with DEBUG=0, issue 33): pages point their stream there, and the content
security policy lets them connect to it and to nothing else."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client

BASE_DIR = Path(__file__).resolve().parents[2]
READ = "import json, django; django.setup(); from django.conf import settings; print(json.dumps(settings.SECURE_CSP))"


def csp(**extra: str) -> dict:
    env = {key: value for key, value in os.environ.items() if key != "LIVE_STREAM_URL"}
    env.update({"DJANGO_SETTINGS_MODULE": "mammamia.settings", **extra})
    done = subprocess.run([sys.executable, "-c", READ], cwd=BASE_DIR, env=env, capture_output=True, text=True,
                          timeout=60, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_stream_at_its_own_address_is_the_one_other_origin_pages_may_connect_to():
    policy = csp(LIVE_STREAM_URL="http://127.0.0.1:8001/live/stream/")
    assert policy["connect-src"] == ["'self'", "http://127.0.0.1:8001"]


def test_a_stream_on_the_sites_own_address_adds_no_origin():
    assert "connect-src" not in csp()


@pytest.mark.django_db
def test_pages_open_their_stream_where_the_setting_says(settings):
    settings.LIVE_STREAM_URL = "http://127.0.0.1:8001/live/stream/"
    page = Client().get("/").content.decode()
    assert 'data-live-stream="http://127.0.0.1:8001/live/stream/"' in page
