"""What notifications add to a move: the queries of a move that queues a "your move" e-mail."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from notify_helpers import awaited, play, start_game

from accounts.models import NotifyMode
from notifications.models import OutboxEmail

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]

SAVEPOINTS = ("SAVEPOINT", "RELEASE SAVEPOINT")


@pytest.mark.parametrize("time_limit_hours", [0, 24])
def test_a_move_that_queues_a_turn_email_makes_at_most_13_queries(
    players, client, django_assert_max_num_queries, time_limit_hours
):
    for player in players[:2]:
        player.notify_mode = NotifyMode.EVERY_TIME
        player.save(update_fields=["notify_mode"])
    game = start_game("mamma-mia", players[:2], time_limit_hours=time_limit_hours)
    play(game)  # every seat has moved once: the move below is an ordinary one
    seat, view = awaited(game)
    client.force_login(seat.user)
    before = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TURN).count()
    # Session, user; the locked game, then its state (one lock order everywhere, issue 29 item 6), seats, views;
    # the move, state, views, seats, game;
    # notifications: the seats' notices, one upsert of them, the outbox row (its id returned).
    # A game with a time limit also looks up the timeouts since the recipient's last move (14).
    data_queries = 14 if not time_limit_hours else 15
    # Inside the test's transaction the move's atomic block and the receiver's savepoint add two pairs.
    with django_assert_max_num_queries(data_queries + 4) as captured:
        response = client.post(
            reverse("game-move", args=[game.pk]),
            {"move": json.dumps(view.legal_moves[0]), "version": game.version},
        )
    assert response.status_code == 302
    assert OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TURN).count() == before + 1
    data = [q["sql"] for q in captured.captured_queries if not q["sql"].startswith(SAVEPOINTS)]
    assert len(data) <= data_queries, "\n".join(sql[:100] for sql in data)
