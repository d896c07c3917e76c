"""Conformance: schemathesis fuzzes every operation of the served schema (``/api/schema/``) as a user
seated in live games of each engine, and every answer must be what the schema documents.

A few thousand requests (positive cases: schema-valid input, with the ids of real games, users and
invitations most of the time; negative cases: input the schema forbids, which must be refused with
a 4xx), each checked for: no server error, a documented status, a documented content type and
headers, a body that matches its documented schema; negative input is never accepted. Hypothesis is
derandomized, so CI runs the same requests every time (``API_FUZZ_EXAMPLES`` scales the run).
"""

from __future__ import annotations

import base64
import os
import time
from collections import Counter

import pytest
import schemathesis
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.handlers.wsgi import WSGIHandler
from hypothesis import HealthCheck, Phase, given
from hypothesis import settings as fuzz_settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games.clock_settings import set_quiet_days
from games.lobby import services as lobby_services
from games.models import Invitation
from reach import safehttp
from reach.fanout import refresh_flags
from reach.models import PushSubscription, Webhook
from reach.push import generate_keys
from reach.services import add_webhook
from tests.api.conftest import api_token
from tests.games.game_helpers import start_game

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "28"))  # per operation and mode: ~2,700 requests
# As a WSGI server would say: allauth's login limits (POST /api/token/) count per client address.
CLIENT = {"REMOTE_ADDR": "198.51.100.20"}
# Deleting an account is fuzzed on throwaway accounts, one per request, each from its own address (the login's
# limits count failed passwords per address and per account): never on the user whose token runs the rest, whose
# games and ids every other operation needs. Some positive cases carry the right password, so 204 is seen too.
DELETE_ACCOUNT = "POST /api/account/delete/"
PASSWORD = "correct horse battery staple"  # tests/conftest.py's UserFactory
# A browser's real public key (push encrypts for it) and a documentation address for its endpoint.
P256DH = base64.urlsafe_b64encode(
    ec.generate_private_key(ec.SECP256R1())
    .public_key()
    .public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
).decode().rstrip("=")
AUTH = base64.urlsafe_b64encode(b"sixteen byte key").decode().rstrip("=")
# Bodies that succeed, mixed into the positive cases of operations whose random bodies (almost) never do, so their
# success answers are checked too.
SUCCEEDING_BODIES = {
    DELETE_ACCOUNT: lambda: {"password": PASSWORD},
    "POST /api/settings/webhooks/": lambda: {"url": "https://203.0.113.7/fuzzed"},
    "POST /api/settings/push/": lambda: {
        "endpoint": "https://203.0.113.9/push/fuzzed",
        "keys": {"p256dh": P256DH, "auth": AUTH},
        "label": "fuzzed",
    },
}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]


