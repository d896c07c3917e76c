"""Resigning (the bot plays on, the seat counts last) and calling a game off (abandoned: no ranking, no stats)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone
from game_helpers import start_game
from together_helpers import committing, play_to_the_end, play_until

from games.exceptions import GameError
from games.history import selectors as history_selectors
from games.history.services import check_snapshot, verify_deal
from games.models import Game, GameEvent, GameState, GameStatus, PlayerStats, Seat
from games.play.services import check_play_move
from notifications.models import OutboxEmail
from together import services
from together.models import CallOff

pytestmark = pytest.mark.django_db


def test_resigning_needs_a_confirmation(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "Resign…" in html
    client.post(reverse("together-resign", args=[game.pk]))
    assert not Seat.objects.get(game=game, user=players[0]).is_bot
    client.post(reverse("together-resign", args=[game.pk]), {"confirm": "yes"})
    assert Seat.objects.get(game=game, user=players[0]).resigned_at is not None


def test_a_resigned_seat_is_played_by_the_bot_and_counts_last(client, players):
    game = start_game("konamon", players[:3])
    quitter = players[0]
    with committing():
        services.resign(user=quitter, game_id=game.pk)
    seat = Seat.objects.get(game=game, user=quitter)
    assert seat.is_bot and seat.resigned_at is not None and not seat.dropped_out
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.RESIGNED, name=quitter.public_name).exists()
    client.force_login(players[1])
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f"{quitter.public_name} resigned: the bot plays their seat to the end." in html
    assert "resigned · bot plays" in html
    with pytest.raises(GameError):
        check_play_move(user=quitter, game_id=game.pk, move={}, expected_version=game.version)
    game = play_to_the_end(game)
    seats = {s.user_id: s for s in Seat.objects.filter(game=game)}
    assert seats[quitter.pk].final_rank == 3
    assert sorted(seats[p.pk].final_rank for p in players[1:3]) in ([1, 2], [1, 1])
    stats = PlayerStats.objects.get(user=quitter, engine_slug="konamon")
    assert (stats.played, stats.won, stats.places_sum, stats.dropped) == (1, 0, 3, 0)
    history = client.get(reverse("profile", args=[quitter.username])).content.decode()
    assert "resigned" in history


def test_resigning_twice_or_after_the_end_is_refused(players):
    game = start_game("konamon", players[:2])
    services.resign(user=players[0], game_id=game.pk)
    with pytest.raises(GameError):
        services.resign(user=players[0], game_id=game.pk)
    with pytest.raises(GameError):
        services.resign(user=players[2], game_id=game.pk)


def test_a_game_is_called_off_when_every_other_human_accepts(client, players):
    game = start_game("konamon", players[:3], bots=1)
    client.force_login(players[0])
    client.post(reverse("together-call-off", args=[game.pk]))
    proposal = CallOff.objects.get(game=game)
    assert OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TABLE, payload__what="call_off_proposed").count() == 2
    services.answer_call_off(user=players[1], game_id=game.pk, accept=True)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    client.force_login(players[2])
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "proposes to call the game off" in html and "Agree to call it off" in html
    client.post(reverse("together-call-off-answer", args=[game.pk]), {"answer": "accept"})
    game.refresh_from_db()
    proposal.refresh_from_db()
    assert game.status == GameStatus.ABANDONED and proposal.status == CallOff.Status.ACCEPTED
    assert not Seat.objects.filter(game=game, awaited=True).exists()
    assert not Seat.objects.filter(game=game, final_rank__isnull=False).exists()
    assert not PlayerStats.objects.exists()
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "This game was called off." in page
    history = history_selectors.match_history(user=players[2])
    assert [s.game_id for s in history.object_list] == [game.pk]
    assert "called off" in client.get(reverse("profile", args=[players[2].username])).content.decode()
    assert "called off" in client.get(reverse("my-games")).content.decode()
    assert client.get(reverse("game-replay", args=[game.pk])).status_code == 404
    assert check_snapshot(game).problems == []


def test_a_call_off_awaiting_your_answer_is_a_banner_above_the_board(client, players):
    """Issue 32: a request that needs an answer from you shows at the top of the table, not under "Leaving the
    table"; answered, it says so there; it goes when the proposal does."""
    game = start_game("konamon", players[:3])
    client.force_login(players[0])
    client.post(reverse("together-call-off", args=[game.pk]))
    client.force_login(players[1])
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    banner = html.index('class="request-banner')
    assert banner < html.index('class="table-wrap"') and banner < html.index('id="table-actions"')
    assert html.count("Agree to call it off") == 1 and html.index("Agree to call it off") > banner
    partial = client.get(reverse("game-table", args=[game.pk]) + "?v=old").content.decode()
    assert 'class="request-banner' in partial  # the live partial brings it too
    client.post(reverse("together-call-off-answer", args=[game.pk]), {"answer": "accept"})
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "You agreed." in html and "Agree to call it off" not in html
    client.force_login(players[2])
    client.post(reverse("together-call-off-answer", args=[game.pk]), {"answer": "decline"})
    html = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'class="request-banner' not in html and "wanted to play on" in html


