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


@pytest.mark.django_db
def test_a_bot_keeps_its_waiting_room_name_in_the_game(players, client):
    """Bots are numbered by the order the seats were taken, not by the seat the start draws."""
    import re

    from games.lobby import services as lobby_services
    from games.models import Seat

    game = lobby_services.create_game(
        user=players[0], engine_slug="marumiere", players=4, options={}, bots=2, visibility="public",
        time_limit_hours=0, time_control=None, allow_stacked_deal=True,
    )
    client.force_login(players[0])
    waiting = client.get(reverse("game", args=[game.pk])).content.decode()
    before = sorted(set(re.findall(r"Bot \d", waiting)))
    assert before == ["Bot 2", "Bot 3"]
    for user in players[1:2]:
        lobby_services.join_game(user=user, game_id=game.pk)
    bots = Seat.objects.filter(game=game, is_bot=True)
    assert sorted(re.match(r"Bot \d", seat.name)[0] for seat in bots) == before
    table = client.get(reverse("game", args=[game.pk])).content.decode()
    assert sorted(set(re.findall(r"Bot \d", table))) == before


def test_marumiere_piles_keep_their_laid_out_numbers():
    from marumiere.ui import numbered_picks, pile_numbers

    log = [
        {"type": "round_start", "round": 1, "rounds": 3, "dealer": 2},
        {"type": "pick", "seat": 0, "pile": 1},
        {"type": "pick", "seat": 1, "pile": 0},
        {"type": "pick", "seat": 2, "pile": 0, "last": True},
    ]
    assert pile_numbers(log[:1], 3, 3) == [1, 2, 3]
    assert pile_numbers(log[:2], 3, 2) == [1, 3]  # pile 2 taken: the others keep 1 and 3
    assert pile_numbers(log[:3], 3, 1) == [3]
    numbered, left = numbered_picks(log, 3)
    assert [e.get("number") for e in numbered] == [None, 2, 1, 3] and left == []
    assert numbered[1] is not log[1] and "number" not in log[1]  # copies
    # Without the round's start (a log cut short): their places among those left.
    assert pile_numbers(log[1:2], 3, 2) == [1, 2]


@pytest.mark.django_db
def test_marumiere_pages_name_a_pile_by_its_laid_out_number(players, client):
    from games.play import services as play_services
    from tests.games.game_helpers import awaited_human

    game = start_game("marumiere", players[:3])
    seat, view = awaited_human(game)
    pick = next(m for m in view.legal_moves if m.get("pile") == 1)
    play_services.check_play_move(user=seat.user, game_id=game.pk, move=pick, expected_version=game.version)
    game.refresh_from_db()
    following, _view = awaited_human(game)
    client.force_login(following.user)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Take pile 1" in page and "Take pile 3" in page and "Take pile 2" not in page
    assert f"{seat.name} takes pile 2." in page


def test_the_header_folds_the_account_links_behind_a_menu(client):
    page = client.get("/").content.decode()
    assert 'class="nav-more__toggle" href="#nav-more" aria-controls="nav-more" aria-expanded="false"' in page
    assert '<div class="nav-more" id="nav-more">' in page and "js/nav" in page


@pytest.mark.django_db
def test_my_games_says_how_long_a_game_has_waited_on_someone_not_since_a_time_ago(players):
    """"waiting on alice since 5 hours ago" was not English (issue 19): a duration, joined as each language
    writes one, in the four languages; under a minute, only whom the game waits on."""
    import datetime as dt

    from django.utils import timezone

    from games.templatetags.games_tags import awaited_summary

    game = start_game("konamon", players[:2])
    awaited = [s for s in game.seats.all() if s.awaited]
    names = [s.name for s in awaited]
    for seat in awaited:
        seat.awaited_since = timezone.now() - dt.timedelta(hours=5, minutes=30)
        seat.save(update_fields=["awaited_since"])
    game = type(game).objects.prefetch_related("seats").get(pk=game.pk)
    texts = {}
    for language in ("en", "ja", "zh-hant", "fr"):
        with translation.override(language):
            texts[language] = awaited_summary(game)
    assert all(name in text for name in names for text in texts.values()), texts
    assert "since" not in texts["en"] and "ago" not in texts["en"]
    assert texts["en"].endswith(" for 5 hours 30 minutes"), texts["en"]
    assert texts["ja"].startswith("5時間30分前から ") and texts["ja"].endswith(" の手番待ち"), texts["ja"]
    assert texts["zh-hant"].startswith("等待 ") and texts["zh-hant"].endswith(" 出手已 5 小時 30 分鐘"), texts
    assert texts["fr"].startswith("en attente de ") and texts["fr"].endswith(" depuis 5 heures et 30 minutes"), texts
    for seat in awaited:
        seat.awaited_since = timezone.now()
        seat.save(update_fields=["awaited_since"])
    game = type(game).objects.prefetch_related("seats").get(pk=game.pk)
    assert awaited_summary(game) == f"waiting on {' and '.join(names)}"


@pytest.mark.django_db
def test_the_game_page_and_my_games_say_when_a_turn_began_in_english_that_reads(players, client):
    """"waiting since 5 hours ago" was not English either (issue 19): "turn began 5 hours ago"."""
    import datetime as dt

    from django.utils import timezone

    game = start_game("marumiere", players[:2])
    seat = next(s for s in game.seats.all() if s.awaited)
    seat.awaited_since = timezone.now() - dt.timedelta(hours=5, minutes=1)
    seat.save(update_fields=["awaited_since"])
    client.force_login(seat.user)
    mine = client.get(reverse("my-games")).content.decode()
    client.force_login(next(s.user for s in game.seats.all() if s.pk != seat.pk))
    table = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "turn began 5\xa0hours ago" in table and "your turn began 5\xa0hours ago" in mine
    assert "waiting since" not in table and "waiting for you since" not in mine
