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


@pytest.mark.parametrize(
    "name",
    [
        "\u0430lice",  # Cyrillic а, then Latin
        "ALİCE",  # Latin capital I with a dot: case-folds to i + a combining dot
        "a1ice",  # digit one for l
        "ａｌｉｃｅ\u0301",  # full width, a combining accent
        "Qu\u0435en Al",  # Cyrillic е inside the display name
        "Queen AI",  # capital I for l
    ],
)
def test_a_name_confusable_with_another_players_is_refused(client, user_factory, name):
    """Issue 29 item 7: names that look the same as a taken one (Unicode TR 39's skeleton: confusable letters of
    any script, case, compatibility forms and marks set aside) are refused while ``alice`` is taken."""
    user_factory(username="alice", display_name="Queen Al")
    me = user_factory(username="bob")
    client.force_login(me)
    response = save_name(client, name)
    assert "Another player is called that" in response.content.decode(), name
    me.refresh_from_db()
    assert me.display_name == ""


@pytest.mark.parametrize("name", ["Tаro", "Βob the Builder", "Zoё"])  # Cyrillic а, Greek Β, Cyrillic ё
def test_a_name_mixing_scripts_is_refused(client, user, name):
    client.force_login(user)
    response = save_name(client, name)
    assert "one writing system" in response.content.decode(), name
    user.refresh_from_db()
    assert user.display_name == ""


@pytest.mark.parametrize(
    "name", ["山田たろう", "タロウ Yamada", "王小明", "김민준", "Zoë", "Hélène", "Дмитрий", "Αλέξης"]
)
def test_names_in_one_writing_system_or_the_usual_mixes_are_fine(client, user, name):
    """Japanese mixes kanji and kana (and Latin); Chinese Han with Bopomofo; Korean Hangul with Han: TR 39's
    "highly restrictive" level allows those, as any single script."""
    client.force_login(user)
    assert save_name(client, name).status_code == 302, name
    user.refresh_from_db()
    assert user.display_name == name


def test_a_new_accounts_names_are_compared_too(user_factory):
    """The skeletons are kept on every account (``trust.names``), so the check is one indexed query."""
    from trust.names import imitation_reason

    user_factory(username="dmitri", display_name="Дмитрий")
    me = user_factory(username="mallory")
    assert imitation_reason("Дмuтрий", user=me) is not None  # a Latin u among Cyrillic letters
    assert imitation_reason("dmitri", user=me) is not None
    assert imitation_reason("Dmitry", user=me) is None
