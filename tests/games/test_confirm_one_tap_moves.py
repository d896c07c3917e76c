"""Issue 19, point 2: a one-tap move (a Marumiere pile or card, a Konamon! card) is confirmed before it is
sent when its player wants it; without JavaScript the server asks on a page of its own, and sends it only
when the same fields come back with ``confirmed=1``."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.urls import reverse

from accounts.models import ConfirmMoves
from tests.games.game_helpers import awaited_human, start_game

PHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)


def tap(client, game, *, move=None, ua="", **extra):
    """What a one-tap button of the move form posts."""
    seat, seat_view = awaited_human(game)
    data = {
        "move": json.dumps(move or seat_view.legal_moves[0]),
        "version": game.version,
        "idempotency_key": "7f1c0f8e-5d1e-4a0a-9c55-3b8d2b0d9a11",
        "one_tap": "1",
        **extra,
    }
    return client.post(reverse("game-move", args=[game.pk]), data, headers={"User-Agent": ua} if ua else {})


def player_to_move(game, client, mode):
    seat, _view = awaited_human(game)
    seat.user.confirm_moves = mode
    seat.user.save(update_fields=["confirm_moves"])
    client.force_login(seat.user)
    return seat


@pytest.mark.django_db
def test_a_tap_under_always_asks_first_and_plays_nothing(players, client):
    game = start_game("marumiere", players[:3])
    player_to_move(game, client, ConfirmMoves.ALWAYS)
    response = tap(client, game)
    page = response.content.decode()
    assert response.status_code == 200
    assert "Send this move?" in page and "Your choice:" in page and "pile" in page.lower()
    form = re.search(r'<form[^>]*class="confirm-move__form".*?</form>', page, re.S).group(0)
    assert 'name="confirmed" value="1"' in form and 'name="one_tap" value="1"' in form
    assert len(re.findall(r'name="csrfmiddlewaretoken"', form)) == 1  # a fresh token, not the posted one too
    assert f'href="{reverse("game", args=[game.pk])}#moves"' in form  # choose again
    game.refresh_from_db()
    assert game.version == 1 or game.moves.count() == 0


@pytest.mark.django_db
def test_the_confirmed_tap_is_played(players, client):
    game = start_game("marumiere", players[:3])
    player_to_move(game, client, ConfirmMoves.ALWAYS)
    before = game.moves.count()
    response = tap(client, game, confirmed="1")
    assert response.status_code == 302 and response["Location"] == reverse("game", args=[game.pk])
    assert game.moves.count() == before + 1


@pytest.mark.django_db
def test_auto_asks_a_phone_and_not_a_desktop(players, client):
    game = start_game("konamon", players[:2])
    player_to_move(game, client, ConfirmMoves.AUTO)
    assert "Send this move?" in tap(client, game, ua=PHONE_UA).content.decode()
    before = game.moves.count()
    assert tap(client, game, ua="Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/128.0").status_code == 302
    assert game.moves.count() == before + 1


@pytest.mark.django_db
def test_never_sends_a_phones_tap_at_once(players, client):
    game = start_game("konamon", players[:2])
    player_to_move(game, client, ConfirmMoves.NEVER)
    assert tap(client, game, ua=PHONE_UA).status_code == 302


@pytest.mark.django_db
def test_a_form_that_is_not_one_tap_is_never_asked_about(players, client):
    """The Mamma Mia! turn (toppings, recipe and draw, then its own submit button) confirms by itself."""
    game = start_game("mamma-mia", players[:2])
    player_to_move(game, client, ConfirmMoves.ALWAYS)
    seat, seat_view = awaited_human(game)
    response = client.post(
        reverse("game-move", args=[game.pk]), {"move": json.dumps(seat_view.legal_moves[0]), "version": game.version}
    )
    assert response.status_code == 302


@pytest.mark.django_db
def test_a_tap_that_is_no_legal_move_is_refused_as_before_not_asked_about(players, client):
    game = start_game("marumiere", players[:3])
    player_to_move(game, client, ConfirmMoves.ALWAYS)
    response = tap(client, game, move={"type": "pick", "pile": 99})
    assert response.status_code == 400
    assert "confirm-move__form" not in response.content.decode()


@pytest.mark.django_db
def test_the_game_page_tells_the_script_the_players_choice_and_marks_one_tap_forms(players, client):
    game = start_game("marumiere", players[:3])
    player_to_move(game, client, ConfirmMoves.NEVER)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'data-confirm-moves="never"' in page
    assert 'id="confirm-move-bar"' in page and "js/confirm" in page
    assert 'name="one_tap" value="1"' in page


STEPS = {"prep", "bake", "hand_over"}


def konamon_card_with_steps_left(game, rng):
    """Play on until a player is awaited working a Konamon! card step by step; (seat, its step moves)."""
    from games.models import GameStatus
    from games.play import services as play_services

    for _ in range(400):
        game.refresh_from_db()
        assert game.status == GameStatus.ACTIVE
        seat, view = awaited_human(game)
        steps = [m for m in view.legal_moves if m.get("type") in STEPS]
        if steps:
            return seat, steps
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(view.legal_moves), expected_version=game.version
        )
    raise AssertionError("no card worked step by step came up")


@pytest.mark.django_db
def test_without_javascript_a_konamon_card_is_confirmed_once_for_all_its_steps(players, client):
    """Issue 32, one confirmation per decision: the first step of a card asks on a page of its own; once sent,
    the card's later steps go with one tap; the next card asks again."""
    import random

    game = start_game("konamon", players[:2])
    rng = random.Random(4)
    asked_again = worked_on = False
    for _ in range(30):
        seat, steps = konamon_card_with_steps_left(game, rng)
        seat.user.confirm_moves = ConfirmMoves.ALWAYS
        seat.user.save(update_fields=["confirm_moves"])
        client.force_login(seat.user)
        page = client.get(reverse("game", args=[game.pk])).content.decode()
        decision = re.search(r'name="confirm_once" value="([^"]+)"', page).group(1)
        if decision in client.session.get("confirmed_once", []):
            response = tap(client, game, move=steps[0], confirm_once=decision, idempotency_key=str(uuid.uuid4()))
            assert response.status_code == 302, "a later step of a confirmed card was asked about"
            worked_on = True
        else:
            key = str(uuid.uuid4())
            response = tap(client, game, move=steps[0], confirm_once=decision, idempotency_key=key)
            assert "confirm-move__form" in response.content.decode(), "a card's first step went without asking"
            assert f'name="confirm_once" value="{decision}"' in response.content.decode()  # sent on with "Send"
            asked_again = asked_again or bool(client.session.get("confirmed_once"))
            response = tap(client, game, move=steps[0], confirm_once=decision, idempotency_key=key, confirmed="1")
            assert response.status_code == 302
            assert decision in client.session["confirmed_once"]
        if worked_on and asked_again:
            return
    raise AssertionError(f"no card with a later step, or no second card (worked on {worked_on}, asked {asked_again})")