@pytest.fixture
def table(user_factory):
    """alice, seated in a live game of each engine (one with a per-move limit, one with a bank of time), with
    chat and a call-off proposal to answer; an open game of hers with a bot and an invitation link; a seat in
    carol's open game; invited to one; a finished rated game (ratings, replay, reveal, rematch); a league; a quiet
    day, a webhook and a browser (bob's webhook beside them); a private game she may not see.
    Returns the real path values the fuzzer mixes in."""
    import datetime as dt
    import random

    from django.utils import timezone

    from clocks.arithmetic import TimeControl
    from competition import leagues
    from tests.competition.competition_helpers import play_randomly_to_the_end
    from together import services as together
    from trust import invites
    from trust.models import ApiToken

    alice, bob, carol = (user_factory(username=name) for name in ("alice", "bob", "carol"))
    bank = TimeControl.bank(
        initial=dt.timedelta(days=3), increment=dt.timedelta(days=1), cap=dt.timedelta(days=7)
    )
    live = [
        start_game("mamma-mia", [alice, bob], bots=1, time_limit_hours=24),
        start_game("konamon", [alice, bob], bots=1, time_control=bank),
        start_game("marumiere", [alice, bob], bots=1),
    ]
    together.post_chat_message(user=bob, game_id=live[0].pk, text="Good luck!")
    together.post_chat_message(user=alice, game_id=live[0].pk, text="You too.")
    together.propose_call_off(user=bob, game_id=live[2].pk)
    mine_open = lobby_services.create_game(
        user=alice, engine_slug="marumiere", players=4, bots=1, visibility="private"
    )
    link = invites.create_link(user=alice, game_id=mine_open.pk)
    theirs_open = lobby_services.create_game(user=bob, engine_slug="mamma-mia", players=3, visibility="private")
    # Open, with her seat but not of her making: what she may invite to (the fuzzer cancels her own early on).
    joined_open = lobby_services.join_game(
        user=alice, game_id=lobby_services.create_game(user=carol, engine_slug="konamon", players=4).pk
    ).game
    invitation = lobby_services.invite_user(user=bob, game_id=theirs_open.pk, username="alice")
    finished = play_randomly_to_the_end(
        lobby_services.join_game(
            user=carol, game_id=lobby_services.create_game(user=alice, engine_slug="marumiere", players=2).pk
        ).game,
        random.Random(7),
    )
    league = leagues.create_league(
        user=carol,
        name="Spring cup",
        engine_slug="konamon",
        players_per_game=2,
        signup_until=timezone.now() + dt.timedelta(days=3),
    )
    hidden = start_game("konamon", [bob, carol], visibility="private")
    decoy, _token = ApiToken.objects.create(user=alice, name="decoy")
    # Her channels: a webhook and a browser (documentation addresses: see _no_calls_out), bob's hook beside them.
    hook = add_webhook(user=alice, url="https://203.0.113.5/hook")
    theirs = add_webhook(user=bob, url="https://203.0.113.6/hook")
    browser = PushSubscription.objects.create(
        user=alice, endpoint="https://203.0.113.9/push/alice", p256dh=P256DH, auth=AUTH, label="phone"
    )
    refresh_flags(alice.pk)
    set_quiet_days(user=alice, weekdays=[6])
    game_ids = [g.pk for g in [*live, mine_open, theirs_open, joined_open, finished, hidden]]
    return {
        "token": api_token(alice),
        "alice": alice,
        "path": {
            "game_id": game_ids,
            "username": ["alice", "bob", "carol"],
            "invitation_id": [invitation.pk, *Invitation.objects.values_list("pk", flat=True)],
            "league_id": [league.pk],
            "slug": ["mamma-mia", "konamon", "marumiere"],
            "link_id": [link.pk],
            "token_key": [decoy.token_key],
            "hook_id": [hook.pk, theirs.pk],
            "subscription_id": [browser.pk],
        },
    }


@pytest.fixture
def _no_calls_out(monkeypatch, settings):
    """Push is set up (so subscribing can succeed), and no webhook or push service is ever called: every address
    a delivery would resolve is refused, as a private one is (the fuzzer adds hooks on made-up hosts)."""
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = generate_keys()

    def refused(host: str, port: int) -> str:
        raise safehttp.Refused(f"the conformance test calls no one ({host})")

    monkeypatch.setattr(safehttp, "resolve", refused)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("_no_calls_out")
