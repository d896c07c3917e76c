"""Issue 30, two-step create: the site commits to its secret before the creator's bits are drawn, so even a game of
one person against bots (whose creator's bits are the only ones) is dealt from a secret fixed before them."""

from __future__ import annotations

import datetime as dt
import re
import secrets

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from games import fairness
from games.exceptions import CommitmentUnknown
from games.lobby import commitments
from games.lobby import services as lobby
from games.models import DealCommitment, Game, GameState, GameStatus, Seat

pytestmark = pytest.mark.django_db

FORM = {
    "engine_slug": "marumiere", "players": 3, "bots": 0, "clock": "move", "time_limit_hours": 48, "visibility": "public"
}


def test_a_game_against_bots_is_dealt_from_the_secret_committed_before_the_creators_bits(players):
    shown = commitments.commit(user=players[0]).secret_sha256  # what the create form shows
    mine = secrets.token_hex(16)  # drawn afterwards by the page
    game = lobby.create_game(
        user=players[0], engine_slug="konamon", players=3, bots=2, contribution=mine, commitment=shown
    )
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.seed_sha256 == shown
    state = GameState.objects.get(game=game)
    assert fairness.secret_sha256(state.seed) == shown
    contributions = list(Seat.objects.filter(game=game).order_by("join_order").values_list("contribution", flat=True))
    assert contributions[0] == mine
    assert int(state.deal_seed) == fairness.joint_seed(state.seed, contributions)
    assert not DealCommitment.objects.exists()  # taken: no second game gets that secret


def test_a_commitment_serves_one_game_of_its_own_person_within_its_lifetime(players):
    shown = commitments.commit(user=players[0]).secret_sha256
    with pytest.raises(CommitmentUnknown):
        lobby.create_game(user=players[1], engine_slug="marumiere", players=3, commitment=shown)  # not theirs
    lobby.create_game(user=players[0], engine_slug="marumiere", players=3, commitment=shown)
    with pytest.raises(CommitmentUnknown):
        lobby.create_game(user=players[0], engine_slug="marumiere", players=3, commitment=shown)  # used
    old = commitments.commit(user=players[0]).secret_sha256
    later = timezone.now() + commitments.COMMITMENT_LIFETIME + dt.timedelta(minutes=1)
    with time_machine.travel(later), pytest.raises(CommitmentUnknown):
        lobby.create_game(user=players[0], engine_slug="marumiere", players=3, commitment=old)
    assert Game.objects.filter(created_by=players[0]).count() == 1


def test_a_creation_that_fails_gives_its_commitment_back(players):
    shown = commitments.commit(user=players[0]).secret_sha256
    with pytest.raises(Exception):  # noqa: B017,PT011 - any refusal: the transaction rolls back
        lobby.create_game(user=players[0], engine_slug="marumiere", players=3, contribution="nope", commitment=shown)
    assert DealCommitment.objects.filter(secret_sha256=shown).exists()


def test_one_person_holds_a_bounded_number_of_unused_commitments(players):
    for _ in range(commitments.MAX_OPEN_COMMITMENTS + 5):
        commitments.commit(user=players[0])
    assert DealCommitment.objects.filter(user=players[0]).count() == commitments.MAX_OPEN_COMMITMENTS


def test_the_create_form_shows_the_commitment_before_the_page_draws_its_bits_and_the_game_takes_it(players, client):
    client.force_login(players[0])
    page = client.get(reverse("game-create")).content.decode()
    shown = re.search(r'name="commitment" value="([0-9a-f]{64})"', page).group(1)
    # In the page as served: shown before the page's script draws its bits (as the form is sent).
    assert f'<code class="hash">{shown}</code>' in page and 'name="contribution" value=""' in page
    assert DealCommitment.objects.get(secret_sha256=shown).secret not in page  # the hash, never the secret
    mine = secrets.token_hex(16)
    response = client.post(
        reverse("game-create"),
        {**FORM, "engine_slug": "konamon", "players": 2, "bots": 1, "contribution": mine, "commitment": shown},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    game = Game.objects.get(created_by=players[0])
    assert game.seed_sha256 == shown and game.status == GameStatus.ACTIVE
    assert Seat.objects.get(game=game, user=players[0]).contribution == mine


def test_a_used_commitment_on_the_form_is_refused_in_the_readers_language_and_a_new_one_shown(players, client):
    players[0].language = "fr"
    players[0].save()
    client.force_login(players[0])
    shown = commitments.commit(user=players[0]).secret_sha256
    lobby.create_game(user=players[0], engine_slug="marumiere", players=3, commitment=shown)
    response = client.post(reverse("game-create"), {**FORM, "commitment": shown}, HTTP_ACCEPT_LANGUAGE="fr")
    page = response.content.decode()
    assert response.status_code == 400
    assert "L’engagement du site pour cette partie a expiré" in page
    assert re.search(r'name="commitment" value="([0-9a-f]{64})"', page).group(1) != shown
    assert Game.objects.filter(created_by=players[0]).count() == 1


def test_an_api_client_asks_for_the_commitment_then_creates_with_its_own_bits(players, client):
    client.force_login(players[0])
    asked = client.post(reverse("api-game-commitment"))
    assert asked.status_code == 201
    shown = asked.json()["commitment"]
    assert re.fullmatch(r"[0-9a-f]{64}", shown) and asked.json()["expires_at"]
    assert DealCommitment.objects.get(secret_sha256=shown).secret not in asked.content.decode()
    mine = secrets.token_hex(16)
    body = {"game": "konamon", "players": 2, "bots": 1, "contribution": mine, "commitment": shown}
    created = client.post(reverse("api-games"), body, content_type="application/json")
    assert created.status_code == 201, created.content
    game = Game.objects.get(pk=created.json()["id"])
    assert game.seed_sha256 == shown
    again = client.post(reverse("api-games"), body, content_type="application/json")
    assert again.status_code == 409 and again.json()["error"] == "commitment_unknown"
    too_long = client.post(reverse("api-games"), {**body, "commitment": "x" * 80}, content_type="application/json")
    assert too_long.status_code == 400