def test_a_called_off_game_says_so_at_the_top_and_reveals_its_seed_everywhere(client, players):
    game = start_game("konamon", players[:2], bots=1)
    services.propose_call_off(user=players[0], game_id=game.pk)
    services.answer_call_off(user=players[1], game_id=game.pk, accept=True)
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    seed = GameState.objects.get(game=game).seed
    assert game.revealed_seed == seed
    assert verify_deal(game) == []
    client.force_login(players[1])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    status = page[page.index('<section class="turn-status"') :]
    status = status[: status.index("</section>")]
    assert "This game was called off." in status and "to move" not in status
    assert ">to move<" not in page and "choosing" not in page  # nobody is awaited on the board either
    deal_check = page[page.index('<section class="card deal-check"') :]
    deal_check = deal_check[: deal_check.index("</section>")]
    assert seed in deal_check and "once the game is over" not in deal_check
    assert client.get(reverse("api-game", args=[game.pk])).json()["game"]["seed"] == seed
    from notifications.emails import render

    told = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TABLE, payload__what="abandoned")
    assert told and all("The seed of the deal is revealed on the game page" in render(row)[1] for row in told)


def test_one_refusal_ends_the_proposal_and_the_game_goes_on(players):
    game = start_game("konamon", players[:3])
    services.propose_call_off(user=players[0], game_id=game.pk)
    services.answer_call_off(user=players[1], game_id=game.pk, accept=False)
    assert CallOff.objects.get(game=game).status == CallOff.Status.DECLINED
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE
    told = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TABLE, payload__what="call_off_declined")
    assert {row.user_id for row in told} == {players[0].pk, players[2].pk}
    with pytest.raises(GameError):
        services.answer_call_off(user=players[2], game_id=game.pk, accept=True)
    services.propose_call_off(user=players[2], game_id=game.pk)  # a new proposal may follow


def test_an_unanswered_proposal_lapses_after_the_time_limit(players):
    game = start_game("konamon", players[:2], time_limit_hours=24)
    start = timezone.now()
    with time_machine.travel(start, tick=False):
        services.propose_call_off(user=players[0], game_id=game.pk)
    with time_machine.travel(start + dt.timedelta(hours=23), tick=False):
        assert services.settle_lapsed_call_offs() == 0
    with time_machine.travel(start + dt.timedelta(hours=24, minutes=1), tick=False):
        assert services.settle_lapsed_call_offs() == 1
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABANDONED
    assert CallOff.objects.get(game=game).status == CallOff.Status.LAPSED


