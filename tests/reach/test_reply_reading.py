"""Reading a reply: the first line of an HTML reply through a real parser, in time bounded by the message's
size whatever its markup, while the listener keeps answering others."""

from __future__ import annotations

import email.policy
import threading
import time
from email.message import EmailMessage

import pytest

from reach import replies

KB = 1024


def html_reply(markup: str, *, to: str = "move+1-0-1-x@reply.example") -> EmailMessage:
    """A reply whose only body is HTML (as some clients send)."""
    message = EmailMessage(policy=email.policy.default)
    message["From"], message["To"], message["Subject"] = "a@example.org", to, "Re: your move"
    message.set_content(markup, subtype="html")
    return message


@pytest.mark.parametrize(("markup", "line"), [
    ("<html><head><title>Re: your move</title><style>p { color: red }</style></head>"
     "<body><div>2&nbsp;</div><blockquote>On Monday, mammamia wrote:<p>3</p></blockquote></body></html>", "2"),
    ("<div dir=ltr><script>alert(1)</script>code&#32;4<br></div><div class=gmail_quote>On x wrote:</div>", "code 4"),
    ("<p></p><p>  </p><p><b>#</b>12</p>", "#12"),
    ("<blockquote>1</blockquote>", None),
    ("", None),
])
def test_the_first_line_of_an_html_reply_is_what_the_sender_wrote(markup, line):
    assert replies.first_line(html_reply(markup)) == line


@pytest.mark.parametrize("markup", [
    "<style" * (512 * KB // 6),  # the audit's: unclosed <style (the old regex: 0.6 s at 16 KB, 11 s at 64 KB)
    "<script>" + "</" * (256 * KB),
    "<blockquote>" * (40 * KB),
    "<a\n" * (170 * KB),  # quadratic in some versions of the standard library's html.parser
    "<!--" * (128 * KB),
    "<" * (512 * KB),
    "<p>" + "b=1 " * (128 * KB),
], ids=["unclosed-style", "script-of-closing-tags", "nested-quotes", "open-tags", "comments", "angles", "attributes"])
def test_reading_a_512_kb_html_reply_takes_a_bounded_time_whatever_its_markup(markup):
    message = html_reply(markup)
    started = time.monotonic()
    replies.first_line(message)
    assert time.monotonic() - started < 0.5


def test_the_time_to_read_unclosed_styles_grows_no_faster_than_their_size():
    def seconds(size: int) -> float:
        message = html_reply("<style" * (size // 6))
        started = time.monotonic()
        replies.first_line(message)
        return time.monotonic() - started

    small, large = min(seconds(16 * KB) for _ in range(3)), min(seconds(128 * KB) for _ in range(3))
    assert large < 8 * small * 3 + 0.05  # linear (8x the size), room for noise; the old regex took 64x (0.6 s, 40 s)


def test_a_very_long_first_line_is_cut_and_read_in_linear_time():
    message = EmailMessage()
    message.set_content("On " + "x" * (400 * KB))
    started = time.monotonic()
    line = replies.first_line(message)
    assert time.monotonic() - started < 0.5 and line is not None and len(line) == 200


@pytest.mark.django_db(transaction=True)
def test_the_listener_answers_another_reply_while_a_huge_html_one_is_read(settings, user_factory):
    import smtplib
    import socket

    from reach.inbound import ReplyController

    settings.INBOUND_MAIL_DOMAIN = "reply.example"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = ReplyController(host="127.0.0.1", port=port)
    controller.start()
    # The listener reads a body only for a reply address it signed: two seats awaited in two games.
    from games.models import Seat
    from tests.games.game_helpers import start_game

    addresses = []
    for n in range(2):
        game = start_game("marumiere", [user_factory(username=f"l{n}a"), user_factory(username=f"l{n}b")])
        seat = Seat.objects.get(game=game, awaited=True)
        addresses.append(replies.reply_address(game_id=game.pk, seat_number=seat.number, version=game.version,
                                               user_id=seat.user_id))
    huge = html_reply("<style" * (128 * KB // 6), to=addresses[0])  # the old regex: 40 s, the listener stalled
    small = html_reply("<p>1</p>", to=addresses[1])

    def send(message, took: list) -> None:
        started = time.monotonic()
        client = smtplib.SMTP("127.0.0.1", port, timeout=60)
        try:
            client.send_message(message)
        finally:
            client.quit()
        took.append(time.monotonic() - started)

    try:
        huge_took, small_took = [], []
        first = threading.Thread(target=send, args=(huge, huge_took))
        first.start()
        time.sleep(0.2)
        send(small, small_took)
        first.join(120)
    finally:
        controller.stop()
    assert small_took[0] < 2.0, f"the listener kept another reply waiting {small_took[0]:.1f}s"
    assert huge_took and huge_took[0] < 5.0
