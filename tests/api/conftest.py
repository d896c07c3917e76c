"""Fixtures of the API tests: bots move at once (eager Celery), a token client, a table of live games."""

from __future__ import annotations

import json

import pytest


@pytest.fixture(autouse=True)
def _bots_move_at_once(eager_celery):
    """Bot tasks run at once, in the committing request."""


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"seat{n}") for n in range(5)]


def api_token(user) -> str:
    """A per-device API token of ``user`` (issue 15's knox tokens), the one to send."""
    from trust.models import ApiToken

    _row, token = ApiToken.objects.create(user=user, name="tests")
    return token


class TokenClient:
    """Django's test client speaking JSON with ``Authorization: Token <key>`` (no session)."""

    def __init__(self, client, user=None) -> None:
        self.client = client
        self.headers = {"HTTP_AUTHORIZATION": f"Token {api_token(user)}"} if user else {}

    def get(self, url, **params):
        return self.client.get(url, params, **self.headers)

    def send(self, method: str, url: str, body=None, *, raw: str | None = None, content_type="application/json"):
        data = raw if raw is not None else (json.dumps(body) if body is not None else "")
        return getattr(self.client, method)(url, data=data, content_type=content_type, **self.headers)

    def post(self, url, body=None, **kwargs):
        return self.send("post", url, body, **kwargs)


@pytest.fixture
def token_client(client):
    return lambda user=None: TokenClient(client, user)
