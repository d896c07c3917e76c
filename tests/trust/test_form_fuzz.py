"""Bounded fuzzing of every HTML form: malformed posts of any shape get a 4xx (or the form again), never a 5xx.

Seeded, a fixed number of posts per form (25 per form, about 500 in all), so it runs in CI within ``make test``.
"""

from __future__ import annotations

import json
import random

import pytest
from django.urls import reverse
from game_helpers import awaited_human, start_game

from games.lobby import services as lobby_services
from notifications.tokens import unsubscribe_url

POSTS_PER_FORM = 25

NASTY = [
    "",
    " ",
    "0",
    "-1",
    "1e309",
    "9" * 400,
    "NaN",
    "true",
    "null",
    "[]",
    "{}",
    "\x00",
    "a\x00b",
    "\ufeff",
    "\u202e",
    "𝔘𝔫𝔦𝔠𝔬𝔡𝔢",
    "'; DROP TABLE games_game; --",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "%00",
    "x" * 20_000,
    "[" * 5000,
    '{"type": "' + "\ud7ff" + '"}',
    json.dumps({"type": "play", "card": 10**30}),
    json.dumps({"type": ["play"]}),
    "00000000-0000-0000-0000-000000000000",
    "Europe/Paris",
    "Bot 1",
    "2026-13-45",
]


def fields_for(url_fields: list[str], rng: random.Random) -> dict:
    names = list(url_fields) + ["move", "version", "idempotency_key", "csrfmiddlewaretoken", "x" * 200]
    data = {}
    for name in rng.sample(names, k=rng.randint(0, len(names))):
        if rng.random() < 0.2:
            data[name] = [rng.choice(NASTY) for _ in range(rng.randint(1, 3))]
        else:
            data[name] = rng.choice(NASTY + [str(rng.randint(-5, 10**6))])
    return data


@pytest.fixture
def forms(players, client):
    """(url, field names) of every HTML form, for a player seated in an active and an open game."""
    me = players[0]
    active = start_game("konamon", [me, players[1]])
    seat, _view = awaited_human(active)
    if seat.user != me:
        me = seat.user
    waiting = lobby_services.create_game(user=me, engine_slug="mamma-mia", players=4)
    other = lobby_services.create_game(user=players[2], engine_slug="mamma-mia", players=4)
    link = lobby_services.invite_token(waiting)
    return me, [
        (reverse("settings"), ["display_name", "language", "time_zone", "notify_mode", "deadline_reminders"]),
        (
            reverse("game-create"),
            [
                "engine_slug",
                "players",
                "bots",
                "time_limit_hours",
                "visibility",
                "opt_mamma_mia_memory",
                "opt_marumiere_variant",
            ],
        ),
        (reverse("game-move", args=[active.pk]), ["product", "card", "cards", "choice", "count", "target"]),
        (reverse("game-invite", args=[waiting.pk]), ["username"]),
        (reverse("game-join", args=[other.pk]), []),
        (reverse("game-leave", args=[other.pk]), []),
        (reverse("game-cancel", args=[other.pk]), []),
        (reverse("game-invite-link-create", args=[waiting.pk]), []),
        (reverse("game-invite-link-revoke", args=[waiting.pk, 1]), []),
        (reverse("game-invite-link", args=[link]), []),
        (reverse("api-token-create"), ["name"]),
        (reverse("account-delete"), ["password"]),
        (reverse("notifications:away"), ["away_until", "until", "back"]),
        (unsubscribe_url(me).split("testserver")[-1].replace("http://", ""), []),
        (reverse("set_language"), ["language", "next"]),
        (reverse("account_login"), ["login", "password", "remember"]),
        (reverse("account_signup"), ["email", "username", "password1", "password2"]),
        (reverse("account_reset_password"), ["email"]),
        (reverse("account_change_password"), ["oldpassword", "password1", "password2"]),
        (reverse("account_email"), ["email", "action_add", "action_remove", "action_primary"]),
        (reverse("account_request_login_code"), ["email", "login"]),
    ]


def test_malformed_posts_on_every_form_never_answer_5xx(forms, client, settings):
    me, targets = forms
    settings.ACCOUNT_RATE_LIMITS = {}  # the fuzzer is not a brute-forcer: let every post reach the form
    client.raise_request_exception = False
    rng = random.Random(15)
    failures = []
    for url, field_names in targets:
        for _ in range(POSTS_PER_FORM):
            client.force_login(me)
            data = fields_for(field_names, rng)
            response = client.post(url, data)
            if response.status_code >= 500:
                failures.append((url, data, response.status_code))
    assert not failures, failures[:5]
