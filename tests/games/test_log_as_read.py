"""Issue 19, point 4: the log as people read it. Each line has its time (of the move that made it, in the
reader's time zone; the deal has the start's), rounds are set apart, Konamon!'s own "has chosen" is not
said twice, and Mamma Mia!'s strict memory says how many plays it hides instead of dropping them."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.urls import reverse

from games.models import Move, SeatView
from games.play import services as play_services
from tests.games.game_helpers import awaited_human, start_game

TOKYO = dt.timezone(dt.timedelta(hours=9))


def move(game, *, pick=0):
    game.refresh_from_db()
    seat, seat_view = awaited_human(game)
    play_services.check_play_move(
        user=seat.user, game_id=game.pk, move=seat_view.legal_moves[pick], expected_version=game.version
    )
    return seat


def log_items(page: str) -> list[str]:
    pane = re.search(r'<section id="log-pane".*?</section>', page, re.S).group(0)
    return re.findall(r'<li class="log-line[^"]*">.*?</li>', pane, re.S)


@pytest.mark.django_db
def test_each_line_has_the_time_of_its_move_in_the_readers_time_zone(players, client, time_machine):
    time_machine.move_to(dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC), tick=False)
    game = start_game("marumiere", players[:3])
    time_machine.move_to(dt.datetime(2026, 3, 1, 10, 30, tzinfo=dt.UTC), tick=False)
    mover = move(game)
    assert Move.objects.get(game=game, sequence=game.version + 1).log_positions  # kept with the move
    viewer = players[0]
    viewer.time_zone = "Asia/Tokyo"
    viewer.save(update_fields=["time_zone"])
    client.force_login(viewer)
    items = log_items(client.get(reverse("game", args=[game.pk])).content.decode())
    times = [re.search(r'datetime="([^"]+)"', item).group(1) for item in items if "log-time" in item]
    assert times, items
    assert all(dt.datetime.fromisoformat(t) in (dt.datetime(2026, 3, 1, 9, 0, tzinfo=dt.UTC),
                                                dt.datetime(2026, 3, 1, 10, 30, tzinfo=dt.UTC)) for t in times)
    last = items[-1]
    assert mover.name in last and 'datetime="2026-03-01T19:30:00+09:00"' in last and "19:30" in last
    # The first line of a day carries the date; the next ones of that day only the time.
    assert "2026/03/01" in items[0] or "03/01/2026" in items[0] or "1 March" in items[0] or "Mar" in items[0]
    assert sum(1 for item in items if "2026" in re.sub(r'datetime="[^"]*"', "", item)) == 1


@pytest.mark.django_db
def test_the_whole_log_page_has_the_times_too(players, client):
    game = start_game("konamon", players[:2])
    move(game)
    client.force_login(players[0])
    page = client.get(reverse("game-log", args=[game.pk])).content.decode()
    assert page.count('class="log-time"') >= 3


@pytest.mark.django_db
def test_your_own_choice_is_one_line_not_two(players, client):
    game = start_game("konamon", players[:3])
    chooser = move(game)
    client.force_login(chooser.user)
    mine = " ".join(log_items(client.get(reverse("game", args=[game.pk])).content.decode()))
    assert f"{chooser.name} chose No." in mine and f"{chooser.name} has chosen." not in mine
    other = next(p for p in players[:3] if p != chooser.user)
    client.force_login(other)
    theirs = " ".join(log_items(client.get(reverse("game", args=[game.pk])).content.decode()))
    assert f"{chooser.name} has chosen." in theirs and "chose No." not in theirs


@pytest.mark.django_db
def test_a_new_round_is_set_apart(players, client):
    game = start_game("marumiere", players[:3])
    for _ in range(200):
        game.refresh_from_db()
        if SeatView.objects.get(game=game, seat_number=None).view["round"] > 1:
            break
        move(game)
    client.force_login(players[0])
    items = log_items(client.get(reverse("game", args=[game.pk])).content.decode())
    breaks = [item for item in items if "log-round" in item]
    assert breaks and "Round 2" in breaks[-1], items


@pytest.mark.django_db
def test_strict_memory_says_how_many_plays_it_hides(players, client):
    game = start_game("mamma-mia", players[:3], options={"memory": "strict"})
    sizes = []
    for _ in range(7):
        move(game)
        sizes.append(SeatView.objects.get(game=game, seat_number=0).log_size)
    assert sizes == sorted(sizes), "a viewer's log only grows: forgotten plays keep their place"
    client.force_login(players[0])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    hidden = [item for item in log_items(page) if "log-hidden" in item]
    assert hidden and re.search(r"\d+ plays? hidden by the memory rule\.", hidden[0]), hidden
    # Never what was played: the line names no topping.
    assert not re.search(r"pineapple|olive|pepper|mushroom|salami", " ".join(hidden), re.I)


@pytest.mark.django_db
def test_open_memory_hides_nothing(players, client):
    game = start_game("mamma-mia", players[:3], options={"memory": "open"})
    for _ in range(7):
        move(game)
    client.force_login(players[0])
    assert "log-hidden" not in client.get(reverse("game", args=[game.pk])).content.decode()



@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["konamon", "marumiere", "mamma-mia"])
def test_the_game_is_told_started_before_its_first_round_begins(players, client, slug):
    game = start_game(slug, players[:2])
    client.force_login(players[0])
    for url in (reverse("game", args=[game.pk]), reverse("game-log", args=[game.pk])):
        page = client.get(url).content.decode()
        items = log_items(page) if "log-pane" in page else re.findall(r'<li class="log-line[^"]*">.*?</li>', page, re.S)
        started = next(i for i, item in enumerate(items) if "The game started." in item)
        first_round = next(i for i, item in enumerate(items) if "Round 1 " in item)
        assert started < first_round, (url, items)
