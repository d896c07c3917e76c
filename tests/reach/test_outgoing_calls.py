"""Outgoing HTTP calls (webhooks, push) can never hold a worker, a database lock or another player's turn:
a total deadline per call, sent only on a complete answer, no lock across the network, their own queue."""

from __future__ import annotations

import socket
import threading
import time

import pytest
from django.db import connections

from reach import delivery, safehttp
from reach.models import Delivery, Webhook
from reach.services import remove_webhook
from tests.games.game_helpers import start_game
from tests.reach.slow_peers import RawPeer, drip, hold, send_then_close

COMPLETE = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"


@pytest.fixture
def peers(loopback_allowed):
    started = []

    def make(script) -> RawPeer:
        peer = RawPeer(script)
        started.append(peer)
        return peer

    yield make
    for peer in started:
        peer.close()


def test_a_receiver_dripping_one_byte_at_a_time_is_cut_off_at_the_total_deadline(peers):
    """Each byte comes well within a per-read timeout; only a deadline for the whole call stops it."""
    peer = peers(drip(COMPLETE * 20, every=0.4))
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        safehttp.post(peer.url(), body=b"{}", headers={}, timeout=1.5)
    assert time.monotonic() - started < 1.5 + 0.5


def test_a_receiver_that_never_answers_is_cut_off_at_the_deadline(peers):
    peer = peers(hold(30))
    started = time.monotonic()
    with pytest.raises(TimeoutError):
        safehttp.post(peer.url(), body=b"{}", headers={}, timeout=1.0)
    assert time.monotonic() - started < 1.0 + 0.5


@pytest.mark.parametrize("answer", [
    b"HTTP/1.1 200 OK\r\n",  # the status line, then nothing
    b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial",  # a body cut short
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n",  # no last chunk
], ids=["headers-cut", "body-cut", "chunks-cut"])
def test_a_200_cut_short_by_a_closed_connection_is_not_an_answer(peers, answer):
    peer = peers(send_then_close(answer))
    with pytest.raises(safehttp.IncompleteAnswer):
        safehttp.post(peer.url(), body=b"{}", headers={})


def test_a_complete_answer_is_read_whole(peers):
    peer = peers(send_then_close(b"HTTP/1.1 201 Created\r\nX-A: b\r\nTransfer-Encoding: chunked\r\n\r\n"
                                 b"2\r\nok\r\n0\r\n\r\n"))
    answer = safehttp.post(peer.url(), body=b"{}", headers={})
    assert (answer.status, answer.body, answer.headers["x-a"]) == (201, b"ok", "b")


