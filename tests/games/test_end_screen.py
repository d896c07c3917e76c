"""Issue 19, point 3: the end screen. The winner is highlighted, each player reads their own place ("you
placed 2nd of 4"), every score says how it came about (and where the rules' tie-break decided), every
hand is revealed, and the rematch is right under the banner."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.urls import reverse

from games.history.selectors import end_screen
from games.ui import get_ui
from games.ui.base import GameUI
from tests.games.game_helpers import play_out, start_game
from tests.games.ui.support import final_state, make_players


@pytest.mark.django_db(transaction=True)
def test_the_end_screen_names_the_winner_and_each_players_place(players, client):
    game = play_out(start_game("konamon", players[:2]))
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    for seat in seats:
        client.force_login(seat.user)
        page = client.get(reverse("game", args=[game.pk])).content.decode()
        banner = re.search(r'<div class="end-banner">.*?</div>', page, re.S).group(0)
        assert "wins!" in banner or "share the win!" in banner
        shared = sum(1 for s in seats if s.final_rank == seat.final_rank) > 1
        place = {1: "1st", 2: "2nd"}[seat.final_rank]
        expected = f"You share {place} place of 2." if shared else f"You placed {place} of 2."
        assert expected in banner, banner
        assert re.search(r'class="final-row is-winner[^"]*" data-place="1"', page)
        assert f'class="final-row{" is-winner" if seat.final_rank == 1 else ""} is-viewer"' in page
        assert "How it came about" in page and "customer" in page
        # The rematch under the banner, once, above the ranking.
        assert page.count('id="table-actions"') == 1
        assert page.index('id="table-actions"') < page.index('id="final-title"')
        assert 'class="revealed-hands' in page


@pytest.mark.django_db(transaction=True)
def test_a_spectator_sees_the_winner_but_no_place_of_their_own(players, client):
    game = play_out(start_game("marumiere", players[:3]))
    client.force_login(players[4])
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "end-banner__winner" in page and "end-banner__you" not in page and "is-viewer" not in page


def test_konamon_points_are_the_steps_the_bonuses_and_the_penalties():
    state = final_state("konamon", players=3, seed=4)
    details = get_ui("konamon").final_details(state, make_players(3))
    for seat, points in enumerate(state["points"]):
        numbers = [int(n) for part in details[seat]["parts"] for n in re.findall(r"[+−](\d+)", part)]
        steps, bonus, *penalty = numbers
        assert steps + bonus - sum(penalty) == points, details[seat]
        assert details[seat]["tie_break"].endswith("served")


def test_marumiere_totals_are_the_rounds_points():
    state = final_state("marumiere", players=3, seed=2)
    details = get_ui("marumiere").final_details(state, make_players(3))
    for seat, total in enumerate(state["scores"]):
        parts = details[seat]["parts"]
        assert len(parts) == state["rounds"]
        assert sum(int(re.search(r": ([+-]\d+)", part).group(1)) for part in parts) == total


def test_mamma_mia_scores_are_the_recipes_baked_and_toppings_break_ties():
    state = final_state("mamma-mia", players=3, seed=5)
    ui = get_ui("mamma-mia")
    details = ui.final_details(state, make_players(3))
    for seat, baked in enumerate(state["baked"]):
        assert len(details[seat]["parts"]) == len(baked)
        assert "left in hand" in details[seat]["tie_break"]
    assert ui.score_text(1) == "1 recipe baked" and ui.score_text(4) == "4 recipes baked"


class TieUI(GameUI):
    def final_details(self, state, players):
        return {seat: {"parts": [f"part {seat}"], "tie_break": f"tie {seat}"} for seat in range(3)}


def outcome_game(rows):
    return SimpleNamespace(outcome=[{"seat": s, "rank": r, "score": p} for s, r, p in rows])


def players_with(ranks, resigned=()):
    return [
        {"seat": seat, "name": f"P{seat}", "rank": rank, "resigned": seat in resigned}
        for seat, rank in enumerate(ranks)
    ]


def test_equal_scores_in_different_places_say_the_tie_break_decided():
    game = outcome_game([(0, 2, 5), (1, 1, 5), (2, 3, 1)])
    end = end_screen(game=game, state={"x": 1}, players=players_with([2, 1, 3]), ui=TieUI(), viewer_seat=0)
    by_seat = {row["seat"]: row for row in end["ranking"]}
    assert [row["seat"] for row in end["ranking"]] == [1, 0, 2]
    assert by_seat[0]["tie_broken"] and by_seat[1]["tie_broken"] and not by_seat[2]["tie_broken"]
    assert [row["seat"] for row in end["winners"]] == [1]
    assert end["my_result"]["place"] == 2 and not end["my_result"]["shared"]
    assert by_seat[0]["score_text"] == "5 points" and by_seat[2]["score_text"] == "1 point"


def test_equal_scores_sharing_a_place_are_shared_not_tie_broken():
    game = outcome_game([(0, 1, 5), (1, 1, 5), (2, 3, 1)])
    end = end_screen(game=game, state={"x": 1}, players=players_with([1, 1, 3]), ui=TieUI(), viewer_seat=1)
    assert len(end["winners"]) == 2 and end["my_result"]["shared"]
    assert not any(row["tie_broken"] for row in end["ranking"])


def test_a_resigned_seat_is_last_whatever_it_scored_and_that_is_no_tie_break():
    game = outcome_game([(0, 1, 9), (1, 2, 5), (2, 3, 5)])
    players = players_with([3, 1, 2], resigned={0})
    end = end_screen(game=game, state={"x": 1}, players=players, ui=TieUI(), viewer_seat=None)
    assert [row["seat"] for row in end["ranking"]] == [1, 2, 0]
    assert end["my_result"] is None
