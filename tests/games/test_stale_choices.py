"""Issue 32: a page a version behind never loses a choice, and "since your last visit".

A move from a page behind is applied when the seat's choices did not change; when they did, a move still
legal is asked about once ("still play it?", one tap re-posts it) and one no longer legal is answered with
what changed, why, and the choice kept for the new form. Pages and the API share the one check.
"""

from __future__ import annotations

import json
import random
import re
import uuid
from html import unescape

import pytest
from django.urls import reverse
from game_helpers import SLUGS, awaited_human, start_game

from games.exceptions import StaleVersion, StillLegal
from games.history.since import since
from games.models import Move, Seat, SeatView
from games.play import selectors as play_selectors
from games.play import services as play_services


def post_move(client, game_id, move, *, version, key=None):
    data = {"move": json.dumps(move), "version": version, "idempotency_key": key or str(uuid.uuid4())}
    return client.post(reverse("game-move", args=[game_id]), data)


def behind(slug, players, seed=1, *, want=lambda old, new: True):
    """A seat whose page is a version behind with changed choices: it loaded its move form, moved from
    another device, and the others moved until its turn came again (as often as it takes for ``want(old
    legal moves, new legal moves)``). (seat, the old page's version, the old page's legal moves, the
    legal moves now, the game); ``None`` when the game ends first."""
    rng = random.Random(seed)
    game = start_game(slug, players)
    seat, view = awaited_human(game)
    page_version, old_legal = game.version, view.legal_moves
    others_moved = False
    for _ in range(1500):
        game.refresh_from_db()
        mover, mover_view = awaited_human(game)
        if mover is None:
            return None
        mine = mover.pk == seat.pk and game.version > page_version and others_moved
        if mine and want(old_legal, mover_view.legal_moves):
            return mover, page_version, old_legal, mover_view.legal_moves, game
        others_moved = others_moved or mover.pk != seat.pk
        play_services.check_play_move(
            user=mover.user, game_id=game.pk, move=rng.choice(mover_view.legal_moves), expected_version=game.version
        )
    return None


def behind_until(slug, players, want):
    """``behind`` with the first of a few seeds whose game gives ``want`` (each deal comes from the game's
    own fresh seed)."""
    for seed in range(1, 9):
        found = behind(slug, players, seed, want=want)
        if found is not None:
            return found
    raise AssertionError(f"no {slug} game gave the situation")


def still_legal(old, new):
    return any(move in new for move in old)


def gone(old, new):
    return any(move not in new for move in old)


def split(old_legal, new_legal):
    still = [move for move in old_legal if move in new_legal]
    gone = [move for move in old_legal if move not in new_legal]
    return still, gone


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_a_move_still_legal_from_a_page_behind_is_asked_about_once_then_played(slug, players, client):
    seat, page_version, old_legal, new_legal, game = behind_until(slug, players[:2], still_legal)
    still, _gone = split(old_legal, new_legal)
    client.force_login(seat.user)
    moves_before = Move.objects.filter(game=game).count()
    key = str(uuid.uuid4())
    answer = post_move(client, game.pk, still[0], version=page_version, key=key)
    assert answer.status_code == 409
    html = answer.content.decode()
    assert "since you chose — still play" in html
    assert Move.objects.filter(game=game).count() == moves_before, "nothing is played before the player says so"
    # One tap: the answer's form posts the same move again at the current version.
    form = re.search(r'<form method="post" action="[^"]+" class="stale-answer__buttons">(.*?)</form>', html, re.S)
    assert form, html
    fields = {
        name: unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form[1])
    }
    assert fields["version"] == str(game.version) and fields["idempotency_key"] == key
    assert json.loads(fields["move"]) == still[0]
    fields.pop("csrfmiddlewaretoken", None)
    assert client.post(reverse("game-move", args=[game.pk]), fields).status_code == 302
    assert Move.objects.filter(game=game, idempotency_key=key).count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_a_move_no_longer_legal_says_why_shows_what_changed_and_keeps_the_choice(slug, players, client):
    seat, page_version, old_legal, new_legal, game = behind_until(slug, players[:2], gone)
    _still, gone_moves = split(old_legal, new_legal)
    client.force_login(seat.user)
    moves_before = Move.objects.filter(game=game).count()
    answer = post_move(client, game.pk, gone_moves[0], version=page_version)
    assert answer.status_code == 409
    html = answer.content.decode()
    assert 'id="stale-answer"' in html and "your move is no longer possible" in html
    assert "What changed since you chose" in html and 'class="since__lines"' in html
    kept = json.loads(re.search(r'<script id="stale-kept" type="application/json">(.*?)</script>', html, re.S)[1])
    assert json.loads(kept["move"][0]) == gone_moves[0], "the choice comes back for the new form"
    assert Move.objects.filter(game=game).count() == moves_before


