"""Moves by e-mail reply: real messages through the SMTP/LMTP listener, and a whole game played by replies alone."""

from __future__ import annotations

import io
import re
import smtplib
import socket
import sys
from email.message import EmailMessage

import pytest
from django.core import mail
from django.core.management import call_command

from games.models import Game, GameStatus, Move, Seat
from reach import replies
from reach.inbound import ReplyController
from tests.games.game_helpers import start_game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("eager_celery", "site", "inbound")]
DOMAIN = "reply.play.example"


@pytest.fixture
def inbound(settings):
    settings.INBOUND_MAIL_DOMAIN = DOMAIN
    return settings


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def listener():
    controller = ReplyController(host="127.0.0.1", port=free_port())
    controller.start()
    yield controller
    controller.stop()


@pytest.fixture
def lmtp_listener():
    controller = ReplyController(host="127.0.0.1", port=free_port(), lmtp=True)
    controller.start()
    yield controller
    controller.stop()


def turn_mail_for(user):
    """The latest e-mail to ``user`` that carries move codes (its Reply-To is the signed address)."""
    for message in reversed(mail.outbox):
        if message.to == [user.email] and message.reply_to:
            return message
    return None


def codes_in(message) -> list[str]:
    # "12 = Play No. 3", several to a line (issue 34: the codes come last, compact).
    return re.findall(r"(?:^|   )(\d+) = ", message.body, re.MULTILINE)


def reply(listener, message, first_line: str, *, sender=None, extra_headers=None, to=None, lmtp=False):
    answer = EmailMessage()
    answer["From"] = sender or message.to[0]
    answer["To"] = to or message.reply_to[0]
    answer["Subject"] = "Re: " + message.subject
    for name, value in (extra_headers or {}).items():
        answer[name] = value
    quoted = "> " + message.body[:200].replace("\n", "\n> ")
    answer.set_content(f"{first_line}\n\nOn Monday, mammamia wrote:\n{quoted}\n")
    client = (smtplib.LMTP if lmtp else smtplib.SMTP)(listener.hostname, listener.port, timeout=10)
    try:
        if not lmtp:
            client.ehlo()
        return client.send_message(answer, from_addr=answer["From"] if sender != "<>" else "",
                                   to_addrs=[str(answer["To"])])
    finally:
        client.quit()


def replies_to(user):
    return [m for m in mail.outbox if m.to == [user.email] and "Re:" not in m.subject and m.extra_headers]


def test_a_turn_email_lists_codes_and_a_signed_reply_address(players):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    assert message is not None
    address = message.reply_to[0]
    assert address == replies.reply_address(game_id=game.pk, seat_number=seat.number, version=game.version,
                                            user_id=seat.user_id)
    assert address.startswith("move+") and address.endswith("@" + DOMAIN)
    assert codes_in(message) == [str(n) for n in range(1, len(codes_in(message)) + 1)] and codes_in(message)
    assert "Reply to this e-mail with the code of your move" in message.body


def test_a_reply_with_a_code_plays_that_move_through_smtp(players, listener):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    reply(listener, message, "2")
    game.refresh_from_db()
    move = Move.objects.get(game=game)
    assert move.seat_number == seat.number and move.move["pile"] == 1
    confirmations = [m for m in mail.outbox if m.to == [seat.user.email] and "your move is played" in m.subject]
    assert len(confirmations) == 1


def test_lmtp_works_too(players, lmtp_listener):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    reply(lmtp_listener, turn_mail_for(seat.user), "1", lmtp=True)
    assert Move.objects.filter(game=game).count() == 1


def test_a_reused_reply_changes_nothing_and_says_so(players, listener):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    reply(listener, message, "1")
    reply(listener, message, "2")
    assert Move.objects.filter(game=game).count() == 1
    assert any("that reply was used already" in m.subject for m in mail.outbox)


