"""Fixtures of the channel tests: VAPID keys, a local push service, a webhook receiver, loopback allowed."""

from __future__ import annotations

import ipaddress
import sys
from pathlib import Path

import pytest

from reach import safehttp

# The channels' leak test reuses the platform leak test's hidden-card tokens, whose module imports its
# neighbours by their bare names.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "games"))


@pytest.fixture
def site(settings):
    settings.SITE_URL = "https://play.example"
    from notifications.outbox import mail_domain

    mail_domain.cache_clear()
    yield settings
    mail_domain.cache_clear()


@pytest.fixture
def vapid(settings):
    from reach.push import generate_keys

    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = generate_keys()
    settings.VAPID_SUBJECT = "mailto:ops@play.example"
    return settings


@pytest.fixture
def loopback_allowed():
    """Let the server reach receivers on 127.0.0.1 (production never can: see reach.safehttp)."""
    network = ipaddress.ip_network("127.0.0.0/8")
    safehttp.ALLOWED_FOR_TESTS.add(network)
    yield
    safehttp.ALLOWED_FOR_TESTS.discard(network)


@pytest.fixture
def push_service(loopback_allowed):
    from reach_helpers import PushService

    service = PushService()
    yield service
    service.close()


@pytest.fixture
def receiver(loopback_allowed):
    from reach_helpers import WebhookReceiver

    server = WebhookReceiver()
    yield server
    server.close()


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"r{n}", display_name=f"Reacher {n}") for n in range(3)]
