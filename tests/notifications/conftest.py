"""Fixtures of the notification tests: Celery eager (tasks run in the committing call), games, a scriptable mailer."""

from __future__ import annotations

import pytest


@pytest.fixture
def site(settings):
    settings.SITE_URL = "https://play.example"
    from notifications.outbox import mail_domain

    mail_domain.cache_clear()
    yield settings
    mail_domain.cache_clear()


@pytest.fixture
def scripted_mailer(settings):
    """MAILERS pointing at notify_helpers.ScriptedBackend; returns the class to script failures."""
    from notify_helpers import ScriptedBackend

    ScriptedBackend.reset()
    settings.MAILERS = {"default": {"BACKEND": "notify_helpers.ScriptedBackend"}}
    yield ScriptedBackend
    ScriptedBackend.reset()


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"p{n}", display_name=f"Player {n}") for n in range(4)]


@pytest.fixture
def run_on_commit(django_capture_on_commit_callbacks):
    """Use as ``with run_on_commit(): ...``: on-commit callbacks (the delivery queueing) run at the end."""

    def context():
        return django_capture_on_commit_callbacks(execute=True)

    return context
