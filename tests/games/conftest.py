"""Fixtures of the platform tests: eager Celery, engines that may not have landed, game helpers."""

from __future__ import annotations

import pytest

from mammamia.celery import app as celery_app


@pytest.fixture(autouse=True)
def eager_celery(settings):
    """Bot tasks run at once, in the committing request (as in CI); plain http for the test client."""
    settings.SECURE_SSL_REDIRECT = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_MOVE_DELAY_SECONDS = 0
    previous = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"seat{n}") for n in range(5)]
