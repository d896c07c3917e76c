"""Delivery of the outbox: exactly one send per row, retries with backoff, permanent failures, the sweeper."""

from __future__ import annotations

import datetime as dt
import smtplib
import threading
from contextlib import contextmanager

import pytest
import time_machine
from django.db import connection, transaction
from django.utils import timezone
from notify_helpers import awaited, play, start_game

from accounts.models import NotifyMode
from notifications import delivery, tasks
from notifications.delivery import Outcome, deliver
from notifications.models import OutboxEmail
from notifications.outbox import Draft, queue

pytestmark = [pytest.mark.usefixtures("eager_celery", "site")]

T0 = dt.datetime(2030, 3, 1, 12, 0, tzinfo=dt.UTC)


def pending():
    return OutboxEmail.objects.filter(status=OutboxEmail.Status.PENDING)


@contextmanager
def locked_by_another_worker(pk: int):
    """Row ``pk`` held ``SELECT ... FOR UPDATE`` by another connection (a worker busy sending it) meanwhile."""
    locked, release = threading.Event(), threading.Event()

    def other_worker():
        try:
            with transaction.atomic():
                OutboxEmail.objects.select_for_update().get(pk=pk)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=other_worker)
    thread.start()
    try:
        assert locked.wait(10)
        yield
    finally:
        release.set()
        thread.join()


@pytest.fixture
def game(players):
    """A started two-player game whose e-mails are queued but not delivered (no on-commit callbacks ran)."""
    return start_game("mamma-mia", players[:2])


@pytest.mark.django_db
def test_the_same_email_is_queued_once(players):
    draft = Draft(players[0], OutboxEmail.Kind.CANCELLED, "cancelled:1:1", None, {})
    first = queue([draft, draft])
    second = queue([draft])
    assert len(first) == 1
    assert second == []  # nothing new to queue: the first call's commit queued that row
    assert OutboxEmail.objects.count() == 1


@pytest.mark.django_db
def test_a_row_is_sent_once_however_often_delivery_runs(game, scripted_mailer):
    row = pending().first()
    assert deliver(row.pk) is Outcome.SENT
    assert deliver(row.pk) is Outcome.SKIPPED
    tasks.deliver_email(row.pk)
    tasks.deliver_pending_notifications()
    assert [m.extra_headers["Message-ID"] for m in scripted_mailer.sent].count(row.message_id) == 1


@pytest.mark.django_db(transaction=True)
def test_a_row_being_sent_by_one_worker_is_skipped_by_another(players, scripted_mailer):
    row = OutboxEmail.objects.create(
        user=players[0], kind=OutboxEmail.Kind.DIGEST, dedupe_key="x", message_id="<x@play.example>"
    )
    with locked_by_another_worker(row.pk):
        assert deliver(row.pk) is Outcome.SKIPPED
        assert tasks.deliver_pending_notifications()["skipped"] >= 1
    assert scripted_mailer.sent == []
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.PENDING and row.attempts == 0
    assert deliver(row.pk) is Outcome.SENT  # once the other worker let go


@pytest.mark.django_db
def test_a_temporary_failure_is_retried_with_backoff(game, scripted_mailer):
    row = pending().first()
    with time_machine.travel(T0, tick=False):
        row.next_attempt_at = T0
        row.save()
        scripted_mailer.errors = [smtplib.SMTPServerDisconnected("gone"), ConnectionRefusedError(111, "refused")]
        assert deliver(row.pk) is Outcome.RETRY
        row.refresh_from_db()
        assert row.status == OutboxEmail.Status.PENDING and row.attempts == 1
        assert "SMTPServerDisconnected" in row.last_error
        assert dt.timedelta(minutes=1) <= row.next_attempt_at - T0 <= dt.timedelta(minutes=1, seconds=7)
        assert deliver(row.pk) is Outcome.SKIPPED  # not due yet
    with time_machine.travel(T0 + dt.timedelta(minutes=2), tick=False):
        assert deliver(row.pk) is Outcome.RETRY
        row.refresh_from_db()
        assert row.attempts == 2
        assert row.next_attempt_at - timezone.now() >= dt.timedelta(minutes=2)
    with time_machine.travel(T0 + dt.timedelta(minutes=5), tick=False):
        assert tasks.deliver_pending_notifications()["sent"] >= 1
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.SENT and row.attempts == 3
    assert len([m for m in scripted_mailer.sent if m.extra_headers["Message-ID"] == row.message_id]) == 1


