"""Every game can be played by e-mail alone (issue 34), and its noise is bounded: a whole 2-player game of each
engine by replies (``bench.email_play``, the harness ``make bench`` runs), no turn left to the site."""

from __future__ import annotations

import pytest

from bench import email_play

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery", "site", "inbound")]


@pytest.fixture
def inbound(settings):
    settings.INBOUND_MAIL_DOMAIN = "reply.play.example"
    return settings


@pytest.mark.parametrize("slug", ["mamma-mia", "konamon", "marumiere"])
def test_a_whole_game_is_played_by_replies_alone_nothing_on_the_site(players, slug):
    tally = email_play.play_game(slug, players[:2], strategy="whole", seed=3)
    print(tally.as_dict())  # the figures (docs/benchmarks-how.md): pytest -s shows them
    assert tally.finished, tally.as_dict()
    assert tally.on_site == 0, "every turn can be played by reply"
    # One answer per reply at most, folded into the next e-mail when one follows within the hold.
    assert tally.emails.get("move_reply", 0) <= tally.replies


def test_a_konamon_card_in_one_reply_takes_fewer_replies_than_one_step_per_reply(players, user_factory):
    others = [user_factory(username=f"k{n}") for n in range(2)]
    whole = email_play.play_game("konamon", players[:2], strategy="whole", seed=5)
    one = email_play.play_game("konamon", others, strategy="one", seed=5)
    assert whole.finished and one.finished
    assert whole.replies / whole.moves < 0.75 * one.replies / one.moves, (whole.as_dict(), one.as_dict())
