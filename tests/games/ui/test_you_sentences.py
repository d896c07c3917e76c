"""Log sentences told to the player they are about (issue 19, point 10): with ``viewer``, every event about the
reader's own seat reads "You …" in each game, and every other reader still sees the player's name."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.engines import get_engine
from games.ui import describe_event, get_ui

SLUGS = ["mamma-mia", "konamon", "marumiere"]
PLAYERS = [{"seat": n, "name": name} for n, name in enumerate(["Alice", "Bruno", "Chiyo", "Dai"])]


def _own_events(slug: str, players: int, seed: int):
    """(seat, event) for every event of a whole bot game whose subject is that seat, from the seat's own log."""
    engine, ui = get_engine(slug), get_ui(slug)
    state = engine.setup(players, seed, {})
    while not engine.is_over(state):
        for seat in engine.waiting_for(state):
            state = engine.play(state, seat, engine.bot_move(state, seat))
            if engine.is_over(state):
                break
    for seat in range(players):
        for event in engine.view(state, seat)["log"]:
            kind = event.get("type")
            if kind in ui.you_describers and event.get(ui.you_subjects.get(kind, "seat")) == seat:
                yield seat, event


@pytest.mark.parametrize("slug", SLUGS)
def test_each_event_about_the_readers_own_seat_is_told_to_them_as_you(slug):
    seen = set()
    for players in (2, 3):
        for seed in (1, 2):
            for seat, event in _own_events(slug, players, seed):
                name = PLAYERS[seat]["name"]
                text = str(describe_event(slug, event, PLAYERS[:players], viewer=seat))
                assert name not in text, text
                assert "you" in text.lower() or text.startswith("Drew "), text
                other = (seat + 1) % players
                assert name in str(describe_event(slug, event, PLAYERS[:players], viewer=other))
                seen.add(event["type"])
    assert seen, "no event about a seat of its own"


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("language", ["ja", "zh-hant", "fr"])
def test_sentences_told_as_you_are_translated(slug, language):
    for seat, event in _own_events(slug, 2, 1):
        with translation.override("en"):
            english = str(describe_event(slug, event, PLAYERS[:2], viewer=seat))
        with translation.override(language):
            assert str(describe_event(slug, event, PLAYERS[:2], viewer=seat)) != english


def test_without_a_viewer_every_event_keeps_the_players_name():
    event = {"type": "trick_won", "seat": 0, "trick": 3, "cards": []}
    assert str(describe_event("marumiere", event, PLAYERS[:2])) == "Alice wins trick 3."
    assert str(describe_event("marumiere", event, PLAYERS[:2], viewer=0)) == "You win trick 3."