@pytest.mark.django_db
def test_the_api_says_a_stale_move_is_still_legal_and_at_which_version(players, client):
    seat, page_version, old_legal, new_legal, game = behind_until("mamma-mia", players[:2], still_legal)
    still, _gone = split(old_legal, new_legal)
    client.force_login(seat.user)
    url = reverse("api-game-move", args=[game.pk])
    refused = client.post(url, {"move": still[0], "expected_version": page_version}, content_type="application/json")
    assert refused.status_code == 409
    body = refused.json()
    assert body["error"] == "stale" and body["still_legal"] is True and body["version"] == game.version
    again = client.post(url, {"move": still[0], "expected_version": body["version"]}, content_type="application/json")
    assert again.status_code == 200 and again.json()["applied"] is True


@pytest.mark.django_db
def test_the_one_check_tells_still_legal_from_gone(players):
    seat, page_version, old_legal, new_legal, game = behind_until(
        "mamma-mia", players[:2], lambda old, new: still_legal(old, new) and gone(old, new)
    )
    still, gone_moves = split(old_legal, new_legal)
    with pytest.raises(StillLegal) as asked:
        play_services.check_play_move(user=seat.user, game_id=game.pk, move=still[0], expected_version=page_version)
    assert asked.value.move == still[0] and asked.value.page_version == page_version
    with pytest.raises(StaleVersion) as refused:
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=gone_moves[0], expected_version=page_version
        )
    assert not isinstance(refused.value, StillLegal)


@pytest.mark.django_db
def test_a_konamon_choice_from_a_page_behind_whose_choices_did_not_change_is_applied(players, client):
    game = start_game("konamon", players[:3])
    page_version = game.version
    seats = list(Seat.objects.filter(game=game, awaited=True).select_related("user").order_by("number"))
    mine, other = seats[0], seats[1]
    my_moves = SeatView.objects.get(game=game, seat_number=mine.number).legal_moves
    other_moves = SeatView.objects.get(game=game, seat_number=other.number).legal_moves
    play_services.check_play_move(user=other.user, game_id=game.pk, move=other_moves[0], expected_version=page_version)
    client.force_login(mine.user)
    assert post_move(client, game.pk, my_moves[0], version=page_version).status_code == 302
    assert Move.objects.filter(game=game, seat_number=mine.number).count() == 1


# Since your last visit ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("slug", SLUGS)
def test_the_page_says_what_changed_since_the_last_visit_once(slug, players, client):
    seat, _page_version, _old, _new, game = behind(slug, players[:2], 3)
    client.force_login(seat.user)
    play_services.mark_visited(seat_id=seat.pk, version=1)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert '<details class="since card" id="since" open' in page
    assert "Since your last visit" in page
    other = next(s for s in Seat.objects.filter(game=game) if s.pk != seat.pk)
    assert other.name in re.search(r'id="since".*?</details>', page, re.S)[0]
    # Seen: the next visit shows the table without it (the log stays as it was).
    again = client.get(reverse("game", args=[game.pk])).content.decode()
    assert 'id="since"' not in again and 'id="log-pane"' in again


