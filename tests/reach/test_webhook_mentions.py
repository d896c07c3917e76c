"""Webhook bodies relay chat, names and titles that players typed: what Slack and Discord show as a message
(``text``, ``content``) can never ping a channel, a group or a person; the structured fields keep the words."""

from __future__ import annotations

import datetime as dt
import html

import pytest
import time_machine
from django.utils import timezone

from reach import delivery
from reach.fanout import refresh_flags
from reach.models import Webhook
from tests.games.game_helpers import start_game
from together import services

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]

TYPED = "@everyone @here <!channel> <!here> <@U024BE7LH> <@&1234> <#C1> </cmd:1> @alice a&b <3"


def test_chat_relayed_by_a_webhook_pings_nobody_in_slack_or_discord(players, receiver):
    game = start_game("konamon", players[:2])
    Webhook.objects.create(user=players[1], url=receiver.url("/ok"), kinds=["chat"])
    refresh_flags(players[1].pk)
    services.post_chat_message(user=players[0], game_id=game.pk, text=TYPED)
    with time_machine.travel(timezone.now() + dt.timedelta(minutes=2), tick=False):
        delivery.sweep(budget_seconds=5)
    [call] = receiver.received
    document = call.document
    # Discord: no mention is parsed at all, and none is left in the text for a client that ignores that.
    assert document["allowed_mentions"] == {"parse": []}
    for mention in ("@everyone", "@here", "@alice", "<@U024BE7LH>", "<@&1234>", "<#C1>", "</cmd:1>"):
        assert mention not in document["content"]
    # Slack (and Slack-compatible Mattermost): &, < and > escaped as Slack asks, so <!channel> is plain text.
    for mention in ("<!channel>", "<!here>", "<@U024BE7LH>", "@everyone", "@here", "@alice"):
        assert mention not in document["text"]
    # Both still read as typed (the neutralising characters are invisible) ...
    summary = f"{document['title']}: {document['body']} {document['url']}"
    assert document["content"].replace("\u200b", "") == summary
    assert html.unescape(document["text"]).replace("\u200b", "") == summary
    # ... and a program gets the exact words in the structured fields.
    assert TYPED in document["body"] and document["chat"]["latest"][-1]["text"] == TYPED
