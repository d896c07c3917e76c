"""My data by API, as on ``/settings/data/`` and ``/settings/delete/``: the same archive (my own cards only), and a
deletion that takes the password — a token alone deletes nothing — under the login's limits."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from games.models import Seat, SeatView
from games.play import services as play_services
from tests.games.game_helpers import awaited_human, start_game
from trust.models import ApiToken

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery staple"  # tests/conftest.py's UserFactory


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()  # allauth's counters live in the cache
    yield
    cache.clear()


def _without_time(data: dict) -> dict:
    """An archive less what differs between two downloads: when, and the tokens' use (the API's own token)."""
    return {key: value for key, value in data.items() if key not in ("exported_at", "api_tokens")}


def test_the_export_is_the_pages_archive_with_my_own_view_and_no_other_seats_cards(token_client, players, client):
    me = players[0]
    game = start_game("mamma-mia", players[:3])
    seat, view = awaited_human(game)
    play_services.check_play_move(user=seat.user, game_id=game.pk, move=view.legal_moves[0], expected_version=0)
    client.force_login(me)  # (a login is in the archive: before both)
    page = json.loads(client.get(reverse("account-data-export")).content)
    client.logout()
    response = token_client(me).get(reverse("api-account-export"))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"] and "private" in response["Cache-Control"]
    data = response.json()
    assert _without_time(data) == _without_time(page)  # one service, one archive
    [exported] = data["games"]
    mine = Seat.objects.get(game=game, user=me)
    own = SeatView.objects.get(game=game, seat_number=mine.number).view
    assert {k: v for k, v in exported["my_view"].items() if k not in ("log", "log_size")} == own
    text = response.content.decode()
    for other in SeatView.objects.filter(game=game).exclude(seat_number=mine.number):
        assert other.view != own
        assert json.dumps(other.view) not in text
    assert all(token.token_key not in text for token in ApiToken.objects.filter(user=me))


def test_deleting_my_account_takes_my_password_even_with_a_token(
    token_client, players, django_capture_on_commit_callbacks
):
    me = players[0]
    running = start_game("marumiere", [me, players[1]])
    api = token_client(me)
    url = reverse("api-account-delete")
    for body in ({}, {"password": 12345}, {"password": "wrong"}):
        answer = api.post(url, body)
        assert answer.status_code == 400, answer.content
        assert answer.json()["error"] == "invalid" and "password" in answer.json()["fields"]
    me.refresh_from_db()
    assert me.is_active
    with django_capture_on_commit_callbacks(execute=True):
        assert api.post(url, {"password": PASSWORD}).status_code == 204
    me.refresh_from_db()
    assert not me.is_active and me.public_name == "Deleted player" and not me.has_usable_password()
    assert Seat.objects.get(game=running, user=me).is_bot  # the bot plays my seat
    assert not ApiToken.objects.filter(user=me).exists()
    assert api.get(reverse("api-settings")).status_code == 401  # the token went with the account


def test_the_wrong_password_is_refused_in_my_language(token_client, user):
    user.language = "fr"
    user.save(update_fields=["language"])
    answer = token_client(user).post(reverse("api-account-delete"), {"password": "wrong"})
    assert answer.json()["fields"]["password"] == ["Ce n’est pas votre mot de passe."]


def test_password_guesses_by_api_are_throttled_as_on_the_page(token_client, user):
    api = token_client(user)
    statuses = [api.post(reverse("api-account-delete"), {"password": f"guess {n}"}).status_code for n in range(6)]
    assert statuses == [400] * 5 + [429]
    answer = api.post(reverse("api-account-delete"), {"password": PASSWORD})
    assert answer.status_code == 429 and answer.json()["error"] == "throttled"
    user.refresh_from_db()
    assert user.is_active


def test_the_data_operations_are_in_the_served_schema_with_their_statuses(client):
    paths = json.loads(client.get("/api/schema/", {"format": "json"}).content)["paths"]
    assert set(paths["/api/account/export/"]["get"]["responses"]) >= {"200", "401"}
    assert set(paths["/api/account/delete/"]["post"]["responses"]) >= {"204", "400", "401", "403", "429"}
