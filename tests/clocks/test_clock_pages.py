"""What people see and send about clocks: the create form, lobby and game page, "My games", the quiet-days page,
the API and the e-mails."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.urls import reverse

from clocks.arithmetic import DAY, HOUR, ClockKind, TimeControl, quiet_mask
from games.models import Game, Seat
from notifications.models import OutboxEmail
from tests.games.game_helpers import awaited_human, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

NOW = dt.datetime(2030, 3, 1, 9, 0, tzinfo=dt.UTC)  # a Friday
STANDARD = TimeControl.bank(initial=3 * DAY, increment=1 * DAY, cap=7 * DAY)
BASE_FORM = {"engine_slug": "mamma-mia", "players": 2, "bots": 0, "time_limit_hours": 24, "visibility": "public"}


@pytest.fixture
def players(user_factory):
    return [user_factory(username=f"face{n}", display_name=f"Face {n}") for n in range(3)]


@pytest.fixture
def now():
    with time_machine.travel(NOW, tick=False):
        yield NOW


# Creating a game ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        ({"clock": "bank", "bank_preset": "standard"}, STANDARD),
        (
            {
                "clock": "bank",
                "bank_preset": "custom",
                "bank_initial_hours": 36,
                "bank_increment_hours": 6,
                "bank_cap_hours": 96,
            },
            TimeControl.bank(initial=36 * HOUR, increment=6 * HOUR, cap=96 * HOUR),
        ),
        ({"clock": "move", "time_limit_hours": 48}, TimeControl.per_move(48 * HOUR)),
        ({"clock": "none"}, TimeControl.untimed()),
        ({}, TimeControl.per_move(24 * HOUR)),  # a form from before time controls: its per-move limit
    ],
)
def test_the_time_control_is_chosen_at_creation(players, client, now, extra, expected):
    client.force_login(players[0])
    response = client.post(reverse("game-create"), {**BASE_FORM, **extra})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Game.objects.get().time_control == expected


@pytest.mark.parametrize(
    "extra",
    [
        {
            "clock": "bank",
            "bank_preset": "custom",
            "bank_initial_hours": 48,
            "bank_increment_hours": 6,
            "bank_cap_hours": 24,
        },  # cap below the start
        {
            "clock": "bank",
            "bank_preset": "custom",
            "bank_initial_hours": 0,
            "bank_increment_hours": 6,
            "bank_cap_hours": 24,
        },
        {
            "clock": "bank",
            "bank_preset": "custom",
            "bank_initial_hours": 800,
            "bank_increment_hours": 0,
            "bank_cap_hours": 900,
        },
        {
            "clock": "bank",
            "bank_preset": "custom",
            "bank_initial_hours": 24,
            "bank_increment_hours": 200,
            "bank_cap_hours": 900,
        },
        {"clock": "bank", "bank_preset": "custom"},  # no hours given
        {
            "clock": "bank",
            "bank_preset": "custom",
            "bank_initial_hours": "many",
            "bank_increment_hours": 1,
            "bank_cap_hours": 2,
        },
        {"clock": "bank", "bank_preset": "blitz"},
        {"clock": "sundial"},
    ],
)
def test_a_time_control_out_of_bounds_is_refused_in_the_users_language(players, client, now, extra):
    client.force_login(players[0])
    response = client.post(reverse("game-create"), {**BASE_FORM, **extra})
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    assert not Game.objects.exists()


def test_the_create_form_offers_the_controls_and_presets(players, client):
    client.force_login(players[0])
    page = client.get(reverse("game-create")).content.decode()
    for value in ("move", "bank", "none"):
        assert f'name="clock" value="{value}"' in page
    assert "Standard: 3 days, + 1 day after each move, up to 7 days" in page
    assert 'name="bank_cap_hours"' in page


def test_the_lobby_and_the_game_page_show_the_time_control(players, client, now):
    client.force_login(players[0])
    client.post(reverse("game-create"), {**BASE_FORM, "players": 3, "clock": "bank", "bank_preset": "standard"})
    game = Game.objects.get()
    text = "Time bank: 3 days, + 1 day after each move, up to 7 days"
    assert text in client.get(reverse("lobby")).content.decode()
    assert text in client.get(reverse("game", args=[game.pk])).content.decode()


# The game page -----------------------------------------------------------------------------------------------


def test_the_game_page_shows_every_players_clock_ticking_without_inline_script(players, client, now):
    mover_user, other_user = players[:2]
    for user in (mover_user, other_user):
        user.time_zone, user.quiet_days = "Europe/Paris", quiet_mask([5, 6])
        user.save()
    game = start_game("mamma-mia", [mover_user, other_user], time_control=STANDARD)
    mover, _ = awaited_human(game)
    client.force_login(other_user)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    clocks = re.findall(r'data-clock-deadline="(\d+)" data-clock-pauses="([\d,-]*)"', page)
    # The status line's countdown and the mover's clock in the list: the same clock (issue 35).
    assert clocks == [(str(int(mover.deadline_at.timestamp() * 1000)), clocks[0][1])] * 2
    assert "Time left: <strong data-clock-text>3 d 0 h</strong>" in page  # not "5 days from now"
    # The weekend in Paris, until the deadline: Saturday 00:00 to Monday 00:00 CET.
    saturday = int(dt.datetime(2030, 3, 1, 23, 0, tzinfo=dt.UTC).timestamp() * 1000)
    monday = int(dt.datetime(2030, 3, 3, 23, 0, tzinfo=dt.UTC).timestamp() * 1000)
    assert clocks[0][1] == f"{saturday}-{monday}"
    assert mover.deadline_at == NOW + 5 * DAY  # 3 days of clock over a quiet weekend
    assert "bank: 3 days" in page  # the player who is not to move
    assert page.count("quiet: Sat, Sun") == 2
    scripts = re.findall(r"<script[^>]*>", page)
    assert any("js/clocks.js" in tag for tag in scripts)
    assert all("src=" in tag or "nonce=" in tag for tag in scripts)


def test_my_games_lists_the_least_time_left_first(players, client, now):
    me, friend = players[:2]
    slow = start_game("marumiere", [me, friend], time_limit_hours=168)
    fast = start_game("marumiere", [me, friend], time_limit_hours=12)
    untimed = start_game("marumiere", [me, friend])
    for game in (slow, fast, untimed):
        seat = Seat.objects.get(game=game, user=me)
        if not seat.awaited:
            from tests.clocks.test_clocks_in_games import play_as

            play_as(game, friend)
    client.force_login(me)
    page = client.get(reverse("my-games")).content.decode()
    section = page.split('id="awaiting-title"')[1].split('id="waiting-title"')[0]
    order = [int(n) for n in re.findall(r'href="/games/(\d+)/"', section)]
    assert order == [fast.pk, slow.pk, untimed.pk]
    assert section.count("data-clock-deadline") == 2


# Quiet days page ----------------------------------------------------------------------------------------------


def test_a_player_chooses_their_quiet_days(players, client, now):
    user = players[0]
    client.force_login(user)
    page = client.get(reverse("clocks:quiet-days")).content.decode()
    assert 'name="days" value="5"' in page and "Saturday" in page
    response = client.post(reverse("clocks:quiet-days"), {"days": ["5", "6"]})
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.quiet_days == quiet_mask([5, 6])
    assert client.post(reverse("clocks:quiet-days"), {"days": []}).status_code == 302
    user.refresh_from_db()
    assert user.quiet_days == 0


@pytest.mark.parametrize("days", [["0", "1", "2", "3"], ["7"], ["x"], ["-1"]])
def test_bad_quiet_days_are_refused_and_change_nothing(players, client, days):
    user = players[0]
    client.force_login(user)
    response = client.post(reverse("clocks:quiet-days"), {"days": days})
    assert response.status_code == 400
    assert 'class="errorlist' in response.content.decode()
    user.refresh_from_db()
    assert user.quiet_days == 0


def test_quiet_days_are_in_the_users_language(players, client):
    user = players[0]
    user.language = "fr"
    user.save()
    client.force_login(user)
    response = client.post(reverse("clocks:quiet-days"), {"days": ["0", "1", "2", "3"]}, HTTP_ACCEPT_LANGUAGE="fr")
    assert "Choisissez au plus trois jours calmes." in response.content.decode()


# API ------------------------------------------------------------------------------------------------------------


def test_the_api_creates_a_game_with_a_bank_and_shows_it(players, client, now):
    client.force_login(players[0])
    response = client.post(
        "/api/games/",
        {"game": "konamon", "players": 2, "time_control": STANDARD.as_dict()},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["time_control"] == STANDARD.as_dict()
    assert Game.objects.get().time_control == STANDARD


@pytest.mark.parametrize(
    "time_control",
    [
        {"kind": "bank"},
        {"kind": "move", "per_move_seconds": 5400},
        "bank",
        [1],
        {"kind": "move", "per_move_seconds": 1},
    ],
)
def test_the_api_refuses_a_time_control_it_does_not_offer(players, client, time_control):
    client.force_login(players[0])
    response = client.post(
        "/api/games/", {"game": "konamon", "players": 2, "time_control": time_control}, content_type="application/json"
    )
    assert response.status_code == 400
    assert not Game.objects.exists()


# E-mails ------------------------------------------------------------------------------------------------------------


def test_the_turn_email_says_the_readers_clock_and_quiet_days(players):
    from notifications.emails import render
    from tests.clocks.test_clocks_in_games import play_as

    for user in players[:2]:
        user.time_zone, user.quiet_days, user.notify_mode = "Asia/Tokyo", quiet_mask([6]), "every"
        user.save()
    with time_machine.travel(NOW, tick=False):
        game = start_game("mamma-mia", players[:2], time_control=STANDARD)
        first, _ = awaited_human(game)
        other = next(u for u in players[:2] if u != first.user)
        play_as(game, first.user)
        turn = OutboxEmail.objects.get(kind=OutboxEmail.Kind.TURN, user=other)
        _subject, text, html = render(turn)
    assert "Your clock shows 3 days." in text and "Your clock shows 3 days." in html
    assert "It does not run on your quiet days (Sun)." in text
    assert "(Asia/Tokyo)" in text


def test_kinds_of_control_are_stored_by_name(players):
    game = start_game("mamma-mia", players[:2], time_control=STANDARD)
    assert game.clock == ClockKind.BANK and game.time_limit_hours == 0


# One reading of a clock everywhere (issue 35) ------------------------------------------------------------------


def status_line(page: str) -> str:
    status = page[page.index('<section class="turn-status"') :]
    return status[: status.index("</section>")]


@pytest.mark.parametrize(("language", "hours_word"), [("en", "hours"), ("fr", "heures"), ("ja", "時間後")])
def test_the_status_line_and_my_games_read_the_clock_as_the_clock_does(players, client, now, language, hours_word):
    me, friend = players[:2]
    game = start_game("marumiere", [me, friend], time_limit_hours=12)
    mover, _ = awaited_human(game)
    waiter = friend if mover.user_id == me.pk else me
    reading = {"en": "11 h 58 min", "fr": "11 h 58 min", "ja": "11時間58分"}[language]
    with time_machine.travel(NOW + dt.timedelta(seconds=90), tick=False):
        for user in (mover.user, waiter):
            user.language = language
            user.save()
            client.force_login(user)
            status = status_line(client.get(reverse("game", args=[game.pk])).content.decode())
            assert reading in status and hours_word not in status, status
        client.force_login(mover.user)
        page = client.get(reverse("my-games")).content.decode()
        section = page.split('id="awaiting-title"')[1].split('id="waiting-title"')[0]
        assert reading in section and hours_word not in section, section
