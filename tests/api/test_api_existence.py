"""Existence never leaks: every operation on a game answers a private game I may not see exactly as it answers
an id that does not exist (issue 29 item 7: resign and call-off said 403 ``not_seated`` for the one, 404 for the
other)."""

from __future__ import annotations

import json

import pytest

from games.models import Game
from tests.api.conftest import api_token
from tests.games.game_helpers import start_game

pytestmark = pytest.mark.django_db

BODIES = {  # a body each operation accepts, so the refusal is about the game, not the input
    "moves": {"move": {"type": "pass"}, "version": 1},
    "call-off/answer": {"accept": True},
    "hand-over": {"seat": 0},
    "chat": {"text": "hello"},
    "note": {"note": "mine"},
    "invitations": {"username": "carol"},
    "bots": {},
}


def _operations(client) -> list[tuple[str, str]]:
    schema = json.loads(client.get("/api/schema/", HTTP_ACCEPT="application/json").content)
    return [
        (method, template)
        for template, operations in schema["paths"].items()
        if template.startswith("/api/games/{game_id}/")
        for method in operations
        if method in ("get", "post", "put", "patch", "delete") and template.count("{") == 1
    ]


def test_a_private_game_i_may_not_see_answers_as_a_missing_one_everywhere(client, user_factory):
    alice, bob, carol = (user_factory(username=name) for name in ("alice", "bob", "carol"))
    hidden = start_game("konamon", [bob, carol], visibility="private")
    missing = Game.objects.order_by("-pk").values_list("pk", flat=True).first() + 1000
    headers = {"HTTP_AUTHORIZATION": f"Token {api_token(alice)}"}
    operations = _operations(client)
    assert len(operations) >= 15
    differ = []
    for method, template in operations:
        tail = template.removeprefix("/api/games/{game_id}/").rstrip("/")
        body = json.dumps(BODIES.get(tail, {}))
        answers = []
        for game_id in (hidden.pk, missing):
            url = template.format(game_id=game_id)
            if method == "get":
                response = client.get(url, **headers)
            else:
                response = getattr(client, method)(url, data=body, content_type="application/json", **headers)
            answers.append((response.status_code, response.json().get("error") if response.status_code >= 400 else ""))
        if answers[0] != answers[1]:
            differ.append(f"{method.upper()} {template}: hidden {answers[0]}, missing {answers[1]}")
    assert not differ, differ
    hidden.refresh_from_db()
    assert hidden.status == "active"
