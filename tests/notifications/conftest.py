"""Fixtures of the notification tests: Celery eager (tasks run in the committing call), games, a scriptable mailer."""

from __future__ import annotations

import pytest

from mammamia.celery import app as celery_app


@pytest.fixture(autouse=True)
def test_settings(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.SECURE_SSL_REDIRECT = False


@pytest.fixture
def eager_celery(settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_MOVE_DELAY_SECONDS = 0
    previous = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


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