def test_a_forged_token_changes_nothing_and_gets_no_answer(players, listener):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    sent_before = len(mail.outbox)
    genuine = message.reply_to[0]
    forged = re.sub(r"-([a-z2-7]{24})@", lambda m: "-" + ("a" * 24 if m.group(1) != "a" * 24 else "b" * 24) + "@",
                    genuine)
    other_seat = re.sub(r"^move\+(\d+)-(\d+)-", lambda m: f"move+{m.group(1)}-{1 - int(m.group(2))}-", genuine)
    for address in (forged, other_seat):
        reply(listener, message, "1", to=address)
    assert Move.objects.filter(game=game).count() == 0
    assert len(mail.outbox) == sent_before


def test_a_stale_reply_says_the_game_moved_on_and_lists_the_new_moves(players, listener):
    from games.models import SeatView
    from games.play import services

    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    view = SeatView.objects.get(game=game, seat_number=seat.number)
    services.check_play_move(user=seat.user, game_id=game.pk, move=view.legal_moves[0],
                             expected_version=game.version)  # on the page meanwhile
    reply(listener, message, "2")
    assert Move.objects.filter(game=game).count() == 1
    answer = [m for m in mail.outbox if "the game has moved on" in m.subject]
    assert len(answer) == 1


def test_an_unreadable_or_unknown_code_gets_a_reply_saying_why(players, listener):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    reply(listener, message, "I would like the red pile please")
    reply(listener, message, "99")
    assert Move.objects.filter(game=game).count() == 0
    unread = [m for m in mail.outbox if "we could not read your move" in m.subject]
    assert len(unread) == 1 and unread[0].reply_to, "the answer lists the codes again"
    # A number that is none of the codes is not "unreadable" (issue 34): the answer says so, and lists them again.
    [not_listed] = [m for m in mail.outbox if "that is not one of the listed moves" in m.subject]
    assert not_listed.reply_to and "99 is not one of the listed moves" in not_listed.body


@pytest.mark.parametrize("headers,sender", [
    ({"Auto-Submitted": "auto-replied"}, None),
    ({"Precedence": "bulk"}, None),
    ({"X-Autoreply": "yes"}, None),
    ({}, "<>"),
])
def test_auto_replies_and_bounces_are_ignored(players, listener, headers, sender):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    sent_before = len(mail.outbox)
    reply(listener, message, "1", extra_headers=headers, sender=sender)
    assert Move.objects.filter(game=game).count() == 0
    assert len(mail.outbox) == sent_before


def test_the_listener_is_no_open_relay(listener):
    client = smtplib.SMTP(listener.hostname, listener.port, timeout=10)
    try:
        client.ehlo()
        client.mail("someone@example.com")
        code, _ = client.rcpt("victim@example.org")
        assert code == 550
    finally:
        client.quit()


def test_one_message_on_stdin_for_mtas_that_pipe(players, monkeypatch):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    answer = EmailMessage()
    answer["From"], answer["To"], answer["Subject"] = seat.user.email, message.reply_to[0], "Re"
    answer.set_content("1\n")
    # The command in this process (its stdin replaced), so it sees the test database.
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(answer.as_bytes())))
    call_command("receive_mail", "--stdin", "--sender", seat.user.email, stdout=out)
    assert out.getvalue().startswith("played")
    assert Move.objects.filter(game=game).count() == 1


def test_a_whole_game_is_played_by_email_replies_alone(players, listener):
    game = start_game("marumiere", players[:2])
    handled = set()
    for _step in range(500):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        seat = Seat.objects.select_related("user").get(game=game, awaited=True)
        message = turn_mail_for(seat.user)
        assert message is not None, f"no e-mail with codes for {seat.user} at version {game.version}"
        assert message.reply_to[0] not in handled, f"no fresh e-mail for {seat.user} at version {game.version}"
        handled.add(message.reply_to[0])
        reply(listener, message, codes_in(message)[-1])
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINISHED
    # Every move a player chose came by reply; a seat left one legal move plays it itself (issue 32), no e-mail.
    assert Move.objects.filter(game=game, made_by="player").count() == len(handled)
    assert all(m.made_by in ("player", "forced") for m in Move.objects.filter(game=game))


