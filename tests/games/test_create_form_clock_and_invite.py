"""Issue 35, item 5: the create form shows only the chosen time control's fields (each control's fields grouped under
its own radio, the others hidden by CSS alone; the custom bank's hours only for "Custom"), and the creator may invite a
friend by username or display name from the form itself: an invitation refused creates no game."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Game, Invitation

pytestmark = pytest.mark.django_db

FORM = {"engine_slug": "marumiere", "players": 3, "bots": 0, "clock": "move", "time_limit_hours": 48,
        "visibility": "public"}


def _clock_options(html: str) -> dict[str, str]:
    """Each time control's block of the form: its radio and the fields under it."""
    blocks = re.findall(r'<div class="clock-option">(.*?)</div>\s*(?=<div class="clock-option">|<p class="helptext">)',
                        html, re.S)
    return {re.search(r'name="clock" value="(\w+)"', block).group(1): block for block in blocks}


def test_each_time_control_has_only_its_own_fields_under_its_radio(client, user):
    client.force_login(user)
    options = _clock_options(client.get(reverse("game-create")).content.decode())
    assert set(options) == {"move", "bank", "none"}
    assert 'name="time_limit_hours"' in options["move"] and 'name="bank_preset"' not in options["move"]
    bank = options["bank"]
    assert 'name="bank_preset"' in bank and 'name="time_limit_hours"' not in bank
    assert all(f'name="{name}"' in bank for name in ("bank_initial_hours", "bank_increment_hours", "bank_cap_hours"))
    assert 'name="time_limit_hours"' not in options["none"] and 'name="bank_preset"' not in options["none"]
    css = (settings.BASE_DIR / "static/css/forms.css").read_text(encoding="utf-8")
    assert ".clock-option:has(input[name=clock]:not(:checked)) .clock-fields { display: none; }" in css
    assert "option[value=custom]:not(:checked)) .time-control-custom { display: none; }" in css


def test_the_creator_invites_a_friend_by_username_from_the_create_form(client, user_factory):
    host, friend = user_factory(username="host"), user_factory(username="friend", display_name="Best Friend")
    client.force_login(host)
    response = client.post(reverse("game-create"), {**FORM, "invite": "friend"})
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    invitation = Invitation.objects.get(game=game)
    assert invitation.user == friend and invitation.invited_by == host and invitation.status == "pending"
    client.post(reverse("game-create"), {**FORM, "invite": "best friend"})  # a display name does too
    assert Invitation.objects.filter(user=friend).count() == 2


def test_an_invitation_that_cannot_be_made_creates_no_game_and_says_why_beside_the_field(client, user):
    client.force_login(user)
    response = client.post(reverse("game-create"), {**FORM, "invite": "nobody-by-that-name"})
    html = response.content.decode()
    assert response.status_code == 400 and not Game.objects.exists()
    assert "There is no player called “nobody-by-that-name”." in html
    assert 'value="nobody-by-that-name"' in html  # kept as typed


def test_an_invitation_needs_a_seat_left_free(client, user_factory):
    host, _friend = user_factory(username="host"), user_factory(username="friend")
    client.force_login(host)
    response = client.post(reverse("game-create"), {**FORM, "players": 2, "bots": 1, "invite": "friend"})
    assert response.status_code == 400 and not Game.objects.exists()
    assert "Leave a seat free for the friend you invite" in response.content.decode()
