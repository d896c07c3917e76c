"""Issue 19: the small things a player stumbles over on the game pages (point 9) and the wording of
the pages (point 8): no bare 405, a favicon, no note meant for players on a spectator's page, plurals,
natural Japanese."""

from __future__ import annotations

import pytest
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation

from games.templatetags.games_tags import plural_count
from tests.games.game_helpers import start_game

MEMORY_NOTE = "You hear what was played since your own last turn"


@pytest.mark.django_db
def test_a_get_of_the_move_address_goes_back_to_the_game(players, client):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    response = client.get(reverse("game-move", args=[game.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("game", args=[game.pk])


@pytest.mark.django_db
def test_other_methods_on_the_move_address_are_still_refused(players, client):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    assert client.put(reverse("game-move", args=[game.pk])).status_code == 405


@pytest.mark.django_db
def test_favicon_ico_leads_to_the_static_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"] == static("favicon.svg")


@pytest.mark.django_db
def test_the_memory_note_is_for_players_not_spectators(players, client):
    game = start_game("mamma-mia", players[:2], options={"memory": "strict"})
    client.force_login(players[0])
    assert MEMORY_NOTE in client.get(reverse("game", args=[game.pk])).content.decode()
    client.force_login(players[2])
    spectator_page = client.get(reverse("game", args=[game.pk]))
    assert spectator_page.status_code == 200
    assert MEMORY_NOTE not in spectator_page.content.decode()


@pytest.mark.parametrize(("value", "count"), [(1, 1), (1.0, 1), (0, 0), (12.0, 12), (2.5, 2), (None, 2), ("x", 2)])
def test_plural_count_gives_gettext_an_integer(value, count):
    assert plural_count(value) == count


def test_one_point_is_singular_in_english_and_french():
    from django.utils.translation import ngettext

    with translation.override("en"):
        assert ngettext("point", "points", 1) == "point"
    with translation.override("fr"):
        assert ngettext("point", "points", 1) == "point" and ngettext("point", "points", 3) == "points"
    with translation.override("ja"):
        assert ngettext("point", "points", 3) == "点"


def test_japanese_names_the_green_pepper_topping_as_a_pepper_not_pepperoni():
    from django.utils.translation import pgettext

    with translation.override("ja"):
        assert pgettext("mamma mia topping", "pepper") == "ピーマン"


def test_japanese_relative_times_read_naturally():
    from datetime import timedelta

    from django.contrib.humanize.templatetags.humanize import naturaltime
    from django.utils import timezone
    from django.utils.translation import gettext

    with translation.override("ja"):
        later = naturaltime(timezone.now() + timedelta(days=1, hours=23, minutes=1))
        assert later.endswith("後") and "今から" not in later
        assert gettext("Time runs out %(when)s.") % {"when": later} == f"{later}に時間切れになります。"
        assert "今に" not in gettext("created %(when)s") % {"when": naturaltime(timezone.now())}