def labels_of(seat_number, game, language) -> list[str]:
    """The seat's legal moves as its game names them, from the seat's own view, in ``language``."""
    from django.utils import translation

    from games.models import SeatView
    from games.ui import get_ui

    row = SeatView.objects.get(game=game, seat_number=seat_number)
    with translation.override(language):
        return get_ui(game.engine_slug).move_labels(view=row.view, legal_moves=row.legal_moves)


@pytest.mark.parametrize("slug", ["marumiere", "konamon"])
def test_the_codes_name_each_move_in_the_games_words_and_the_readers_language(players, slug):
    for user in players[:2]:
        user.language = "fr"
        user.save(update_fields=["language"])
    game = start_game(slug, players[:2])
    seat = Seat.objects.filter(game=game, awaited=True).first()
    labels = labels_of(seat.number, game, "fr")
    body = turn_mail_for(seat.user).body
    for code, label in enumerate(labels, start=1):
        assert f"{code} = {label}" in body, (label, body)
    assert ("Pile 1, carte du dessus" if slug == "marumiere" else "Jouer le n°") in body


def test_the_confirmation_names_the_move_played_as_the_game_does(players, listener):
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    played = labels_of(seat.number, game, "en")[1]
    reply(listener, turn_mail_for(seat.user), "2")
    [confirmation] = [m for m in mail.outbox if m.to == [seat.user.email] and "your move is played" in m.subject]
    assert f"is played: {played}." in confirmation.body
    assert played.startswith("Pile 2, top card:")


def test_an_illegal_or_stale_reply_is_answered_in_the_readers_language(players, listener):
    from games.models import SeatView
    from games.play import services

    players[0].language = players[1].language = "ja"
    for user in players[:2]:
        user.save(update_fields=["language"])
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    view = SeatView.objects.get(game=game, seat_number=seat.number)
    services.check_play_move(user=seat.user, game_id=game.pk, move=view.legal_moves[0],
                             expected_version=game.version)
    reply(listener, message, "2")
    game.refresh_from_db()
    [answer] = [m for m in mail.outbox if m.to == [seat.user.email] and "Re:" not in m.subject
                and m.subject.endswith("進んでいます")] or [None]
    assert answer is not None, [m.subject for m in mail.outbox]
    now_awaited = Seat.objects.filter(game=game, awaited=True, user=seat.user).first()
    if now_awaited is not None:
        for label in labels_of(seat.number, game, "ja"):
            assert label in answer.body


def test_a_reply_the_game_can_no_longer_take_is_answered_with_the_reason_in_the_readers_language(players, listener):
    from together import services as together

    for user in players[:2]:
        user.language = "ja"
        user.save(update_fields=["language"])
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    other = players[1] if seat.user == players[0] else players[0]
    together.propose_call_off(user=seat.user, game_id=game.pk)
    together.answer_call_off(user=other, game_id=game.pk, accept=True)  # the game is called off
    reply(listener, message, "1")
    assert Move.objects.filter(game=game).count() == 0
    [answer] = [m for m in mail.outbox if m.to == [seat.user.email] and m.subject.endswith("その手は打てません")]
    assert "このゲームは進行中ではありません。" in answer.body


# Issue 34: the confirmation of a reply folds into the next e-mail ------------------------------------------------


