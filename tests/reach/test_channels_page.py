"""The one settings page: every kind of event by e-mail, push and each webhook."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games.lobby import services
from notifications.models import OutboxEmail
from reach.models import ChannelSettings, EventKind, Webhook
from tests.games.game_helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


def grid_post(client, **ticked):
    data = {name: "on" for name, on in ticked.items() if on}
    return client.post(reverse("reach:channels"), data)


def test_the_page_shows_a_row_per_kind_and_a_column_per_channel_and_hook(client, user):
    Webhook.objects.create(user=user, url="https://hooks.example/a", kinds=["turn"])
    client.force_login(user)
    page = client.get(reverse("reach:channels"))
    assert page.status_code == 200
    html = page.content.decode()
    for kind in EventKind:
        assert str(kind.label) in html
    assert "Webhook 1" in html and 'name="hook' in html
    assert 'aria-label="Your move by Push"' in html
    assert reverse("reach:channels") in client.get(reverse("settings")).content.decode()


def test_saving_the_grid_stores_each_channels_choices(client, user):
    hook = Webhook.objects.create(user=user, url="https://hooks.example/a", kinds=["turn"])
    client.force_login(user)
    response = grid_post(client, push_turn=True, push_finished=True, email_started=True,
                         **{f"hook{hook.pk}_invitation": True, f"hook{hook.pk}_finished": True})
    assert response.status_code == 302
    row = ChannelSettings.objects.get(user=user)
    assert set(row.off["push"]) == {k.value for k in EventKind} - {"turn", "finished"}
    assert set(row.off["email"]) == {"finished", "cancelled", "invitation"}
    hook.refresh_from_db()
    assert set(hook.kinds) == {"invitation", "finished"}
    user.refresh_from_db()
    assert user.deadline_reminders is False  # the e-mail reminder box was not ticked


def test_an_email_kind_turned_off_is_not_emailed(client, players):
    client.force_login(players[1])
    grid_post(client, email_started=True, email_finished=True, email_cancelled=True, email_reminder=True)
    game = services.create_game(user=players[0], engine_slug="konamon", players=3, options={}, bots=0,
                                visibility="public", time_limit_hours=0)
    services.invite_user(user=players[0], game_id=game.pk, username=players[1].username)
    assert not OutboxEmail.objects.filter(user=players[1], kind="invitation").exists()
    services.invite_user(user=players[0], game_id=game.pk, username=players[2].username)
    assert OutboxEmail.objects.filter(user=players[2], kind="invitation").exists()


def test_a_started_email_turned_off_goes_only_to_those_who_keep_it(client, players):
    client.force_login(players[0])
    grid_post(client)  # every box off
    start_game("konamon", players[:2])
    assert OutboxEmail.objects.filter(user=players[0], kind="started").count() == 0
    assert OutboxEmail.objects.filter(user=players[1], kind="started").count() == 1


def test_the_page_needs_a_login(client):
    response = client.get(reverse("reach:channels"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_chat_at_my_table_is_off_by_email_and_on_by_push_until_the_player_changes_it(client, user):
    client.force_login(user)
    html = client.get(reverse("reach:channels")).content.decode()
    email_box = re.search(r'<input type="checkbox" name="email_chat"[^>]*>', html).group(0)
    push_box = re.search(r'<input type="checkbox" name="push_chat"[^>]*>', html).group(0)
    assert "checked" not in email_box and "checked" in push_box
    assert 'aria-label="Chat at my table by E-mail"' in email_box
    grid_post(client, email_chat=True, push_turn=True)
    row = ChannelSettings.objects.get(user=user)
    assert row.wants("email", "chat") and not row.wants("push", "chat")
    html = client.get(reverse("reach:channels")).content.decode()
    assert "checked" in re.search(r'<input type="checkbox" name="email_chat"[^>]*>', html).group(0)