def test_backoff_doubles_up_to_six_hours():
    delays = [delivery.backoff(n) for n in range(1, 14)]
    assert dt.timedelta(minutes=1) <= delays[0] < dt.timedelta(minutes=1.11)
    assert dt.timedelta(minutes=8) <= delays[3] < dt.timedelta(minutes=8.9)
    assert all(dt.timedelta(hours=6) <= d <= dt.timedelta(hours=6.6) for d in delays[9:])


@pytest.mark.django_db
def test_delivery_gives_up_after_the_last_attempt(game, scripted_mailer):
    row = pending().first()
    row.attempts = delivery.MAX_ATTEMPTS - 1
    row.save()
    scripted_mailer.errors = [TimeoutError("slow")]
    assert deliver(row.pk) is Outcome.FAILED
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.FAILED
    row.user.refresh_from_db()
    assert row.user.email_undeliverable_since is None  # a slow server says nothing about the address


@pytest.mark.django_db
def test_a_refused_recipient_stops_retries_and_flags_the_profile(game, scripted_mailer, run_on_commit):
    row = pending().first()
    user = row.user
    scripted_mailer.errors = [smtplib.SMTPRecipientsRefused({user.email: (550, b"5.1.1 no such user")})]
    assert deliver(row.pk) is Outcome.FAILED
    row.refresh_from_db()
    user.refresh_from_db()
    assert row.status == OutboxEmail.Status.FAILED
    assert user.email_undeliverable_since is not None
    # Nothing more goes to that address: what waits is dropped, nothing new is queued.
    others = pending().filter(user=user)
    for other in others:
        assert deliver(other.pk) is Outcome.DROPPED
    before = OutboxEmail.objects.filter(user=user).count()
    with run_on_commit():
        for _ in range(2):
            play(game)
    assert OutboxEmail.objects.filter(user=user).count() == before
    assert scripted_mailer.sent == [] or all(m.to != [user.email] for m in scripted_mailer.sent)


@pytest.mark.django_db
def test_a_temporarily_refused_recipient_is_retried_and_not_flagged(game, scripted_mailer):
    row = pending().first()
    scripted_mailer.errors = [smtplib.SMTPRecipientsRefused({row.user.email: (452, b"mailbox full")})]
    assert deliver(row.pk) is Outcome.RETRY
    row.user.refresh_from_db()
    assert row.user.email_undeliverable_since is None


@pytest.mark.django_db
def test_a_message_refused_for_good_fails_without_flagging_the_address(game, scripted_mailer):
    row = pending().first()
    scripted_mailer.errors = [smtplib.SMTPDataError(554, b"message rejected")]
    assert deliver(row.pk) is Outcome.FAILED
    row.user.refresh_from_db()
    assert row.user.email_undeliverable_since is None


@pytest.mark.django_db
def test_a_new_address_clears_the_flag(user):
    from allauth.account.signals import email_changed

    user.email_undeliverable_since = timezone.now()
    user.save()
    email_changed.send(sender=type(user), request=None, user=user, from_email_address=None, to_email_address=None)
    user.refresh_from_db()
    assert user.email_undeliverable_since is None


@pytest.mark.django_db
def test_the_sweeper_delivers_what_was_never_queued(game, scripted_mailer):
    """The move committed but its on-commit queueing never happened (the web process died, the broker was down)."""
    ids = set(pending().values_list("pk", flat=True))
    assert len(ids) == 2  # the two started e-mails
    counts = tasks.deliver_pending_notifications()
    assert counts == {"sent": 2}
    assert {m.extra_headers["Message-ID"] for m in scripted_mailer.sent} == set(
        OutboxEmail.objects.values_list("message_id", flat=True)
    )
    assert tasks.deliver_pending_notifications() == {}