def test_without_a_time_limit_a_proposal_lapses_after_three_days(players):
    game = start_game("konamon", players[:2])
    services.propose_call_off(user=players[0], game_id=game.pk)
    proposal = CallOff.objects.get(game=game)
    assert proposal.expires_at - proposal.created_at == pytest.approx(dt.timedelta(days=3), abs=dt.timedelta(seconds=5))


def test_a_resignation_can_complete_a_call_off(players):
    game = start_game("konamon", players[:3])
    services.propose_call_off(user=players[0], game_id=game.pk)
    services.answer_call_off(user=players[1], game_id=game.pk, accept=True)
    services.resign(user=players[2], game_id=game.pk)
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABANDONED


def test_a_game_that_ends_by_play_voids_the_proposal(players):
    game = start_game("konamon", players[:2])
    services.propose_call_off(user=players[0], game_id=game.pk)
    play_to_the_end(game)
    assert CallOff.objects.get(game=game).status == CallOff.Status.VOID


def test_a_stalled_seat_may_be_handed_to_the_bot_after_14_days_without_a_time_limit(client, players):
    game = start_game("marumiere", players[:2])
    awaited = Seat.objects.get(game=game, awaited=True)
    other = next(p for p in players[:2] if p.pk != awaited.user_id)
    with pytest.raises(GameError):
        services.hand_over_stalled_seat(user=other, game_id=game.pk, seat_number=awaited.number)
    with time_machine.travel(timezone.now() + dt.timedelta(days=14, minutes=1), tick=False):
        client.force_login(other)
        html = client.get(reverse("game", args=[game.pk])).content.decode()
        assert "has not moved for 14 days" in html
        with pytest.raises(GameError):  # not one's own seat
            services.hand_over_stalled_seat(user=awaited.user, game_id=game.pk, seat_number=awaited.number)
        client.post(reverse("together-hand-over", args=[game.pk]), {"seat": awaited.number})
    awaited.refresh_from_db()
    assert awaited.is_bot and awaited.dropped_out
    assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.HANDED_OVER).exists()


def test_games_with_a_time_limit_have_no_hand_over(players):
    game = start_game("marumiere", players[:2], time_limit_hours=24)
    awaited = Seat.objects.get(game=game, awaited=True)
    other = next(p for p in players[:2] if p.pk != awaited.user_id)
    with time_machine.travel(timezone.now() + dt.timedelta(days=20), tick=False), pytest.raises(GameError):
        services.hand_over_stalled_seat(user=other, game_id=game.pk, seat_number=awaited.number)


def test_api_resign_and_call_off(client, players):
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    assert client.post(reverse("api-game-call-off", args=[game.pk])).status_code == 201
    assert client.post(reverse("api-game-call-off", args=[game.pk])).status_code == 403
    client.force_login(players[1])
    assert client.get(reverse("api-game-call-off", args=[game.pk])).json()["status"] == "pending"
    assert client.post(reverse("api-game-call-off-answer", args=[game.pk]), {"accept": "maybe"},
                       content_type="application/json").status_code == 400
    response = client.post(reverse("api-game-call-off-answer", args=[game.pk]), {"accept": False},
                           content_type="application/json")
    assert response.json()["status"] == "declined"
    response = client.post(reverse("api-game-resign", args=[game.pk]))
    assert response.status_code == 200 and response.json()["resigned_at"]
    detail = client.get(reverse("api-game", args=[game.pk])).json()
    assert [s["resigned_at"] is not None for s in detail["game"]["seats"]].count(True) == 1
    play_until(game, done=lambda g: False)


