"""Shared fixtures and factories (pytest-django against real PostgreSQL)."""

from __future__ import annotations

import factory
import pytest
from allauth.account.models import EmailAddress


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