@pytest.mark.django_db
def test_a_broker_down_at_commit_neither_fails_the_move_nor_loses_the_email(
    game, scripted_mailer, run_on_commit, monkeypatch
):
    from kombu.exceptions import OperationalError

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to redis. Connection refused.")

    tasks.deliver_pending_notifications()
    scripted_mailer.sent.clear()
    monkeypatch.setattr(tasks.deliver_emails, "apply_async", broker_down)
    with run_on_commit():
        mover = play(game)
    nxt, _ = awaited(game)
    assert nxt.user != mover.user
    assert scripted_mailer.sent == []
    monkeypatch.undo()
    tasks.deliver_pending_notifications()  # beat's sweeper, once the broker is back
    assert [m.to for m in scripted_mailer.sent] == [[nxt.user.email]]


@pytest.mark.django_db
def test_a_turn_email_whose_turn_is_over_is_dropped(game, scripted_mailer):
    tasks.deliver_pending_notifications()
    play(game)
    row = pending().get(kind=OutboxEmail.Kind.TURN)
    play(game)  # the recipient moved before the e-mail could go (a backlog)
    assert deliver(row.pk) is Outcome.DROPPED
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.DROPPED and row.last_error


@pytest.mark.django_db
def test_an_email_waiting_when_its_recipient_unsubscribes_is_dropped(game, scripted_mailer):
    row = pending().first()
    row.user.notify_mode = NotifyMode.NEVER
    row.user.save()
    assert deliver(row.pk) is Outcome.DROPPED
    assert scripted_mailer.sent == []


@pytest.mark.django_db
def test_the_deliver_task_reports_a_retry(game, scripted_mailer):
    row = pending().first()
    scripted_mailer.errors = [smtplib.SMTPServerDisconnected("gone")]
    assert tasks.deliver_email(row.pk) == "retry"
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.PENDING and row.attempts == 1


# Batches: one transaction, one claim, one SMTP connection for many rows ------------------------------------


@pytest.fixture
def table(players):
    """A started four-player game: four game-started e-mails pending, one per player."""
    return start_game("mamma-mia", players[:4])


@pytest.mark.django_db
def test_a_batch_is_sent_over_one_connection(table, scripted_mailer):
    ids = list(pending().order_by("pk").values_list("pk", flat=True))
    assert len(ids) == 4
    assert delivery.deliver_many(ids) == dict.fromkeys(ids, Outcome.SENT)
    assert scripted_mailer.connections == 1
    assert sorted(m.extra_headers["Message-ID"] for m in scripted_mailer.sent) == sorted(
        OutboxEmail.objects.values_list("message_id", flat=True)
    )
    assert set(OutboxEmail.objects.values_list("status", "attempts")) == {(OutboxEmail.Status.SENT, 1)}
    assert not OutboxEmail.objects.filter(sent_at__isnull=True).exists()


@pytest.mark.django_db
def test_a_refused_recipient_in_a_batch_is_flagged_and_the_others_are_sent(table, scripted_mailer):
    rows = list(pending().order_by("pk").select_related("user"))
    bad = rows[1]
    scripted_mailer.refused = {bad.user.email: (550, b"5.1.1 no such user")}
    outcomes = delivery.deliver_many([row.pk for row in rows])
    assert outcomes == {row.pk: Outcome.FAILED if row == bad else Outcome.SENT for row in rows}
    assert sorted(m.to[0] for m in scripted_mailer.sent) == sorted(r.user.email for r in rows if r != bad)
    assert scripted_mailer.connections == 1  # a refused recipient does not cost the connection
    bad.refresh_from_db()
    assert bad.status == OutboxEmail.Status.FAILED and "550" in bad.last_error
    flagged = [row.user for row in rows if row.user.__class__.objects.get(pk=row.user_id).email_undeliverable_since]
    assert flagged == [bad.user]


@pytest.mark.django_db
def test_nothing_more_goes_to_an_address_refused_earlier_in_the_same_batch(table, scripted_mailer):
    first = pending().order_by("pk").select_related("user").first()
    later = OutboxEmail.objects.create(
        user=first.user, kind=OutboxEmail.Kind.DIGEST, dedupe_key="digest:later", message_id="<later@play.example>"
    )
    scripted_mailer.refused = {first.user.email: (550, b"5.1.1 no such user")}
    outcomes = delivery.deliver_many(list(pending().values_list("pk", flat=True)))
    assert outcomes[first.pk] is Outcome.FAILED and outcomes[later.pk] is Outcome.DROPPED
    later.refresh_from_db()
    assert later.status == OutboxEmail.Status.DROPPED and later.attempts == 0
    assert list(outcomes.values()).count(Outcome.SENT) == 3