def test_an_answer_closed_by_the_receiver_counts_when_it_said_nothing_of_its_length(peers):
    """HTTP/1.0 style: no Content-Length, the end of the body is the end of the connection."""
    peer = peers(send_then_close(b"HTTP/1.0 200 OK\r\n\r\nthanks"))
    assert safehttp.post(peer.url(), body=b"{}", headers={}).body == b"thanks"


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery", "site")
def test_a_webhook_answered_by_a_partial_200_is_not_sent_and_is_retried(peers, players,
                                                                      django_capture_on_commit_callbacks):
    peer = peers(send_then_close(b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial"))
    hook = Webhook.objects.create(user=players[0], url=peer.url(), kinds=["started"])
    from reach.fanout import refresh_flags

    refresh_flags(players[0].pk)
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    row = Delivery.objects.get(webhook=hook)
    assert peer.calls == 1
    assert row.status == Delivery.Status.PENDING and row.sent_at is None
    assert row.attempts == 1 and "IncompleteAnswer" in row.last_error


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("eager_celery", "site")
def test_the_owner_deletes_a_hook_at_once_while_a_delivery_to_it_is_in_flight(peers, players):
    """No database lock is held across the call: the owner's DELETE does not wait for the receiver."""
    peer = peers(hold(8))
    hook = Webhook.objects.create(user=players[0], url=peer.url(), kinds=["started"])
    from reach.fanout import refresh_flags

    refresh_flags(players[0].pk)

    def play() -> None:
        try:
            start_game("konamon", players[:2])  # commits, then delivers (eager) and waits on the receiver
        finally:
            connections.close_all()

    worker = threading.Thread(target=play)
    worker.start()
    try:
        assert peer.holding.wait(20), "the delivery never reached the receiver"
        started = time.monotonic()
        remove_webhook(user=players[0], hook_id=hook.pk)
        took = time.monotonic() - started
    finally:
        peer.release.set()
        worker.join(30)
    assert took < 1.0, f"the DELETE waited {took:.1f}s for a delivery in flight"
    assert not Webhook.objects.filter(pk=hook.pk).exists()
    row = Delivery.objects.get(kind="started", user=players[0])
    assert row.webhook_id is None and row.status != Delivery.Status.SENT


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery", "site")
def test_a_claimed_delivery_is_not_sent_twice_while_its_call_is_in_flight(peers, players,
                                                                        django_capture_on_commit_callbacks):
    """Claimed rows leave the due set for the length of a call (and come back if the worker dies)."""
    peer = peers(send_then_close(COMPLETE))
    hook = Webhook.objects.create(user=players[0], url=peer.url(), kinds=["started"])
    from reach.fanout import refresh_flags

    refresh_flags(players[0].pk)
    with django_capture_on_commit_callbacks(execute=False):
        start_game("konamon", players[:2])
    row = Delivery.objects.get(webhook=hook)
    outcome, claimed = delivery.claim(row.pk)
    assert outcome == "claimed" and delivery.claim(row.pk) == ("skipped", None)
    assert row.pk not in delivery.due_ids()
    Delivery.objects.filter(pk=row.pk).update(next_attempt_at=claimed.next_attempt_at - delivery.CLAIM_LEASE)
    assert row.pk in delivery.due_ids()  # its worker died: the lease ran out, the sweeper sends it
    assert delivery.deliver_many([row.pk]) == {row.pk: "sent"}
    assert peer.calls == 1


def test_outgoing_calls_run_on_their_own_queue_with_time_limits():
    from mammamia.celery import app
    from reach import tasks

    router = app.amqp.router
    for task in (tasks.deliver_reach, tasks.deliver_pending_reach):
        assert router.route({}, task.name)["queue"].name == "outgoing"
        assert task.soft_time_limit and task.time_limit and task.soft_time_limit < task.time_limit
        assert task.soft_time_limit > delivery.SWEEP_SECONDS + safehttp.TIMEOUT_SECONDS
    for name in ("games.tasks.play_bot_moves", "notifications.tasks.deliver_pending_notifications",
                 "notifications.tasks.check_deadlines"):
        assert router.route({}, name)["queue"].name == "celery"
    assert app.conf.task_time_limit and app.conf.task_soft_time_limit


def test_every_way_of_starting_the_site_runs_a_worker_for_every_queue(settings):
    from bench import settings as bench_settings
    from mammamia.workers import QUEUES, worker_commands

    commands = worker_commands("python", concurrency=2, name="x")
    consumed = {argv[argv.index("-Q") + 1] for argv in commands.values()}
    assert consumed == set(QUEUES) == {
        settings.CELERY_TASK_DEFAULT_QUEUE, settings.CELERY_OUTGOING_QUEUE, settings.CELERY_SLOW_QUEUE}
    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    assert routed == {"outgoing", "slow"}
    # The bench's queues are its own, and its outgoing and slow tasks go to its own workers.
    assert {route["queue"] for route in bench_settings.CELERY_TASK_ROUTES.values()} == {
        bench_settings.CELERY_OUTGOING_QUEUE, bench_settings.CELERY_SLOW_QUEUE}
    assert not routed & {bench_settings.CELERY_OUTGOING_QUEUE, bench_settings.CELERY_SLOW_QUEUE}


@pytest.mark.django_db
@pytest.mark.usefixtures("eager_celery", "site", "vapid")
def test_a_push_service_answering_nul_bytes_gets_its_failure_recorded(peers, players, push_service,
                                                                     django_capture_on_commit_callbacks):
    """The error we keep quotes the receiver's answer: a NUL in it must not make the row unwritable
    (PostgreSQL refuses NUL), which left it claimed and retried for ever."""
    from reach.fanout import refresh_flags
    from reach.models import PushSubscription

    peer = peers(send_then_close(b"HTTP/1.1 400 Bad\r\nContent-Length: 5\r\n\r\nno\x00\x00!"))
    browser = push_service.browser()
    PushSubscription.objects.create(user=players[0], endpoint=peer.url("/push"), p256dh=browser["keys"]["p256dh"],
                                    auth=browser["keys"]["auth"])
    refresh_flags(players[0].pk)
    with django_capture_on_commit_callbacks(execute=True):
        start_game("konamon", players[:2])
    row = Delivery.objects.get(user=players[0], kind="started")
    assert peer.calls == 1
    assert row.status == Delivery.Status.FAILED and "400" in row.last_error and "\x00" not in row.last_error


def test_an_internationalised_host_name_is_sent_in_its_ascii_form(receiver, monkeypatch):
    monkeypatch.setattr(socket, "getaddrinfo", lambda host, port, *a, **k: [
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))])
    answer = safehttp.post(f"http://bücher.example:{receiver.peer.port}/ok", body=b"{}", headers={})
    assert answer.status == 204
    assert receiver.received[0].headers["Host"] == f"xn--bcher-kva.example:{receiver.peer.port}"
