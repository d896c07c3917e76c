"""Reviews after the end (issue 28): a Celery task reviews every person's decisions from that seat's view at
the time; stored per seat; shown on the seat's own review page, marked in the replay, linked from the end
screen, served by the API — to that seat's player only."""

from __future__ import annotations

import pytest
from django.urls import reverse
from game_helpers import play_people_to_the_end, start_game

from games.engines.review import INACCURACY, MISTAKE, mark_for
from games.history import review as reviews
from games.models import GameReview, GameStatus, Move

pytestmark = pytest.mark.django_db


@pytest.fixture
def reviews_on(settings):
    settings.GAME_REVIEWS = True
    settings.GAME_REVIEW_ITERATIONS = 6
    settings.GAME_REVIEW_DECISIONS = 4




@pytest.fixture
def reviewed(players, reviews_on, django_capture_on_commit_callbacks):
    game = start_game("hidden-number", players[:2], options={"top": 20})
    return play_people_to_the_end(game, django_capture_on_commit_callbacks)


def test_the_marks_follow_the_documented_thresholds():
    assert [mark_for(x) for x in (0, INACCURACY - 0.001, INACCURACY, MISTAKE - 0.001, MISTAKE, 1)] == [
        "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake"
    ]


def test_the_end_of_a_game_reviews_each_persons_decisions_within_the_budget(reviewed, players):
    rows = {row.seat_number: row for row in GameReview.objects.filter(game=reviewed)}
    assert set(rows) == {0, 1}
    for seat, row in rows.items():
        mine = list(Move.objects.filter(game=reviewed, seat_number=seat).order_by("sequence"))
        assert [e["sequence"] for e in row.entries] == [m.sequence for m in mine][:4]
        assert row.skipped == max(0, len(mine) - 4) and row.iterations == 6
        for entry in row.entries:
            assert entry["mark"] == mark_for(entry["loss"])
            assert set(entry["labels"]) == {"en", "ja", "zh-hant", "fr"}
            assert ("best" in entry["labels"]["en"]) == (entry["mark"] != "good")
    # Reviewing again writes nothing new.
    assert reviews.review_game(game_id=reviewed.pk) == 0


def test_before_the_end_there_is_no_review(players, reviews_on, client):
    game = start_game("hidden-number", players[:2], options={"top": 20})
    client.force_login(players[0])
    assert client.get(reverse("game-review", args=[game.pk])).status_code == 404
    response = client.get(reverse("api-game-review", args=[game.pk]))
    assert response.status_code == 409


def test_a_game_never_reviewed_ends_normally_and_says_the_review_is_not_ready(players, settings, client,
                                                                              django_capture_on_commit_callbacks):
    settings.GAME_REVIEWS = True
    settings.CELERY_TASK_ALWAYS_EAGER = False  # no worker takes the review
    from mammamia.celery import app

    app.conf.task_always_eager = False
    try:
        game = start_game("hidden-number", players[:2], options={"top": 20})
        from unittest import mock

        with mock.patch("celery.app.task.Task.apply_async"):
            game = play_people_to_the_end(game, django_capture_on_commit_callbacks)
    finally:
        app.conf.task_always_eager = True
    assert game.status == GameStatus.FINISHED and not GameReview.objects.filter(game=game).exists()
    client.force_login(players[0])
    page = client.get(reverse("game-review", args=[game.pk])).content.decode()
    assert "data-review-pending" in page