@pytest.mark.django_db
def test_a_recipient_refused_for_now_is_retried_alone(table, scripted_mailer):
    rows = list(pending().order_by("pk").select_related("user"))
    scripted_mailer.errors = [smtplib.SMTPRecipientsRefused({rows[0].user.email: (452, b"mailbox full")})]
    outcomes = delivery.deliver_many([row.pk for row in rows])
    assert outcomes == {row.pk: Outcome.RETRY if row == rows[0] else Outcome.SENT for row in rows}
    rows[0].refresh_from_db()
    assert rows[0].status == OutboxEmail.Status.PENDING and rows[0].attempts == 1
    assert rows[0].next_attempt_at > timezone.now()


@pytest.mark.django_db
def test_a_mail_server_that_cannot_be_reached_defers_the_whole_batch_at_once(table, scripted_mailer):
    ids = list(pending().order_by("pk").values_list("pk", flat=True))
    # Only the first send fails: had the batch tried the others one by one, they would have gone.
    scripted_mailer.errors = [ConnectionRefusedError(111, "Connection refused")]
    assert delivery.deliver_many(ids) == dict.fromkeys(ids, Outcome.RETRY)
    assert scripted_mailer.sent == []
    for row in OutboxEmail.objects.filter(pk__in=ids):
        assert row.status == OutboxEmail.Status.PENDING and row.attempts == 1
        assert "ConnectionRefusedError" in row.last_error and row.next_attempt_at > timezone.now()


@pytest.mark.django_db
def test_a_connection_gone_stale_is_reopened_for_the_rest_of_the_batch(table, scripted_mailer):
    """The sweeper's connection, open since its last batch, was dropped by the server meanwhile."""
    from notify_helpers import ScriptedBackend

    ids = list(pending().order_by("pk").values_list("pk", flat=True))
    mailer = ScriptedBackend()
    mailer.open()
    scripted_mailer.errors = [smtplib.SMTPServerDisconnected("Connection unexpectedly closed")]
    outcomes = delivery.deliver_many(ids, mailer=mailer)
    assert outcomes == {pk: Outcome.RETRY if pk == ids[0] else Outcome.SENT for pk in ids}
    assert scripted_mailer.connections == 2
    assert len(scripted_mailer.sent) == 3


@pytest.mark.django_db(transaction=True)
def test_a_batch_skips_the_rows_another_transaction_holds(players, scripted_mailer, monkeypatch):
    monkeypatch.setattr("notifications.outbox.enqueue", lambda ids: None)  # leave them pending at commit
    start_game("mamma-mia", players[:4])
    ids = list(pending().order_by("pk").values_list("pk", flat=True))
    held = ids[2]
    with locked_by_another_worker(held):
        outcomes = delivery.deliver_many(ids)
    assert outcomes == {pk: Outcome.SKIPPED if pk == held else Outcome.SENT for pk in ids}
    assert OutboxEmail.objects.get(pk=held).status == OutboxEmail.Status.PENDING
    assert len(scripted_mailer.sent) == 3


@pytest.mark.django_db
def test_a_batch_does_not_send_a_row_again(table, scripted_mailer):
    ids = list(pending().order_by("pk").values_list("pk", flat=True))
    assert deliver(ids[0]) is Outcome.SENT
    outcomes = delivery.deliver_many(ids)
    assert outcomes == {pk: Outcome.SKIPPED if pk == ids[0] else Outcome.SENT for pk in ids}
    message_ids = [m.extra_headers["Message-ID"] for m in scripted_mailer.sent]
    assert len(message_ids) == len(set(message_ids)) == 4
    assert delivery.deliver_many(ids) == dict.fromkeys(ids, Outcome.SKIPPED)
    assert len(scripted_mailer.sent) == 4


