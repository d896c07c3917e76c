"""Per-link invitations: made by a seated player, revocable, expiring at the start or after a set time; a
private game is watched by its seats and invited users only."""

from __future__ import annotations

import datetime as dt

import time_machine
from django.urls import reverse

from games.lobby import services as lobby_services
from games.models import Seat
from trust.models import InviteLink


def private_game(creator):
    return lobby_services.create_game(user=creator, engine_slug="marumiere", players=3, visibility="private")


def make_link(client, creator, game):
    client.force_login(creator)
    assert client.post(reverse("game-invite-link-create", args=[game.pk])).status_code == 302
    link = InviteLink.objects.filter(game=game).first()
    client.logout()
    return link


def test_each_link_is_its_own_and_a_stranger_cannot_make_one(players, client):
    game = private_game(players[0])
    first, second = make_link(client, players[0], game), make_link(client, players[0], game)
    assert first.token != second.token
    client.force_login(players[4])
    client.post(reverse("game-invite-link-create", args=[game.pk]))
    assert InviteLink.objects.filter(game=game).count() == 2
    client.force_login(players[0])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert first.token in page and second.token in page


def test_a_link_lets_its_holder_watch_and_join_until_revoked(players, client):
    game = private_game(players[0])
    link = make_link(client, players[0], game)
    client.force_login(players[1])
    assert client.get(reverse("game", args=[game.pk])).status_code == 404
    assert client.get(reverse("game-invite-link", args=[link.token])).status_code == 302
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
    assert client.post(reverse("game-join", args=[game.pk])).status_code == 302
    assert Seat.objects.filter(game=game, user=players[1]).exists()
    # Revoked by a seated player: the next holder is refused.
    client.force_login(players[1])
    assert client.post(reverse("game-invite-link-revoke", args=[game.pk, link.pk])).status_code == 302
    client.force_login(players[2])
    assert client.get(reverse("game-invite-link", args=[link.token])).status_code == 404
    assert client.get(reverse("game", args=[game.pk])).status_code == 404
    client.post(reverse("game-join", args=[game.pk]))
    assert not Seat.objects.filter(game=game, user=players[2]).exists()


def test_a_link_expires_after_its_time(players, client, settings):
    game = private_game(players[0])
    link = make_link(client, players[0], game)
    with time_machine.travel(dt.datetime.now(tz=dt.UTC) + dt.timedelta(hours=settings.INVITE_LINK_HOURS + 1)):
        assert client.get(reverse("game-invite-link", args=[link.token])).status_code == 404


def test_a_logged_out_holder_stops_watching_when_the_game_starts(players, client):
    game = private_game(players[0])
    link = make_link(client, players[0], game)
    assert client.get(reverse("game-invite-link", args=[link.token])).status_code == 302
    assert client.get(reverse("game", args=[game.pk])).status_code == 200  # the waiting room
    lobby_services.join_game(user=players[1], game_id=game.pk, invite=link.token)
    lobby_services.join_game(user=players[2], game_id=game.pk, invite=link.token)
    game.refresh_from_db()
    assert game.status == "active"
    for name in ("game", "game-table", "game-log", "api-game"):
        assert client.get(reverse(name, args=[game.pk])).status_code == 404, name
    assert client.get(reverse("game-invite-link", args=[link.token])).status_code == 404
    # Its players and users invited by name still see it.
    client.force_login(players[1])
    assert client.get(reverse("game", args=[game.pk])).status_code == 200