def test_the_confirmation_of_a_reply_folds_into_the_next_your_move_email(players, listener, settings, monkeypatch):
    import datetime as dt

    import time_machine
    from django.utils import timezone

    from games.lobby import services as lobby
    from notifications import delivery
    from notifications.models import OutboxEmail
    from tests.games.game_helpers import awaited_human

    monkeypatch.setattr(lobby, "new_seed", lambda: 7)  # a deal where the reply hands the turn to the opponent
    game = start_game("marumiere", players[:2])  # its first "your move" at once (without the hold)
    settings.TURN_NOTIFY_HOLD_SECONDS = 180
    seat = Seat.objects.get(game=game, awaited=True)
    played = labels_of(seat.number, game, "en")[0]
    reply(listener, turn_mail_for(seat.user), "1")
    confirmation = OutboxEmail.objects.get(kind=replies.MOVE_REPLY, user=seat.user)
    assert confirmation.status == "pending" and confirmation.payload["held"], "held, not sent at once"
    # The opponent answers within the hold: the replier's next "your move" carries the confirmation.
    game.refresh_from_db()
    opponent, view = awaited_human(game)
    assert opponent.user_id != seat.user_id, "the opponent moves next in this deal"
    from games.play import services

    services.check_play_move(user=opponent.user, game_id=game.pk, move=view.legal_moves[0],
                             expected_version=game.version)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=185)):
        assert delivery.deliver(confirmation.pk) == delivery.Outcome.DROPPED
        turn = OutboxEmail.objects.filter(kind=OutboxEmail.Kind.TURN, user=seat.user).latest("created_at")
        assert delivery.deliver(turn.pk) == delivery.Outcome.SENT
    confirmation.refresh_from_db()
    assert confirmation.last_error == replies.FOLDED
    [message] = mail.outbox
    assert f"is played: {played}." in message.body and "your move is played" not in message.subject


def test_the_confirmation_goes_alone_when_nothing_follows_within_the_hold(players, listener, settings):
    import datetime as dt

    import time_machine
    from django.utils import timezone

    from notifications import delivery
    from notifications.models import OutboxEmail

    game = start_game("marumiere", players[:2])  # its first "your move" at once (without the hold)
    settings.TURN_NOTIFY_HOLD_SECONDS = 180
    seat = Seat.objects.get(game=game, awaited=True)
    reply(listener, turn_mail_for(seat.user), "1")
    confirmation = OutboxEmail.objects.get(kind=replies.MOVE_REPLY, user=seat.user)
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + dt.timedelta(seconds=185)):
        assert delivery.deliver(confirmation.pk) == delivery.Outcome.SENT
    assert ["your move is played" in m.subject for m in mail.outbox] == [True]


# Issue 34: every game by e-mail alone — Mamma Mia!'s refill as a letter, a Konamon! card in one reply ------------


def moves_played(game) -> int:
    return Move.objects.filter(game=game).count()


def answers_to(user, words: str):
    return [m for m in mail.outbox if m.to == [user.email] and words in m.subject]