def test_every_answer_of_every_operation_is_the_documented_one(table, settings, user_factory):
    settings.ALLOWED_HOSTS = ["*"]  # schemathesis' WSGI client names its own host
    schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
    headers = {"Authorization": f"Token {table['token']}"}
    failures: dict[str, str] = {}
    statuses: Counter = Counter()
    requests = 0

    def _fuzz(operation, strategy, checks) -> None:
        @given(case=strategy)
        @fuzz_settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        def run(case):
            nonlocal requests
            case_headers, client = headers, CLIENT
            if operation.label == DELETE_ACCOUNT:
                throwaway = user_factory(username=f"throwaway{requests}")
                case_headers = {"Authorization": f"Token {api_token(throwaway)}"}
                client = {"REMOTE_ADDR": f"198.51.100.{100 + requests % 100}"}
            response = case.call(headers=case_headers, environ_base=client)
            requests += 1
            statuses[(operation.label, response.status_code)] += 1
            try:
                case.validate_response(response, checks=checks, headers=case_headers)
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - collected, reported together below
                key = f"{operation.label}: {type(exc).__name__}"
                failures.setdefault(key, f"{exc}\n{case.as_curl_command(headers=case_headers)}")

        try:
            run()
        except Unsatisfiable:
            assert checks is not CHECKS  # only an operation without any input has no negative case

    started = time.monotonic()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 50, [op.label for op in operations]
    for operation in operations:
        names = [p.name for p in operation.path_parameters]
        real = _real_path_parameters(names, {**table["path"], **_fresh_channels(table["alice"], names)})
        positive = operation.as_strategy(GenerationMode.POSITIVE)
        if real:
            # Mostly real ids (a random one is nearly always a 404), some random ones.
            with_real = st.sampled_from(real).flatmap(
                lambda fixed, operation=operation: operation.as_strategy(GenerationMode.POSITIVE, path_parameters=fixed)
            )
            positive = st.one_of(with_real, with_real, with_real, positive)
        if operation.label in SUCCEEDING_BODIES:
            positive = st.one_of(positive, positive.map(_with_a_succeeding_body))
        modes = [
            (positive, CHECKS),
            (operation.as_strategy(GenerationMode.NEGATIVE), [*CHECKS, negative_data_rejection]),
        ]
        for strategy, checks in modes:
            _fuzz(operation, strategy, checks)

    elapsed = time.monotonic() - started
    print(f"\n{requests} requests over {len(operations)} operations in {elapsed:.0f} s")  # noqa: T201 - with -s
    for (label, status), count in sorted(statuses.items()):
        print(f"  {label} {status}: {count}")  # noqa: T201
    assert not failures, "\n\n".join(f"{key}\n{text[:3000]}" for key, text in list(failures.items())[:15])
    assert requests >= 50 * EXAMPLES


def _fresh_channels(alice, names: list[str]) -> dict[str, list[int]]:
    """A webhook or browser of hers for each operation on one (an operation before may have removed them all),
    and bob's hook beside it."""
    fresh: dict[str, list[int]] = {}
    if "hook_id" in names:
        hook = Webhook.objects.create(user=alice, url="https://203.0.113.5/hook", kinds=["turn"], active=False)
        fresh["hook_id"] = [hook.pk, *Webhook.objects.exclude(user=alice).values_list("pk", flat=True)]
    if "subscription_id" in names:
        browser = PushSubscription.objects.create(
            user=alice, endpoint=f"https://203.0.113.9/push/{PushSubscription.objects.count()}", p256dh=P256DH,
            auth=AUTH, label="tablet",
        )
        fresh["subscription_id"] = [browser.pk]
    if fresh:
        refresh_flags(alice.pk)
    return fresh


def _with_a_succeeding_body(case):
    case.body = SUCCEEDING_BODIES[case.operation.label]()
    return case


def _real_path_parameters(names: list[str], real: dict[str, list]) -> list[dict]:
    """Each combination of real ids for the operation's path parameters (one parameter per path here)."""
    if not names:
        return []
    choices = [{}]
    for name in names:
        values = real.get(name, [])
        choices = [{**chosen, name: value} for chosen in choices for value in values]
    return choices


@pytest.mark.django_db
def test_options_on_every_schema_path_answers_without_a_server_error(table, client):
    """OPTIONS (what a browser's preflight or a client's discovery sends) on every path of the served schema, with
    the real ids of the table: never a 5xx (issue 29 item 5: a view without a serializer raised an AssertionError
    in the metadata), and a path that answers GET answers OPTIONS with 200."""
    import json as _json

    schema = _json.loads(client.get("/api/schema/", HTTP_ACCEPT="application/json").content)
    headers = {"HTTP_AUTHORIZATION": f"Token {table['token']}"}
    server_errors, not_ok = [], []
    assert len(schema["paths"]) >= 40
    for template, operations in schema["paths"].items():
        names = [p["name"] for op in operations.values() if isinstance(op, dict) for p in op.get("parameters", [])
                 if p.get("in") == "path"]
        combos = _real_path_parameters(sorted(set(names)), {**table["path"], **_fresh_channels(table["alice"], names)})
        for values in combos or [{}]:
            path = template.format(**values)
            response = client.options(path, **headers)
            if response.status_code >= 500:
                server_errors.append(f"OPTIONS {path}: {response.status_code}")
            elif response.status_code not in (200, 404) and "get" in operations:
                not_ok.append(f"OPTIONS {path}: {response.status_code}")
    assert not server_errors, server_errors
    assert not not_ok, not_ok
