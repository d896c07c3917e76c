"""Chat and notes cost a fixed number of queries per page, however long the chat or the history."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from game_helpers import start_game

from together import services
from together.models import ChatMessage


def counted(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code in (200, 204)
    return len(queries)


@pytest.mark.django_db
def test_game_page_partial_and_my_games_queries_do_not_grow_with_the_chat(client, players):
    game = start_game("konamon", players[:3])
    services.post_chat_message(user=players[0], game_id=game.pk, text="one")
    services.save_note(user=players[1], game_id=game.pk, text="a note")
    client.force_login(players[1])
    page, partial = reverse("game", args=[game.pk]), reverse("game-table", args=[game.pk])
    my_games = reverse("my-games")
    client.get(page)  # the first visit records it (an UPDATE), as before this app
    services.post_chat_message(user=players[0], game_id=game.pk, text="two")
    small = counted(client, page), counted(client, partial + "?v=old"), counted(client, my_games)
    ChatMessage.objects.bulk_create(
        [ChatMessage(game=game, author=players[2], seat_number=2, author_name="x", text=f"m{n}") for n in range(300)]
    )
    services.post_chat_message(user=players[0], game_id=game.pk, text="three")
    large = counted(client, page), counted(client, partial + "?v=old"), counted(client, my_games)
    print(f"queries (page, partial, my games) with 2 messages: {small}; with 303: {large}")
    assert small == large
    assert large[0] <= 10 and large[1] <= 10
