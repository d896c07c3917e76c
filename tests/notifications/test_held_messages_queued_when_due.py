"""A message held in the outbox (a "your move" waits TURN_NOTIFY_HOLD_SECONDS) is queued once, for when it is due:
queued at commit, a task found nothing due and queued itself again, one task and two queries per move for
nothing (issue 33)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from notifications import tasks
from notifications.models import OutboxEmail
from notifications.outbox import Draft, queue

pytestmark = [pytest.mark.usefixtures("eager_celery", "site")]


@pytest.fixture
def published(monkeypatch):
    sent = []
    monkeypatch.setattr(tasks.deliver_emails, "apply_async",
                        lambda args, **options: sent.append((args[0], options.get("countdown"))))
    return sent


def _draft(user, key: str, *, held_seconds: float | None) -> Draft:
    not_before = timezone.now() + dt.timedelta(seconds=held_seconds) if held_seconds is not None else None
    return Draft(user, OutboxEmail.Kind.CANCELLED, key, None, {}, not_before=not_before)


@pytest.mark.django_db
def test_a_held_message_is_queued_for_when_it_is_due(players, published, run_on_commit):
    with run_on_commit():
        ids = queue([_draft(players[0], "held:1", held_seconds=180)])
    assert len(published) == 1
    batch, countdown = published[0]
    assert batch == ids and 170 < countdown <= 180


@pytest.mark.django_db
def test_messages_with_one_due_now_are_queued_at_once(players, published, run_on_commit):
    with run_on_commit():
        ids = queue([_draft(players[0], "held:2", held_seconds=180), _draft(players[1], "now:2", held_seconds=None)])
    assert published == [(ids, None)]


@pytest.mark.django_db
def test_a_message_held_beyond_the_requeue_horizon_is_left_to_the_sweeper(players, published, run_on_commit):
    with run_on_commit():
        ids = queue([_draft(players[0], "held:3", held_seconds=tasks.REQUEUE_WITHIN_SECONDS + 60)])
    assert ids and published == []
    assert OutboxEmail.objects.get(pk=ids[0]).status == OutboxEmail.Status.PENDING
