"""The leak test for the channels: push payloads, webhook documents, the move codes of e-mails and the feeds
that a player receives are built from their own view only (the codes: each game's reply menu, its letters
and its card steps, issue 34).

For random games of every engine, at several moments, for every seated player: everything these channels
would send them is rendered, then every OTHER seat's SeatView and the full game state are replaced by
poison and it is rendered again: it must be the same, and must not contain the poison (nor, for Mamma
Mia!, any recipe hidden from that player).
"""

from __future__ import annotations

import random
import re
import uuid

import pytest

from games.models import GameLogChunk, GameState, GameStatus, Seat, SeatView
from games.play import services
from games.tables import full_state
from reach import feeds, replies, texts
from reach.fanout import refresh_flags
from reach.models import Delivery, EventKind, Webhook
from tests.games.game_helpers import SLUGS, start_game
from tests.games.test_leak import TOKENS

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]
POISON = "LEAKED-BY-A-CHANNEL"


def channel_outputs(game, seat: Seat) -> str:
    """Everything the channels would send ``seat``'s player now, as one text."""
    parts = []
    for row in Delivery.objects.filter(user=seat.user, game=game).select_related("user", "game"):
        parts.append(repr(texts.message(row)))
    codes = replies.codes_for(game=game, seat_number=seat.number, user_id=seat.user_id)
    if codes is not None:
        # Every code, its label and the lines on how to reply (issue 34: a letter for a part, a card's steps).
        parts += [repr(codes.all_codes), codes.parts_line, codes.several_line]
    parts.append(feeds.calendar(user=seat.user).decode())
    parts.append(re.sub(r"<updated>[^<]*</updated>", "", feeds.atom(user=seat.user).decode()))
    return "\n".join(parts)


def poisoned(game, seat_number: int):
    """A context: every other seat's view and the whole state are poison meanwhile."""

    class Poisoned:
        def __enter__(self):
            self.others = list(SeatView.objects.filter(game=game).exclude(seat_number=seat_number))
            self.saved = [(r.pk, r.view, r.log_tail, r.legal_moves) for r in self.others]
            self.state_row = GameState.objects.get(game=game)
            self.chunks = list(GameLogChunk.objects.filter(game=game).values_list("pk", "events"))
            SeatView.objects.filter(pk__in=[r.pk for r in self.others]).update(
                view={"poison": POISON}, log_tail=[{"type": POISON}], legal_moves=[{"type": POISON}])
            GameState.objects.filter(pk=self.state_row.pk).update(state={"poison": POISON})
            GameLogChunk.objects.filter(game=game).update(events=[{"type": POISON}])

        def __exit__(self, *exc):
            GameState.objects.filter(pk=self.state_row.pk).update(state=self.state_row.state)
            for pk, events in self.chunks:
                GameLogChunk.objects.filter(pk=pk).update(events=events)
            for pk, view, tail, legal in self.saved:
                SeatView.objects.filter(pk=pk).update(view=view, log_tail=tail, legal_moves=legal)

    return Poisoned()


@pytest.mark.parametrize("slug", SLUGS)
def test_no_channel_sends_a_hidden_card(slug, players, settings):
    settings.INBOUND_MAIL_DOMAIN = "reply.play.example"
    for user in players:
        Webhook.objects.create(user=user, url="https://hooks.example/x", kinds=[k.value for k in EventKind])
        refresh_flags(user.pk)
    rng = random.Random(slug)
    game = start_game(slug, players[:3], time_limit_hours=24)
    checked = 0
    for step in range(400):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE or checked >= 4:
            break
        if step % 7 == 0:
            checked += 1
            state = full_state(game)
            for seat in Seat.objects.filter(game=game, is_bot=False).select_related("user"):
                before = channel_outputs(game, seat)
                if slug in TOKENS:
                    view = SeatView.objects.get(game=game, seat_number=seat.number).view
                    hidden, _own = TOKENS[slug](state, {**view, "log": []}, seat.number)
                    leaked = [t for t in hidden if re.search(rf"(?<![\w-]){re.escape(t)}(?![\w-])", before)]
                    assert not leaked, leaked[:5]
                with poisoned(game, seat.number):
                    after = channel_outputs(game, seat)
                assert POISON not in after
                assert after == before, f"seat {seat.number}'s channels read another seat's view or the state"
        awaited = Seat.objects.filter(game=game, awaited=True).select_related("user").order_by("?").first()
        legal = SeatView.objects.get(game=game, seat_number=awaited.number).legal_moves
        services.check_play_move(user=awaited.user, game_id=game.pk, move=rng.choice(legal),
                                 expected_version=game.version, idempotency_key=uuid.uuid4())
    assert checked >= 2
    assert Delivery.objects.filter(channel="webhook", kind="turn").exists(), "nothing was checked"