def test_the_finished_email_tells_a_resigned_player_they_are_last(players):
    from notifications.emails import render

    game = start_game("konamon", players[:2])
    with committing():
        services.resign(user=players[0], game_id=game.pk)
        services.resign(user=players[1], game_id=game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    seat = Seat.objects.get(game=game, user=players[0])
    row = OutboxEmail(user=players[0], game=game, kind=OutboxEmail.Kind.FINISHED, dedupe_key="f",
                      payload={"seat_number": seat.number})
    subject, _text, _html = render(row)
    assert seat.final_rank == 2  # both resigned: both last, nobody won
    assert "you placed 2nd of 2" in subject


def test_platform_ranks():
    from together.rules import platform_ranks

    outcome = [{"seat": 0, "rank": 1}, {"seat": 1, "rank": 2}, {"seat": 2, "rank": 2}, {"seat": 3, "rank": 4}]
    assert platform_ranks(outcome, resigned=set()) == {0: 1, 1: 2, 2: 2, 3: 4}
    assert platform_ranks(outcome, resigned={0}) == {1: 1, 2: 1, 3: 3, 0: 4}
    assert platform_ranks(outcome, resigned={0, 3}) == {1: 1, 2: 1, 0: 4, 3: 4}


@pytest.mark.parametrize(
    ("route", "data"),
    [
        ("together-resign", {"confirm": "yes"}),
        ("together-call-off", {}),
        ("together-call-off-answer", {"accept": "yes"}),
        ("together-hand-over", {"seat": "0"}),
        ("together-chat", {"text": "hi"}),
        ("together-note", {"note": "x"}),
        ("together-rematch", {}),
    ],
)
def test_a_private_game_i_may_not_see_answers_its_table_forms_as_a_missing_game(client, players, route, data):
    hidden = start_game("konamon", players[:2], visibility="private")
    client.force_login(players[3])
    for headers in ({}, {"HTTP_HX_REQUEST": "true"}):
        assert client.post(reverse(route, args=[hidden.pk]), data, **headers).status_code == 404
        assert client.post(reverse(route, args=[hidden.pk + 1000]), data, **headers).status_code == 404
    assert not Seat.objects.filter(game=hidden, is_bot=True).exists()


def test_after_a_resignation_log_banner_end_screen_email_and_api_name_the_same_winner(client, players, monkeypatch):
    """Marumiere's seed 12: the bots playing both resigned seats finish with seat 1 (resigned) tied first with
    the bot of seat 2 by the engine's count. A resigned seat counts as last, so the bot alone wins, everywhere."""
    from notifications.emails import render

    monkeypatch.setattr("games.lobby.services.new_seed", lambda: 12)
    game = start_game("marumiere", players[:2], bots=1)
    with committing():
        services.resign(user=players[0], game_id=game.pk)
        services.resign(user=players[1], game_id=game.pk)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    engine_winners = {row["seat"] for row in game.outcome if row["rank"] == 1}
    seats = {s.number: s for s in Seat.objects.filter(game=game).select_related("user")}
    resigned = {n for n, s in seats.items() if s.resigned_at is not None}
    assert engine_winners & resigned, "the stacked seed no longer makes a resigned seat tie for first"
    (winner,) = [s for s in seats.values() if s.final_rank == 1]
    loser = next(seats[n] for n in engine_winners & resigned)
    assert loser.final_rank == 3

    client.force_login(players[0])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert f"The game is over. Winner: {winner.name}!" in page and "Winners:" not in page
    banner = page[page.index('<div class="end-banner">') :]
    assert f"{winner.name} wins!" in banner[: banner.index("</div>")]
    log = client.get(reverse("api-game-log", args=[game.pk])).json()["entries"]
    assert [e["text"] for e in log if e["text"].startswith("The game is over.")] == [
        f"The game is over. Winner: {winner.name}!"
    ]
    outcome = client.get(reverse("api-game", args=[game.pk])).json()["game"]["outcome"]
    assert {row["seat"]: row["rank"] for row in outcome} == {n: s.final_rank for n, s in seats.items()}
    for row in OutboxEmail.objects.filter(kind=OutboxEmail.Kind.FINISHED, game=game):
        subject, text, html = render(row)
        assert f"\n1. {winner.name} – " in text and f"\n3. {loser.name} " in text and "\n2. " not in text, text
