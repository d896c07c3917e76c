"""Conformance: schemathesis fuzzes every operation of the served schema (``/api/schema/``) as a user
seated in live games of each engine, and every answer must be what the schema documents.

A few thousand requests (positive cases: schema-valid input, with the ids of real games, users and
invitations most of the time; negative cases: input the schema forbids, which must be refused with
a 4xx), each checked for: no server error, a documented status, a documented content type and
headers, a body that matches its documented schema; negative input is never accepted. Hypothesis is
derandomized, so CI runs the same requests every time (``API_FUZZ_EXAMPLES`` scales the run).
"""

from __future__ import annotations

import os
import time
from collections import Counter

import pytest
import schemathesis
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

from games.lobby import services as lobby_services
from games.models import Invitation
from tests.api.conftest import api_token
from tests.games.game_helpers import start_game

EXAMPLES = int(os.environ.get("API_FUZZ_EXAMPLES", "28"))  # per operation and mode: ~2,700 requests
# As a WSGI server would say: allauth's login limits (POST /api/token/) count per client address.
CLIENT = {"REMOTE_ADDR": "198.51.100.20"}
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
    chat and a call-off proposal to answer; an open game of hers with a bot and an invitation link; invited to
    one; a finished rated game (ratings, replay, reveal, rematch); a league; a private game she may not see.
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
    game_ids = [g.pk for g in [*live, mine_open, theirs_open, finished, hidden]]
    return {
        "token": api_token(alice),
        "path": {
            "game_id": game_ids,
            "username": ["alice", "bob", "carol"],
            "invitation_id": [invitation.pk, *Invitation.objects.values_list("pk", flat=True)],
            "league_id": [league.pk],
            "slug": ["mamma-mia", "konamon", "marumiere"],
            "link_id": [link.pk],
            "token_key": [decoy.token_key],
        },
    }


@pytest.mark.django_db(transaction=True)
def test_every_answer_of_every_operation_is_the_documented_one(table, settings):
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
            response = case.call(headers=headers, environ_base=CLIENT)
            requests += 1
            statuses[(operation.label, response.status_code)] += 1
            try:
                case.validate_response(response, checks=checks, headers=headers)
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - collected, reported together below
                key = f"{operation.label}: {type(exc).__name__}"
                failures.setdefault(key, f"{exc}\n{case.as_curl_command(headers=headers)}")

        try:
            run()
        except Unsatisfiable:
            assert checks is not CHECKS  # only an operation without any input has no negative case

    started = time.monotonic()
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 50, [op.label for op in operations]
    for operation in operations:
        names = [p.name for p in operation.path_parameters]
        real = _real_path_parameters(names, table["path"])
        positive = operation.as_strategy(GenerationMode.POSITIVE)
        if real:
            # Mostly real ids (a random one is nearly always a 404), some random ones.
            with_real = st.sampled_from(real).flatmap(
                lambda fixed, operation=operation: operation.as_strategy(GenerationMode.POSITIVE, path_parameters=fixed)
            )
            positive = st.one_of(with_real, with_real, with_real, positive)
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


def _real_path_parameters(names: list[str], real: dict[str, list]) -> list[dict]:
    """Each combination of real ids for the operation's path parameters (one parameter per path here)."""
    if not names:
        return []
    choices = [{}]
    for name in names:
        values = real.get(name, [])
        choices = [{**chosen, name: value} for chosen in choices for value in values]
    return choices
