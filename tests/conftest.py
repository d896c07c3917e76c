"""Shared fixtures and factories (pytest-django against real PostgreSQL)."""

from __future__ import annotations

import factory
import pytest
from allauth.account.models import EmailAddress
from django.conf import settings
from django.utils import translation

from mammamia.celery import app as celery_app


def pytest_collection_modifyitems(config, items):
    """Under ``make test``'s several processes (pytest-xdist, ``--dist loadgroup``) the tests that start real
    workers, web processes and mail servers (the ``integration`` marker) run one after another in one process:
    each waits on the real ones with deadlines of seconds, which two of them side by side on a small machine
    would stretch; the rest of the suite spreads over the other processes meanwhile."""
    for item in items:
        if item.get_closest_marker("integration") and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group("integration"))


@pytest.fixture(autouse=True)
def _plain_http_fast_hashing_plain_static(settings):
    """Production settings, minus what a test client on plain HTTP cannot use."""
    # Tests run with DEBUG off, i.e. production's HTTPS redirect; the test client speaks HTTP.
    settings.SECURE_SSL_REDIRECT = False
    # The flows log in many times; the hash algorithm is not what they test.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Production's manifest storage needs a collectstatic the tests don't run.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _site_language_at_start():
    """Each test starts in the site's language (English): a request through LocaleMiddleware leaves its
    language active in the process, so a test calling a service directly after another test's French request
    would read French (which tests ran before it in the same process depends on how xdist shares them out)."""
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def eager_celery(settings):
    """Celery tasks (bot moves, e-mail delivery) run at once, inside the committing call."""
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.BOT_MOVE_DELAY_SECONDS = 0
    previous = celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = previous


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = "accounts.User"
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.com")
    password = factory.django.Password("correct horse battery staple")

    @factory.post_generation
    def verified_email(user, create, extracted, **kwargs):  # noqa: N805 - factory_boy hook
        if create and extracted is not False:
            EmailAddress.objects.get_or_create(
                user=user, email=user.email, defaults={"verified": True, "primary": True}
            )


@pytest.fixture
def user_factory(db):
    return UserFactory


@pytest.fixture
def user(user_factory):
    return user_factory()


@pytest.fixture
def logged_in_client(client, user):
    client.force_login(user)
    return client
