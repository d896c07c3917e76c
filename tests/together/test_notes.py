"""Private notes: saved for their author only, never shown to anyone else; none where the rules forbid memory aids."""

from __future__ import annotations

import pytest
from django.urls import reverse
from game_helpers import start_game

from together.models import SeatCorner

pytestmark = pytest.mark.django_db


def test_a_note_is_saved_and_shown_to_its_author_only(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    response = client.post(reverse("together-note", args=[game.pk]), {"note": "Ayumi holds the 7 <b>"},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and "Saved at" in response.content.decode()
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Ayumi holds the 7 &lt;b&gt;" in html
    assert client.get(reverse("api-game-note", args=[game.pk])).json()["note"] == "Ayumi holds the 7 <b>"
    for viewer in (players[1], players[2], None):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        for url in (reverse("game", args=[game.pk]), reverse("game-table", args=[game.pk]) + "?v=x",
                    reverse("api-game", args=[game.pk]), reverse("api-game-chat", args=[game.pk])):
            assert "Ayumi holds" not in client.get(url).content.decode()
        note_api = client.get(reverse("api-game-note", args=[game.pk]))
        assert note_api.status_code in (401, 403, 404) or note_api.json()["note"] == ""


def test_notes_without_javascript_and_by_api(client, players):
    game = start_game("marumiere", players[:2])
    client.force_login(players[1])
    response = client.post(reverse("together-note", args=[game.pk]), {"note": "plain post"})
    assert response.status_code == 302
    put = client.put(reverse("api-game-note", args=[game.pk]), {"note": "by API"}, content_type="application/json")
    assert put.status_code == 200
    assert SeatCorner.objects.get(seat__user=players[1]).note == "by API"
    assert client.put(reverse("api-game-note", args=[game.pk]), {"note": "x" * 5001},
                      content_type="application/json").status_code == 400
    assert client.put(reverse("api-game-note", args=[game.pk]), {"note": 7},
                      content_type="application/json").status_code == 400


def test_strangers_cannot_write_notes(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[2])
    assert client.put(reverse("api-game-note", args=[game.pk]), {"note": "hi"},
                      content_type="application/json").status_code == 403
    assert not SeatCorner.objects.exists()


def test_no_notes_in_mamma_mia_with_strict_memory(client, players):
    strict = start_game("mamma-mia", players[:3], options={"memory": "strict"})
    client.force_login(players[0])
    html = client.get(reverse("game", args=[strict.pk])).content.decode()
    assert "the rules forbid memory aids" in html and 'id="note-text"' not in html
    response = client.put(reverse("api-game-note", args=[strict.pk]), {"note": "x"}, content_type="application/json")
    assert response.status_code == 403 and "memory aids" in response.json()["detail"]
    assert client.get(reverse("api-game-note", args=[strict.pk])).json()["allowed"] is False
    open_memory = start_game("mamma-mia", players[:3], options={"memory": "open"})
    html = client.get(reverse("game", args=[open_memory.pk])).content.decode()
    assert 'id="note-text"' in html