@pytest.mark.django_db
def test_a_batch_drops_an_obsolete_row_and_sends_the_rest(table, scripted_mailer):
    rows = list(pending().order_by("pk").select_related("user"))
    rows[3].user.notify_mode = NotifyMode.NEVER
    rows[3].user.save()
    outcomes = delivery.deliver_many([row.pk for row in rows])
    assert outcomes == {row.pk: Outcome.DROPPED if row == rows[3] else Outcome.SENT for row in rows}
    assert OutboxEmail.objects.get(pk=rows[3].pk).status == OutboxEmail.Status.DROPPED
    assert rows[3].user.email not in [m.to[0] for m in scripted_mailer.sent]


@pytest.mark.django_db
def test_a_batch_costs_the_same_queries_whatever_its_size(players, scripted_mailer):
    from django.test.utils import CaptureQueriesContext

    for _ in range(3):
        start_game("mamma-mia", players[:4])  # 12 e-mails about three games
    ids = list(pending().order_by("pk").values_list("pk", flat=True))
    with CaptureQueriesContext(connection) as small:
        delivery.deliver_many(ids[:2])
    with CaptureQueriesContext(connection) as large:
        delivery.deliver_many(ids[2:])
    assert len(scripted_mailer.sent) == 12
    assert len(small) == len(large), [q["sql"][:60] for q in large]
    # Claim (the locked SELECT, then one UPDATE for the rows' lease: notifications.claims), seats, one UPDATE for
    # the rows sent, and the claim's savepoint pair inside the test's transaction.
    assert len(large) <= 6, [q["sql"][:60] for q in large]


@pytest.mark.django_db
def test_an_email_rendered_in_a_batch_reads_as_one_rendered_alone(players, scripted_mailer):
    from notifications.emails import Shared, render

    players[1].language, players[2].language = "fr", "ja"
    for player in players[1:3]:
        player.save()
    with time_machine.travel(T0, tick=False):
        start_game("konamon", players[:3], bots=1, time_limit_hours=24)
        rows = list(pending().order_by("pk").select_related("user", "game"))
        assert {row.user.language for row in rows} >= {"fr", "ja"}
        shared = Shared(delivery._seats_by_game(rows))
        for row in rows:
            assert render(row, shared=shared) == render(row)


@pytest.mark.django_db
def test_a_fan_out_is_queued_as_one_task_per_batch(players, monkeypatch, run_on_commit):
    published = []
    monkeypatch.setattr(tasks.deliver_emails, "apply_async", lambda args, **kw: published.append(args[0]))
    drafts = [Draft(players[n % 4], OutboxEmail.Kind.CANCELLED, f"cancelled:{n}:1", None, {}) for n in range(60)]
    with run_on_commit():
        ids = queue(drafts)
    assert len(ids) == 60
    assert [len(batch) for batch in published] == [delivery.BATCH_SIZE, delivery.BATCH_SIZE, 10]
    assert sorted(pk for batch in published for pk in batch) == sorted(ids)


@pytest.mark.django_db
def test_remembered_headers_give_the_very_same_message(players, monkeypatch):
    """The memoising e-mail policy is only faster: the bytes sent are those of Python's own policy."""
    import email.policy
    import re

    from notifications import emails

    players[1].language, players[2].language = "ja", "fr"  # non-ASCII subjects and names: encoded words
    players[1].display_name = "ぷれいやー　いち Ünïcode-Spieler"
    for player in players[1:3]:
        player.save()

    def sent_bytes(rows):
        boundaries = re.compile(rb"={15}\d+==")
        return [boundaries.sub(b"BOUNDARY", emails.build_message(row).message(policy=email.policy.SMTP).as_bytes())
                for row in rows]

    with time_machine.travel(T0, tick=False):
        start_game("mamma-mia", players[:3])
        rows = list(pending().order_by("pk").select_related("user", "game"))
        remembered = sent_bytes(rows), sent_bytes(rows)  # the second time from memory
        monkeypatch.setattr(emails, "_MEMOISING", {})
        plain = sent_bytes(rows)
    assert remembered[0] == remembered[1] == plain
    assert any(b"=?utf-8?" in message for message in plain)