def test_mamma_mia_lists_each_play_once_and_takes_the_refill_as_a_letter(players, listener):
    from games.models import SeatView

    game = start_game("mamma-mia", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    legal = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
    codes = codes_in(message)
    assert "Too many moves" not in message.body and len(codes) <= 16 < len(legal), "each play once, not per pile"
    assert len(set(codes)) == len(codes)
    assert "write the letter of your choice (K = refill from the kitchen, R = refill from your recipe deck)" \
        in message.body
    reply(listener, message, "1")  # where is the hand refilled from? Not said: nothing is played
    assert moves_played(game) == 0
    [answer] = answers_to(seat.user, "that move needs a letter")
    assert "1 needs a letter written right after it" in answer.body and answer.reply_to
    reply(listener, message, "1r")
    [move] = Move.objects.filter(game=game)
    assert move.seat_number == seat.number and move.move["draw"] == "recipes"


@pytest.mark.parametrize("line", ["1K please", "1K 2R", "K1", "1KR", "1 K R"])
def test_a_reply_is_read_strictly_and_anything_else_changes_nothing(players, listener, line):
    game = start_game("mamma-mia", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    reply(listener, turn_mail_for(seat.user), line)
    assert moves_played(game) == 0
    assert answers_to(seat.user, "we could not read your move"), [m.subject for m in mail.outbox]


def test_a_wrong_letter_is_not_one_of_the_listed_moves_in_the_readers_language(players, listener):
    for user in players[:2]:
        user.language = "ja"
        user.save(update_fields=["language"])
    game = start_game("mamma-mia", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    message = turn_mail_for(seat.user)
    assert "コードのすぐ後に、選んだ文字を書いてください" in message.body
    reply(listener, message, "1X")
    reply(listener, message, "1")
    assert moves_played(game) == 0
    assert [m.subject.split("：")[-1] for m in mail.outbox if m.to == [seat.user.email] and "：" in m.subject][-2:] \
        == ["一覧にない手です", "その手には選択肢の文字が必要です"]


class Mail:
    """What the reply helper needs of an e-mail whose codes we read ourselves (a card the player just began)."""

    def __init__(self, user, codes) -> None:
        self.to, self.reply_to, self.subject, self.body = [user.email], [codes.address], "Konamon!", ""


def at_a_card(game):
    """Both players choose (through the site); the seat whose card is carried out and its codes."""
    from games.models import SeatView
    from games.play import services

    for _ in range(6):
        for seat in Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user"):
            view = SeatView.objects.get(game=game, seat_number=seat.number)
            game.refresh_from_db()
            if view.view.get("working") and view.view["working"]["seat"] == seat.number:
                return seat, view, replies.codes_for(game=game, seat_number=seat.number, user_id=seat.user_id)
            services.check_play_move(user=seat.user, game_id=game.pk, move=view.legal_moves[0],
                                     expected_version=game.version)
    pytest.fail("no card came up")


def card_line(codes, view) -> str:
    """Every step of the card: prep what the bake then takes, the first hand-over listed, then 0."""
    working = view.view["working"]
    left, listed = working["left"], dict(codes.codes)
    cooking = dict(view.view["boards"]["cooking"])
    words = []
    for _ in range(left.get("prep", 0) if working["process"] == "prep" else 0):
        words.append("1")  # okonomiyaki
        cooking["okonomiyaki"] = cooking.get("okonomiyaki", 0) + 1
    for _ in range(left.get("bake", 0)):
        product = next((p for p in ("okonomiyaki", "taiyaki", "takoyaki") if cooking.get(p)), None)
        if product is None:
            break
        cooking[product] -= 1
        words.append(str(4 + ("okonomiyaki", "taiyaki", "takoyaki").index(product)))
    hand_overs = [code for code in listed if int(code) >= 7]
    if hand_overs and left.get("hand_over"):
        words.append(hand_overs[0])
    return " ".join(words + ["0"])


def test_a_konamon_card_is_played_in_one_reply_and_answered_once(players, listener):
    game = start_game("konamon", players[:2])
    seat, view, codes = at_a_card(game)
    assert codes.several and ("0", "do nothing more with this card") in codes.all_codes
    assert "You may write several steps on that line" in "\n".join([codes.several_line])
    line = card_line(codes, view)
    card = view.view["working"]["card"]
    before, sent_before = moves_played(game), len(mail.outbox)
    reply(listener, Mail(seat.user, codes), line)
    played = Move.objects.filter(game=game, seat_number=seat.number, made_by="player").order_by("pk")
    steps = [m for m in played if m.move["type"] in ("prep", "bake", "hand_over")]
    assert len(steps) == len(line.split()) - 1, (line, [m.move for m in played])
    assert moves_played(game) > before + 1, "several moves from one reply"
    view.refresh_from_db()
    working = view.view.get("working") or {}
    assert working.get("card") != card, "the card is done"
    confirmations = [m for m in mail.outbox[sent_before:] if m.to == [seat.user.email] and m.reply_to is not None
                     and "your move is played" in m.subject]
    assert len(confirmations) == 1  # one reply, one answer, naming every step played
    assert confirmations[0].body.count(";") >= len(steps) - 1


def test_a_konamon_reply_with_a_step_that_cannot_be_played_plays_none(players, listener):
    game = start_game("konamon", players[:2])
    seat, view, codes = at_a_card(game)
    working = view.view["working"]
    first = codes.codes[0][0]
    too_many = " ".join([first] * (sum(working["left"].values()) + 3))  # more of one step than the card has
    before = moves_played(game)
    reply(listener, Mail(seat.user, codes), too_many)
    assert moves_played(game) == before, "all or nothing"
    [answer] = answers_to(seat.user, "that move is not possible")
    assert "none of your codes was played" in answer.body.lower() or "None of your codes was played" in answer.body
    reply(listener, Mail(seat.user, codes), "99")
    assert moves_played(game) == before
    assert answers_to(seat.user, "that is not one of the listed moves")
