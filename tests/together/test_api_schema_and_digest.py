"""Every action of playing together is in the OpenAPI schema; the daily digest mentions new chat."""

from __future__ import annotations

import pytest
from django.urls import reverse
from game_helpers import start_game

from notifications.emails import render
from notifications.models import OutboxEmail
from together import services


@pytest.mark.django_db
def test_the_schema_lists_every_action(client):
    response = client.get(reverse("api-schema"), {"format": "json"})
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path, methods in {
        "/api/games/{game_id}/chat/": {"get", "post"},
        "/api/games/{game_id}/note/": {"get", "put"},
        "/api/games/{game_id}/resign/": {"post"},
        "/api/games/{game_id}/call-off/": {"get", "post"},
        "/api/games/{game_id}/call-off/answer/": {"post"},
        "/api/games/{game_id}/hand-over/": {"post"},
        "/api/games/{game_id}/rematch/": {"get", "post"},
        "/api/games/{game_id}/rematch/accept/": {"post"},
        "/api/games/{game_id}/rematch/decline/": {"post"},
        "/api/users/{username}/block/": {"post", "delete"},
        "/api/blocks/": {"get"},
        "/api/reports/": {"post"},
    }.items():
        assert methods <= set(paths[path]), path


@pytest.mark.django_db
def test_the_digest_mentions_the_latest_chat_of_each_game(players):
    game = start_game("konamon", players[:2])
    for n in range(5):
        services.post_chat_message(user=players[0], game_id=game.pk, text=f"line {n}")
    row = OutboxEmail(user=players[1], kind=OutboxEmail.Kind.DIGEST, dedupe_key="d",
                      payload={"games": [{"game_id": game.pk, "move_types": []}]})
    _subject, text, html = render(row)
    assert "5 new messages in the chat" in text
    assert "line 4" in text and "line 2" in text and "line 1" not in text  # the latest three
    assert "line 4" in html
