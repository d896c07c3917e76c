"""The waiting room (issue 19, point 5): invite by username or display name with suggestions (blocks respected),
what was typed kept on an error, pending invitations listed, a copy button for the links, bots added and removed
until the start."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.exceptions import BadInput, GameNotOpen, NotAllowed
from games.lobby import selectors as lobby_selectors
from games.lobby import services as lobby_services
from games.models import GameEvent, GameStatus, Invitation, Seat
from together.models import Block

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(user_factory):
    host = user_factory(username="host", display_name="The Host")
    ada = user_factory(username="ada", display_name="Ada Lovelace")
    bob = user_factory(username="bob", display_name="")
    carol = user_factory(username="carol", display_name="Carol Ann")
    return host, ada, bob, carol


def _open_game(host, *, seats=4, rated=True, visibility="private"):
    return lobby_services.create_game(
        user=host, engine_slug="mamma-mia", players=seats, visibility=visibility, rated=rated
    )


def _usernames(users):
    return [user.username for user in users]


# Inviting ------------------------------------------------------------------------------------------------------


def test_a_player_is_invited_by_display_name_as_well_as_by_username(people):
    host, ada, bob, _carol = people
    game = _open_game(host)
    assert lobby_services.invite_user(user=host, game_id=game.pk, username="ada lovelace").user == ada
    assert lobby_services.invite_user(user=host, game_id=game.pk, username=" BOB ").user == bob


def test_a_display_name_shared_by_two_players_asks_for_the_username(people, user_factory):
    host, *_ = people
    user_factory(username="twin1", display_name="Twin")
    user_factory(username="twin2", display_name="twin")
    game = _open_game(host)
    with pytest.raises(BadInput, match="Several players are called “Twin”: give the username."):
        lobby_services.invite_user(user=host, game_id=game.pk, username="Twin")


def test_an_error_keeps_what_was_typed_and_says_why_next_to_the_box(client, people):
    host, *_ = people
    game = _open_game(host)
    client.force_login(host)
    response = client.post(reverse("game-invite", args=[game.pk]), {"username": "nobody-here"})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'value="nobody-here"' in html
    assert 'aria-invalid="true"' in html and 'id="invite-error"' in html
    assert "There is no player called “nobody-here”." in html


def test_an_invitation_by_display_name_says_who_was_invited(client, people):
    host, ada, *_ = people
    game = _open_game(host)
    client.force_login(host)
    response = client.post(reverse("game-invite", args=[game.pk]), {"username": "Ada Lovelace"}, follow=True)
    assert "Invitation sent to Ada Lovelace." in response.content.decode()
    assert Invitation.objects.filter(game=game, user=ada, status=Invitation.Status.PENDING).exists()


def test_the_waiting_room_lists_pending_invitations_to_its_seated_players_only(client, people):
    host, ada, bob, carol = people
    game = _open_game(host, visibility="public")
    lobby_services.invite_user(user=host, game_id=game.pk, username="ada")
    lobby_services.invite_user(user=host, game_id=game.pk, username="bob")
    lobby_services.decline_invitation(user=bob, invitation_id=Invitation.objects.get(user=bob).pk)
    client.force_login(host)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Invited, no answer yet" in html
    pending = html.split('class="pending-invitations"', 1)[1].split("</ul>", 1)[0]
    assert "Ada Lovelace" in pending and "bob" not in pending and "invited by The Host" in pending
    client.force_login(carol)  # a visitor of the public game: not seated
    assert "Invited, no answer yet" not in client.get(reverse("game", args=[game.pk])).content.decode()


def test_each_invitation_link_has_a_copy_button_that_works_with_javascript_only(client, people):
    host, *_ = people
    game = _open_game(host)
    client.force_login(host)
    client.post(reverse("game-invite-link-create", args=[game.pk]))
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'data-copy="invite-url-' in html and ">Copy link</button>" in html
    assert "hidden data-copy" in html  # shown by static/js/site.js, which copies
    assert 'role="status"' in html  # where "Link copied" is announced


# Suggestions ---------------------------------------------------------------------------------------------------


def test_suggestions_match_the_start_of_a_username_or_any_part_of_a_display_name(people):
    host, ada, bob, carol = people
    game = _open_game(host)
    assert _usernames(lobby_selectors.invite_suggestions(game=game, user=host, query="bo")) == ["bob"]
    assert _usernames(lobby_selectors.invite_suggestions(game=game, user=host, query="love")) == ["ada"]
    assert _usernames(lobby_selectors.invite_suggestions(game=game, user=host, query="ann")) == ["carol"]


def test_suggestions_leave_out_oneself_the_seated_the_invited_and_anyone_blocked_either_way(people, user_factory):
    host, ada, bob, carol = people
    dan = user_factory(username="dan")
    eve = user_factory(username="eve")
    game = _open_game(host, visibility="public")
    lobby_services.join_game(user=ada, game_id=game.pk)
    lobby_services.invite_user(user=host, game_id=game.pk, username="bob")
    Block.objects.create(blocker=host, blocked=carol)  # the host blocked carol
    Block.objects.create(blocker=dan, blocked=host)  # dan blocked the host
    for query in ("", "a", "c", "d", "e", "h"):
        found = set(_usernames(lobby_selectors.invite_suggestions(game=game, user=host, query=query)))
        assert not found & {"host", "ada", "bob", "carol", "dan"}
    assert _usernames(lobby_selectors.invite_suggestions(game=game, user=host, query="ev")) == [eve.username]


def test_before_anything_is_typed_the_players_of_ones_latest_games_are_suggested(people, user_factory):
    host, ada, bob, carol = people
    stranger = user_factory(username="stranger")
    played = lobby_services.create_game(user=host, engine_slug="mamma-mia", players=2)
    lobby_services.join_game(user=carol, game_id=played.pk)
    game = _open_game(host)
    assert _usernames(lobby_selectors.invite_suggestions(game=game, user=host)) == ["carol"]
    assert stranger.username not in _usernames(lobby_selectors.invite_suggestions(game=game, user=host, query="s"))


def test_the_suggestions_page_gives_options_for_the_typed_text_to_seated_players_only(client, people):
    host, ada, bob, carol = people
    game = _open_game(host)
    url = reverse("game-invite-suggestions", args=[game.pk])
    client.force_login(host)
    html = client.get(url, {"username": "ad"}).content.decode()
    assert html.strip() == '<option value="ada">Ada Lovelace (ada)</option>'
    client.force_login(carol)
    assert client.get(url, {"username": "ad"}).status_code == 404


def test_the_invitation_box_is_a_labelled_list_that_suggests_as_one_types(client, people):
    host, *_ = people
    game = _open_game(host)
    client.force_login(host)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert '<label for="id_username">Invite a player by username or display name</label>' in html
    assert 'list="invite-suggestions"' in html and '<datalist id="invite-suggestions">' in html
    assert f'hx-get="{reverse("game-invite-suggestions", args=[game.pk])}"' in html


def test_a_player_one_blocked_cannot_be_invited_and_one_is_told_why(people):
    host, ada, *_ = people
    game = _open_game(host)
    Block.objects.create(blocker=host, blocked=ada)
    with pytest.raises(NotAllowed, match="You have blocked Ada Lovelace"):
        lobby_services.invite_user(user=host, game_id=game.pk, username="ada")


def test_a_player_who_blocked_the_inviter_cannot_be_invited_and_the_block_is_not_named(people):
    host, ada, *_ = people
    game = _open_game(host)
    Block.objects.create(blocker=ada, blocked=host)
    with pytest.raises(NotAllowed, match="^You cannot invite this player.$"):
        lobby_services.invite_user(user=host, game_id=game.pk, username="ada")


# Bots after creation -----------------------------------------------------------------------------------------------


def test_the_creator_adds_and_removes_bots_before_the_start(client, people):
    host, *_ = people
    game = _open_game(host, seats=3, rated=False)
    client.force_login(host)
    client.post(reverse("game-bot-add", args=[game.pk]))
    bot = Seat.objects.get(game=game, is_bot=True)
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Remove Bot 2" in html and "Add a bot" in html
    client.post(reverse("game-bot-remove", args=[game.pk, bot.pk]))
    assert not Seat.objects.filter(game=game, is_bot=True).exists()
    kinds = list(GameEvent.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == [GameEvent.Kind.JOINED, GameEvent.Kind.LEFT]


def test_a_bot_in_the_last_free_seat_starts_the_game(people):
    host, ada, *_ = people
    game = _open_game(host, seats=3, visibility="public")
    lobby_services.join_game(user=ada, game_id=game.pk)
    lobby_services.add_bot(user=host, game_id=game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.round == 1
    with pytest.raises(GameNotOpen):
        lobby_services.add_bot(user=host, game_id=game.pk)


def test_adding_a_bot_makes_a_rated_game_unrated_as_the_waiting_room_warns(client, people):
    host, *_ = people
    game = _open_game(host, seats=3, rated=True)
    client.force_login(host)
    assert "A game with a bot is not rated." in client.get(reverse("game", args=[game.pk])).content.decode()
    lobby_services.add_bot(user=host, game_id=game.pk)
    game.refresh_from_db()
    assert not game.rated


def test_only_the_creator_adds_or_removes_bots(people):
    host, ada, *_ = people
    game = _open_game(host, seats=3, visibility="public")
    lobby_services.join_game(user=ada, game_id=game.pk)
    with pytest.raises(NotAllowed):
        lobby_services.add_bot(user=ada, game_id=game.pk)
    game = _open_game(host, seats=4, visibility="public")
    lobby_services.join_game(user=ada, game_id=game.pk)
    bot = lobby_services.add_bot(user=host, game_id=game.pk)
    with pytest.raises(NotAllowed):
        lobby_services.remove_bot(user=ada, game_id=game.pk, seat_id=bot.pk)
    assert Seat.objects.filter(pk=bot.pk).exists()


def test_a_person_is_never_removed_as_a_bot(people):
    host, ada, *_ = people
    game = _open_game(host, seats=3, visibility="public")
    seat = lobby_services.join_game(user=ada, game_id=game.pk)
    with pytest.raises(BadInput, match="That bot has left already."):
        lobby_services.remove_bot(user=host, game_id=game.pk, seat_id=seat.pk)
    assert Seat.objects.filter(pk=seat.pk).exists()