@pytest.mark.django_db
def test_mamma_mia_tells_an_oven_opening_in_one_line(players):
    rng = random.Random(4)
    game = start_game("mamma-mia", players[:2])
    for _ in range(400):
        game.refresh_from_db()
        seat, view = awaited_human(game)
        if seat is None:
            break
        log = SeatView.objects.get(game=game, seat_number=0)
        if any(event.get("type") == "open" for event in log.log_tail):
            break
        play_services.check_play_move(
            user=seat.user, game_id=game.pk, move=rng.choice(view.legal_moves), expected_version=game.version
        )
    row = SeatView.objects.get(game=game, seat_number=0)
    players_ = play_selectors.player_dicts(list(game.seats.select_related("user")))
    summary = since(game=game, seat_number=0, version=0, players=players_, seat_view=row)
    ovens = [line for line in summary.lines if "The oven opened" in line]
    assert len(ovens) == 1, summary.lines
    assert not any(line.startswith("From the oven:") for line in summary.lines), "no card-by-card lines"
    assert 0 < summary.count <= row.log_size


@pytest.mark.django_db
def test_the_api_gives_what_changed_since_a_version_and_refuses_a_bad_one(players, client):
    seat, page_version, _old, _new, game = behind("marumiere", players[:2], 2)
    client.force_login(seat.user)
    url = reverse("api-game", args=[game.pk])
    body = client.get(url, {"since": page_version}).json()
    assert body["since"]["version"] == page_version and body["since"]["now"] == game.version
    assert body["since"]["count"] > 0 and body["since"]["summary"] and body["since"]["others_played"]
    assert client.get(url, {"since": game.version}).json()["since"] is None
    assert "since" not in client.get(url).json()
    bad = client.get(url, {"since": "-1"})
    assert bad.status_code == 400 and bad.json()["error"] == "invalid"


# Next game -----------------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_after_a_move_the_page_offers_the_next_game_or_goes_there(players, client):
    first = start_game("mamma-mia", players[:2])
    second = start_game("mamma-mia", players[:2])
    seat, view = awaited_human(first)
    other = Seat.objects.get(game=second, user=seat.user)
    if not other.awaited:  # the player must be awaited in the second game too
        mover, mover_view = awaited_human(second)
        play_services.check_play_move(
            user=mover.user, game_id=second.pk, move=mover_view.legal_moves[0], expected_version=second.version
        )
    assert Seat.objects.get(pk=other.pk).awaited
    client.force_login(seat.user)
    answer = post_move(client, first.pk, view.legal_moves[0], version=first.version)
    assert answer.status_code == 302 and answer["Location"] == reverse("game", args=[first.pk])
    page = client.get(answer["Location"]).content.decode()
    assert f'class="next-game" href="{reverse("game", args=[second.pk])}"' in page
    assert "Next game awaiting you (1)" in page
    # With the setting, straight there.
    seat.user.next_game_after_move = True
    seat.user.save(update_fields=["next_game_after_move"])
    for _ in range(20):  # the other player moves until the first game awaits this player again
        first.refresh_from_db()
        mover, mover_view = awaited_human(first)
        if mover.user_id == seat.user_id:
            break
        play_services.check_play_move(
            user=mover.user, game_id=first.pk, move=mover_view.legal_moves[0], expected_version=first.version
        )
    assert mover.user_id == seat.user_id
    answer = post_move(client, first.pk, mover_view.legal_moves[0], version=first.version)
    still_mine = Seat.objects.get(game=first, user=seat.user).awaited
    assert answer["Location"] == reverse("game", args=[first.pk if still_mine else second.pk])


@pytest.mark.django_db
def test_the_live_partial_says_what_changed_while_the_page_was_open(players, client):
    game = start_game("marumiere", players[:2])
    seat, view = awaited_human(game)
    other = Seat.objects.exclude(pk=seat.pk).select_related("user").get(game=game)
    client.force_login(other.user)
    assert 'id="since"' not in client.get(reverse("game", args=[game.pk])).content.decode()  # seen now
    token = f"{game.version}.active.2.0"
    play_services.check_play_move(user=seat.user, game_id=game.pk, move=view.legal_moves[0], expected_version=0)
    partial = client.get(reverse("game-table", args=[game.pk]), {"v": token})
    assert partial.status_code == 200
    html = partial.content.decode()
    assert '<details class="since card" id="since" open' in html and seat.name in html
