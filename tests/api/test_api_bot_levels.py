"""Bot levels through the API (issue 28): one level per bot seat at creation, a level for a bot added later,
and each seat's level in every seat list beside the name that says it too."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_game_is_created_with_a_level_per_bot_and_the_seats_say_it(token_client, players):
    api = token_client(players[0])
    created = api.post(
        reverse("api-games"), {"game": "marumiere", "players": 4, "bots": 2, "bot_levels": ["strong", "easy"]}
    )
    assert created.status_code == 201, created.content[:500]
    seats = {s["name"]: s["bot_level"] for s in created.json()["seats"]}
    assert seats == {players[0].public_name: None, "Bot 2 (strong)": "strong", "Bot 3 (easy)": "easy"}
    added = api.post(reverse("api-game-bots", args=[created.json()["id"]]), {"level": "strong"})
    assert added.status_code == 200
    assert sorted(s["bot_level"] for s in added.json()["seats"] if s["is_bot"]) == ["easy", "strong", "strong"]
    assert "Bot 4 (strong)" in [s["name"] for s in added.json()["seats"]]


def test_bots_without_levels_play_at_normal(token_client, players):
    created = token_client(players[0]).post(reverse("api-games"), {"game": "marumiere", "players": 3, "bots": 1})
    assert [s["bot_level"] for s in created.json()["seats"] if s["is_bot"]] == ["normal"]


@pytest.mark.parametrize(
    "body",
    [
        {"bots": 2, "bot_levels": ["strong"]},
        {"bots": 1, "bot_levels": ["genius"]},
        {"bots": 1, "bot_levels": "strong"},
        {"bots": 1, "bot_levels": [1]},
        {"bots": 1, "bot_levels": {"0": "strong"}},
    ],
)
def test_a_wrong_list_of_levels_is_a_400_in_the_users_language_and_makes_no_game(token_client, players, body):
    api = token_client(players[0])
    response = api.post(reverse("api-games"), {"game": "marumiere", "players": 4, **body})
    assert response.status_code == 400 and response.json()["error"] == "invalid"
    assert "bot_levels" in response.json()["fields"]
    assert api.get(reverse("api-games")).json()["results"] == []


def test_adding_a_bot_of_an_unknown_level_is_a_400(token_client, players):
    api = token_client(players[0])
    game_id = api.post(reverse("api-games"), {"game": "marumiere", "players": 3}).json()["id"]
    response = api.post(reverse("api-game-bots", args=[game_id]), {"level": "genius"})
    assert response.status_code == 400 and "level" in response.json()["fields"]