@pytest.mark.django_db
def test_a_fan_out_stops_publishing_at_the_first_batch_the_broker_refuses(players, monkeypatch, run_on_commit):
    from kombu.exceptions import OperationalError

    attempts = []

    def broker_down(*args, **kwargs):
        attempts.append(args)
        raise OperationalError("Error 111 connecting to redis. Connection refused.")

    monkeypatch.setattr(tasks.deliver_emails, "apply_async", broker_down)
    drafts = [Draft(players[n % 4], OutboxEmail.Kind.CANCELLED, f"cancelled:{n}:1", None, {}) for n in range(60)]
    with run_on_commit():
        queue(drafts)
    assert len(attempts) == 1  # not once per batch, each waiting out the retry policy
    assert pending().count() == 60  # the sweeper's


# Claim with a lease: no lock held while the mail server talks (notifications.claims) -----------------------


@pytest.mark.django_db(transaction=True)
def test_the_mail_server_is_talked_to_with_no_lock_held_and_nobody_else_takes_the_row_meanwhile(
    players, scripted_mailer, monkeypatch
):
    from notify_helpers import ScriptedBackend

    row = OutboxEmail.objects.create(
        user=players[0], kind=OutboxEmail.Kind.DIGEST, dedupe_key="lease", message_id="<lease@play.example>"
    )
    seen = {}
    real_send = ScriptedBackend.send_messages

    def send_while_looking(self, messages):
        seen["in_transaction"] = connection.in_atomic_block

        def other_worker():
            try:
                with transaction.atomic():  # NOWAIT: raises at once if the sending worker held the row's lock
                    seen["locked_elsewhere"] = OutboxEmail.objects.select_for_update(nowait=True).get(pk=row.pk)
                seen["second_delivery"] = deliver(row.pk)  # the row is claimed: not due for anyone else
            finally:
                connection.close()

        thread = threading.Thread(target=other_worker)
        thread.start()
        thread.join(10)
        return real_send(self, messages)

    monkeypatch.setattr(ScriptedBackend, "send_messages", send_while_looking)
    assert deliver(row.pk) is Outcome.SENT
    assert seen["in_transaction"] is False
    assert seen["locked_elsewhere"].pk == row.pk
    assert seen["second_delivery"] is Outcome.SKIPPED
    assert len(scripted_mailer.sent) == 1
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.SENT and row.attempts == 1


@pytest.mark.django_db
def test_a_row_whose_worker_died_after_claiming_it_is_sent_once_the_lease_runs_out(players, scripted_mailer):
    from notifications import claims

    row = OutboxEmail.objects.create(
        user=players[0], kind=OutboxEmail.Kind.DIGEST, dedupe_key="died", message_id="<died@play.example>"
    )
    with time_machine.travel(T0, tick=False):
        OutboxEmail.objects.filter(pk=row.pk).update(next_attempt_at=T0)
        # A worker claims the row, then dies before sending it (nothing recorded).
        claimed = claims.claim_due(
            OutboxEmail.objects.all(), [row.pk], now=T0, lease=delivery.CLAIM_LEASE, screen=lambda rows: rows
        )
        assert [r.pk for r in claimed] == [row.pk]
        assert deliver(row.pk) is Outcome.SKIPPED
        assert tasks.deliver_pending_notifications().get("sent", 0) == 0
    with time_machine.travel(T0 + delivery.CLAIM_LEASE + dt.timedelta(seconds=1), tick=False):
        assert deliver(row.pk) is Outcome.SENT
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.SENT and row.attempts == 2
    assert len(scripted_mailer.sent) == 1


@pytest.mark.django_db
def test_an_outcome_is_not_written_over_a_later_claim_of_the_same_row(players):
    from notifications import claims

    row = OutboxEmail.objects.create(
        user=players[0], kind=OutboxEmail.Kind.DIGEST, dedupe_key="later", message_id="<later@play.example>"
    )
    now = timezone.now()
    (first,) = claims.claim_due(OutboxEmail.objects.all(), [row.pk], now=now, lease=dt.timedelta(0), screen=list)
    (second,) = claims.claim_due(OutboxEmail.objects.all(), [row.pk], now=now, lease=delivery.CLAIM_LEASE, screen=list)
    assert claims.record(OutboxEmail, [first], status=OutboxEmail.Status.SENT) == 0  # its lease ran out: not ours
    assert claims.record(OutboxEmail, [second], status=OutboxEmail.Status.SENT) == 1
    row.refresh_from_db()
    assert row.status == OutboxEmail.Status.SENT and row.attempts == 2
