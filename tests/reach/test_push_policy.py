"""Push follows the e-mails' "once until I visit" policy for "your move"; webhooks get every turn."""

from __future__ import annotations

import uuid

import pytest
from reach_helpers import play

from accounts.models import NotifyMode
from games.play import services as play_services
from reach.fanout import refresh_flags
from reach.models import Channel, Delivery, PushSubscription, Webhook
from tests.games.game_helpers import awaited_human, start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


def with_browser_and_hook(user) -> None:
    PushSubscription.objects.create(user=user, endpoint=f"https://push.example/{uuid.uuid4()}", p256dh="x", auth="y")
    Webhook.objects.create(user=user, url="https://hooks.example/x", kinds=["turn", "started"])
    refresh_flags(user.pk)
    user.refresh_from_db()  # the lobby seats this very object: it must know it uses the channels now


def set_mode(users, mode) -> None:
    for user in users:
        user.notify_mode = mode
        user.save(update_fields=["notify_mode"])


def told(channel, user) -> int:
    """How many times ``user`` heard "your move" on ``channel`` (the started event of the first player too)."""
    rows = Delivery.objects.filter(channel=channel, user=user)
    return rows.filter(kind="turn").count() + rows.filter(kind="started", payload__awaited=True).count()


def time_runs_out(game, seat) -> None:
    game.refresh_from_db()
    play_services.play_timeout_move(game_id=game.pk, seat_number=seat.number, expected_version=game.version)
    game.refresh_from_db()


def visit(seat) -> None:
    seat.refresh_from_db()
    play_services.mark_visited(seat_id=seat.pk, version=seat.game.version)


@pytest.fixture
def absent_player(players):
    """A Mamma Mia! game whose first player has a browser and a hook, is told it is their move, and stays away."""
    for user in players[:2]:
        with_browser_and_hook(user)
    game = start_game("mamma-mia", players[:2])
    seat, _view = awaited_human(game)
    return game, seat


def test_once_until_visit_pushes_no_second_turn_until_the_player_opens_the_game(absent_player):
    game, absent = absent_player
    assert absent.user.notify_mode == NotifyMode.ONCE_UNTIL_VISIT
    assert told(Channel.PUSH, absent.user) == 1  # the game started: their move
    time_runs_out(game, absent)
    play(game)  # the other player moves: the game waits on the absent player again
    absent.refresh_from_db()
    assert absent.awaited and told(Channel.PUSH, absent.user) == 1
    visit(absent)  # they open the game page, and still do not move...
    time_runs_out(game, absent)
    play(game)  # ...so the next time the game waits on them, their phone hears it again
    assert told(Channel.PUSH, absent.user) == 2


def test_webhooks_hear_every_turn_whatever_the_email_policy(absent_player):
    game, absent = absent_player
    for _ in range(2):
        time_runs_out(game, absent)
        play(game)
    assert told(Channel.WEBHOOK, absent.user) == 3
    assert told(Channel.PUSH, absent.user) == 1


def test_once_until_visit_counts_a_move_of_ones_own_as_a_visit(players):
    for user in players[:2]:
        with_browser_and_hook(user)
    game = start_game("mamma-mia", players[:2])
    first = play(game)  # without opening the page (as by an e-mail reply)
    play(game)
    assert told(Channel.PUSH, first.user) == 2


def test_every_time_pushes_each_time(players):
    set_mode(players[:2], NotifyMode.EVERY_TIME)
    for user in players[:2]:
        with_browser_and_hook(user)
    game = start_game("mamma-mia", players[:2])
    absent, _view = awaited_human(game)
    for _ in range(2):
        time_runs_out(game, absent)
        play(game)
    assert told(Channel.PUSH, absent.user) == 3


@pytest.mark.parametrize("mode", [NotifyMode.NEVER, NotifyMode.DAILY_DIGEST])
def test_players_who_want_fewer_emails_get_push_once_until_they_visit(players, mode):
    """The e-mail frequency is the e-mail's: push has its own switch, and the quiet policy."""
    set_mode(players[:2], mode)
    for user in players[:2]:
        with_browser_and_hook(user)
    game = start_game("mamma-mia", players[:2])
    absent, _view = awaited_human(game)
    for _ in range(2):
        time_runs_out(game, absent)
        play(game)
    assert told(Channel.PUSH, absent.user) == 1


def test_a_browser_added_after_the_first_turn_hears_the_next_one(players):
    """Nothing was pushed before: the first push is never held back by "once"."""
    game = start_game("mamma-mia", players[:2])
    absent, _view = awaited_human(game)
    with_browser_and_hook(absent.user)
    with_browser_and_hook(players[1] if absent.user == players[0] else players[0])
    time_runs_out(game, absent)
    play(game)
    assert told(Channel.PUSH, absent.user) == 1


def test_the_first_players_game_started_push_waits_the_hold_and_the_webhook_hears_it_at_once(players, settings):
    """Issue 34: for the first player "the game started" is "your move": pushed after the hold, dropped if by then
    they are at the table; a program's webhook hears it at once."""
    import datetime as dt

    import time_machine
    from django.utils import timezone

    from notifications.outbox import obsolete_reason_of

    settings.TURN_NOTIFY_HOLD_SECONDS = 180
    for user in players[:2]:
        with_browser_and_hook(user)
    game = start_game("mamma-mia", players[:2])
    first, _view = awaited_human(game)
    push = Delivery.objects.get(channel=Channel.PUSH, user=first.user, kind="started")
    hook = Delivery.objects.get(channel=Channel.WEBHOOK, user=first.user, kind="started")
    assert push.payload["held"] and push.next_attempt_at >= timezone.now() + dt.timedelta(seconds=170)
    assert "held" not in hook.payload and hook.next_attempt_at <= timezone.now()
    other = Delivery.objects.get(channel=Channel.PUSH, kind="started", payload__awaited=False)
    assert "held" not in other.payload  # not awaited: "the game began", at once
    visit(first)  # the page showed the first player the new game
    push = Delivery.objects.select_related("game", "user").get(pk=push.pk)
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=185)):
        assert obsolete_reason_of(push, quiet=True) == "seen on the open page"  # what the push delivery asks
        assert obsolete_reason_of(hook, quiet=False) is None
