"""Issue 35, item 9: the invitation e-mail ends its sentence once, also after a game whose name brings its own
"!" ("a game of Mamma Mia!", not "Mamma Mia!.")."""

from __future__ import annotations

import pytest
from django.core import mail

from games.lobby import services as lobby_services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


@pytest.mark.parametrize(("slug", "sentence"), [
    ("mamma-mia", "Player 0 invites you to a game of Mamma Mia!"),
    ("marumiere", "Player 0 invites you to a game of マルミエール (Marumiere)."),
])
def test_the_invitation_email_ends_its_sentence_with_one_stop(players, run_on_commit, slug, sentence):
    host, guest = players[0], players[1]
    game = lobby_services.create_game(user=host, engine_slug=slug, players=3, visibility="private")
    with run_on_commit():
        lobby_services.invite_user(user=host, game_id=game.pk, username=guest.username)
    message = mail.outbox[0]
    html = message.alternatives[0][0]
    for text in (message.body, html):
        assert sentence in text
        assert "!." not in text
