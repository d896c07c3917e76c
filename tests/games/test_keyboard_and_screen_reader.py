"""Issue 31: the keyboard help page in the four languages, and what the game page gives a keyboard or screen reader
player: the links to the table's parts, the command box (with its link to the help), the polite region, the readings
the commands read out, and what a live update announces (issue 32's summary since the version the page showed)."""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.urls import reverse
from game_helpers import start_game

from games.models import Seat, SeatView
from games.play import services as play_services

HELP_TITLES = {
    "en": "Playing by keyboard and screen reader",
    "ja": "キーボードとスクリーンリーダーで遊ぶ",
    "zh-hant": "用鍵盤和螢幕閱讀器玩遊戲",
    "fr": "Jouer au clavier et avec un lecteur d’écran",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", sorted(HELP_TITLES))
def test_the_keyboard_help_lists_the_commands_in_each_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = client.get(reverse("keyboard-help")).content.decode()
    assert f'<h1 id="help-title">{HELP_TITLES[language]}</h1>' in page
    for key in ("t", "l", "h", "b", "m", "?"):
        assert f"<kbd>{key}</kbd>" in page
    assert "Alt</kbd>+<kbd>" in page


@pytest.mark.django_db
def test_the_game_page_gives_the_parts_the_commands_and_a_polite_region(client, players):
    game = start_game("marumiere", players[:2])
    awaited = Seat.objects.filter(game=game, awaited=True).select_related("user").first()
    client.force_login(awaited.user)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    nav = page[page.index('<nav class="table-nav"') :]
    assert re.search(r'href="#moves".*href="#table-pane".*href="#log-pane"', nav[: nav.index("</nav>")], re.S)
    assert 'id="table-pane"' in page and 'id="moves"' in page and 'id="log-pane"' in page
    assert 'id="command-input"' in page and reverse("keyboard-help") in page
    assert '<div id="announcer" class="visually-hidden" role="status" aria-live="polite">' in page
    assert 'data-reading="hand"' in page and 'data-reading="table"' in page
    # The live partial is no live region of its own: only the announcer speaks, so the table is not read again.
    live = page[page.index('<div id="live"') : page.index('id="commands"')]
    assert "aria-live" not in live.split('class="chat-lines"')[0]


@pytest.mark.django_db
def test_a_live_update_announces_the_other_players_move_and_the_turn_once(
    client, players, django_capture_on_commit_callbacks
):
    game = start_game("marumiere", players[:2])
    first = Seat.objects.filter(game=game, awaited=True).select_related("user").first()
    other = Seat.objects.select_related("user").exclude(pk=first.pk).get(game=game)
    client.force_login(other.user)
    client.get(reverse("game", args=[game.pk]))  # the other's page is open at this version
    row = SeatView.objects.get(game=game, seat_number=first.number)
    with django_capture_on_commit_callbacks(execute=True):
        play_services.check_play_move(
            user=first.user,
            game_id=game.pk,
            move=row.legal_moves[0],
            expected_version=game.version,
            idempotency_key=uuid.uuid4(),
        )
    partial = client.get(reverse("game-table", args=[game.pk]) + "?v=old").content.decode()
    announce = re.search(r"<div hidden data-announce=\"\d+\">(.*?)</div>", partial, re.S)
    assert announce, "no announcement in the live partial"
    said = announce.group(1)
    assert first.user.public_name in said and "It is your move." in said
    # Once: the page has now shown this version, so the next update announces nothing of it again.
    again = client.get(reverse("game-table", args=[game.pk]) + "?v=old").content.decode()
    assert "data-announce" not in again
