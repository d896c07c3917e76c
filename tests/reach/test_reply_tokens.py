"""Reply addresses: only the canonical form of a token is one; another spelling of the same numbers (leading
zeros) is no address at all, so it can neither pass the MAC nor slip past the "used" mark."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from games.models import Move, Seat
from reach import replies
from tests.games.game_helpers import start_game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery", "site")]


@pytest.fixture(autouse=True)
def inbound(settings):
    settings.INBOUND_MAIL_DOMAIN = "reply.play.example"


def send(address: str, line: str = "1") -> replies.Result:
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = "someone@example.org", address, "Re: your move"
    message.set_content(f"{line}\n")
    return replies.handle(message.as_bytes(), recipients=[address], mail_from="someone@example.org")


def awaited_address(players) -> tuple[str, tuple[int, int, int]]:
    game = start_game("marumiere", players[:2])
    seat = Seat.objects.get(game=game, awaited=True)
    numbers = (game.pk, seat.number, game.version)
    return replies.reply_address(game_id=game.pk, seat_number=seat.number, version=game.version,
                                 user_id=seat.user_id), numbers


def respell(address: str, numbers: tuple[int, int, int], which: int) -> str:
    """The same address with one of its numbers written with a leading zero."""
    local, _, domain = address.partition("@")
    parts = local.removeprefix("move+").split("-")
    parts[which] = "0" + parts[which]
    return f"move+{'-'.join(parts)}@{domain}"


@pytest.mark.parametrize("which", [0, 1, 2], ids=["game", "seat", "version"])
def test_a_used_reply_address_respelled_with_a_leading_zero_plays_nothing(players, which):
    address, numbers = awaited_address(players)
    assert send(address).outcome == "played"
    assert send(address).outcome == "used"
    respelled = respell(address, numbers, which)
    assert respelled != address
    assert send(respelled).outcome == "ignored"
    assert Move.objects.filter(game_id=numbers[0]).count() == 1


@pytest.mark.parametrize("which", [0, 1, 2], ids=["game", "seat", "version"])
def test_a_reply_address_with_a_leading_zero_is_no_address(players, which):
    address, numbers = awaited_address(players)
    result = send(respell(address, numbers, which))
    assert (result.outcome, result.detail) == ("ignored", "no reply address")
    assert not Move.objects.filter(game_id=numbers[0]).exists()
    assert send(address).outcome == "played"  # the real one still works
