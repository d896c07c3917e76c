"""Rematch: the same game again with the same people; starts when all have accepted; a refusal tells the others."""

from __future__ import annotations

import pytest
from django.urls import reverse
from game_helpers import start_game
from together_helpers import committing

from games.exceptions import GameError
from games.models import Game, GameStatus, Invitation, Seat
from notifications.models import OutboxEmail
from together import rematch, services
from together.models import Rematch


def ended_game(players, *, bots=0, options=None, time_limit_hours=0):
    """A finished game: every human resigns, and the bots play it to the end at once."""
    game = start_game("konamon", players, bots=bots, options=options, time_limit_hours=time_limit_hours)
    with committing():
        for user in players:
            services.resign(user=user, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    return game


@pytest.mark.django_db
def test_a_rematch_invites_the_same_people_and_starts_when_all_accept(client, players):
    original = ended_game(players[:3], bots=1, time_limit_hours=48)
    client.force_login(players[1])
    end_screen = client.get(reverse("game", args=[original.pk])).content.decode()
    assert ">Rematch</button>" in end_screen
    client.post(reverse("together-rematch", args=[original.pk]))
    made = Rematch.objects.get(original=original)
    game = made.game
    assert (game.engine_slug, game.players, game.time_limit_hours, game.visibility) == ("konamon", 4, 48, "public")
    assert game.status == GameStatus.OPEN
    assert Seat.objects.filter(game=game, is_bot=True).count() == 1
    invited = set(Invitation.objects.filter(game=game).values_list("user_id", flat=True))
    assert invited == {players[0].pk, players[2].pk}
    assert OutboxEmail.objects.filter(kind=OutboxEmail.Kind.INVITATION, game=game).count() == 2
    # Proposing again gives the same rematch.
    assert rematch.propose_rematch(user=players[0], game_id=original.pk).pk == made.pk
    client.force_login(players[0])
    end_screen = client.get(reverse("game", args=[original.pk])).content.decode()
    assert "proposes a rematch" in end_screen and "Accept the rematch" in end_screen
    my_games = client.get(reverse("my-games")).content.decode()
    assert f"proposes a rematch of #{original.pk}" in my_games and "rematch pending" in my_games
    response = client.post(reverse("together-rematch-accept", args=[original.pk]))
    assert response.status_code == 302 and response.url == reverse("game", args=[game.pk])
    game.refresh_from_db()
    assert game.status == GameStatus.OPEN
    rematch.accept_rematch(user=players[2], game_id=original.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.seed_sha256 != original.seed_sha256
    assert sorted(Seat.objects.filter(game=game).values_list("number", flat=True)) == [0, 1, 2, 3]
    client.force_login(players[2])
    assert "The rematch has started." in client.get(reverse("game", args=[original.pk])).content.decode()


@pytest.mark.django_db
def test_declining_cancels_the_rematch_and_tells_the_others(client, players):
    original = ended_game(players[:3])
    rematch.propose_rematch(user=players[0], game_id=original.pk)
    made = Rematch.objects.get(original=original)
    client.force_login(players[1])
    client.post(reverse("together-rematch-decline", args=[original.pk]))
    made.refresh_from_db()
    assert made.declined_by == players[1]
    assert Game.objects.get(pk=made.game_id).status == GameStatus.CANCELLED
    told = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TABLE, payload__what="rematch_declined")
    assert {row.user_id for row in told} == {players[0].pk, players[2].pk}
    client.force_login(players[2])
    assert "declined the rematch" in client.get(reverse("game", args=[original.pk])).content.decode()
    # The Decline button of My games (the platform's own) does the same for a new rematch.
    second = rematch.propose_rematch(user=players[2], game_id=original.pk)
    assert second.pk != made.pk
    invitation = Invitation.objects.get(game=second.game, user=players[0])
    client.force_login(players[0])
    client.post(reverse("invitation-decline", args=[invitation.pk]))
    second.refresh_from_db()
    assert second.declined_by == players[0]


@pytest.mark.django_db
def test_only_ended_games_of_ones_own_have_a_rematch(players):
    game = start_game("konamon", players[:2])
    with pytest.raises(GameError):
        rematch.propose_rematch(user=players[0], game_id=game.pk)
    ended = ended_game(players[:2])
    with pytest.raises(GameError):
        rematch.propose_rematch(user=players[3], game_id=ended.pk)


@pytest.mark.django_db
def test_rematch_by_api(client, players):
    original = ended_game(players[:2])
    client.force_login(players[0])
    assert client.get(reverse("api-game-rematch", args=[original.pk])).status_code == 404
    made = client.post(reverse("api-game-rematch", args=[original.pk])).json()
    assert made["status"] == "open" and made["original"] == original.pk
    client.force_login(players[1])
    info = client.get(reverse("api-game-rematch", args=[original.pk])).json()
    assert info["my_invitation_pending"] is True
    accepted = client.post(reverse("api-game-rematch-accept", args=[original.pk])).json()
    assert accepted == {"game": made["game"], "status": "active"}


MINE, THEIRS = "ab" * 16, "0123456789ABCDEF" * 2


@pytest.mark.django_db
def test_a_rematch_proposed_and_accepted_from_the_pages_is_dealt_from_both_players_contributions(client, players):
    """Issue 30: the rematch's forms carry the page's contribution (static/js/fairness.js fills the field), and the
    rematch's deal is the documented function of the site's secret and both contributions, in join order."""
    from games import fairness
    from games.models import GameState

    original = ended_game(players[:2])
    client.force_login(players[0])
    end_screen = client.get(reverse("game", args=[original.pk])).content.decode()
    propose_form = end_screen.split(reverse("together-rematch", args=[original.pk]), 1)[1].split("</form>", 1)[0]
    assert "data-contribution" in propose_form
    client.post(reverse("together-rematch", args=[original.pk]), {"contribution": MINE})
    client.force_login(players[1])
    end_screen = client.get(reverse("game", args=[original.pk])).content.decode()
    accept_form = end_screen.split(reverse("together-rematch-accept", args=[original.pk]), 1)[1].split("</form>", 1)[0]
    assert "data-contribution" in accept_form
    client.post(reverse("together-rematch-accept", args=[original.pk]), {"contribution": THEIRS})
    game = Rematch.objects.get(original=original).game
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    seats = list(Seat.objects.filter(game=game).order_by("join_order"))
    assert [(s.user_id, s.contribution) for s in seats] == [(players[0].pk, MINE), (players[1].pk, THEIRS.lower())]
    state = GameState.objects.get(game=game)
    assert int(state.deal_seed) == fairness.joint_seed(state.seed, [MINE, THEIRS.lower()])


@pytest.mark.django_db
def test_an_api_client_sends_its_own_contribution_with_a_rematch_and_a_bad_one_changes_nothing(client, players):
    original = ended_game(players[:2])
    client.force_login(players[0])
    made = client.post(
        reverse("api-game-rematch", args=[original.pk]), {"contribution": MINE}, content_type="application/json"
    ).json()
    client.force_login(players[1])
    refused = client.post(
        reverse("api-game-rematch-accept", args=[original.pk]), {"contribution": "xyz"}, content_type="application/json"
    )
    assert refused.status_code == 400 and refused.json()["error"] == "invalid"
    assert not Seat.objects.filter(game_id=made["game"], user=players[1]).exists()
    accept_url = reverse("api-game-rematch-accept", args=[original.pk])
    accepted = client.post(accept_url, {"contribution": THEIRS}, content_type="application/json").json()
    assert accepted == {"game": made["game"], "status": "active"}
    contributions = dict(Seat.objects.filter(game_id=made["game"]).values_list("user_id", "contribution"))
    assert contributions == {players[0].pk: MINE, players[1].pk: THEIRS.lower()}


@pytest.mark.django_db
def test_a_rematch_keeps_the_time_bank_visibility_rating_and_bots(players):
    from clocks.arithmetic import HOUR, TimeControl

    bank = TimeControl.bank(initial=4 * HOUR, increment=2 * HOUR, cap=12 * HOUR)
    original = start_game("konamon", players[:2], time_control=bank, visibility="private")
    Game.objects.filter(pk=original.pk).update(rated=False)
    with committing():
        for user in players[:2]:
            services.resign(user=user, game_id=original.pk)
    game = rematch.propose_rematch(user=players[1], game_id=original.pk).game
    assert game.time_control == bank
    bank_fields = (game.clock, game.bank_initial, game.bank_increment, game.bank_cap)
    assert bank_fields == ("bank", 4 * HOUR, 2 * HOUR, 12 * HOUR)
    assert (game.visibility, game.rated) == ("private", False)


@pytest.mark.django_db
def test_a_rematch_of_a_public_game_with_a_per_move_limit_is_public_with_that_limit(players):
    original = ended_game(players[:2], bots=1, time_limit_hours=24, options={})
    game = rematch.propose_rematch(user=players[0], game_id=original.pk).game
    assert (game.clock, game.time_limit_hours, game.visibility) == ("move", 24, "public")
    assert Seat.objects.filter(game=game, is_bot=True).count() == 1
    assert game.options == {k: v for k, v in original.options.items() if k != "deal"}
