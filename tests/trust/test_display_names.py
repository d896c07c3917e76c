"""Display names may not imitate other players or the bots."""

from __future__ import annotations

import pytest
from django.urls import reverse


def save_name(client, name):
    return client.post(
        reverse("settings"),
        {"display_name": name, "language": "en", "time_zone": "UTC", "notify_mode": "once", "deadline_reminders": "on"},
    )


@pytest.mark.parametrize("name", ["Bot 1", "bot2", "ＢＯＴ　３", "Robot 4", "Bot", "bot_7"])
def test_bot_names_are_refused(client, user, name):
    client.force_login(user)
    response = save_name(client, name)
    assert response.status_code == 200 and "kept for the bots" in response.content.decode()
    user.refresh_from_db()
    assert user.display_name == ""


def test_a_bot_name_in_another_language_is_refused_too(client, user):
    client.force_login(user)
    assert "kept for the bots" in save_name(client, "Bot  1").content.decode()


@pytest.mark.parametrize("name", ["alice", "ALICE", "Ａｌｉｃｅ", "Queen Al"])
def test_another_players_username_or_display_name_is_refused(client, user_factory, name):
    user_factory(username="alice", display_name="Queen Al")
    me = user_factory(username="bob")
    client.force_login(me)
    response = save_name(client, name)
    assert "Another player is called that" in response.content.decode()
    me.refresh_from_db()
    assert me.display_name == ""


def test_ones_own_username_and_a_fresh_name_are_fine(client, user_factory):
    me = user_factory(username="carol")
    client.force_login(me)
    assert save_name(client, "Carol").status_code == 302
    assert save_name(client, "Captain Botany").status_code == 302
    me.refresh_from_db()
    assert me.display_name == "Captain Botany"
