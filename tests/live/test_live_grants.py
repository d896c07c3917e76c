import time_machine
from django.core import signing

from live.grants import MAX_AGE_SECONDS, Grant, make_grant, read_grant


def test_a_grant_names_the_game_and_user_channels_it_was_made_for():
    grant = read_grant(make_grant(game_id=12, user_id=7))
    assert grant == Grant(game_id=12, user_id=7)
    assert grant.groups() == ["game.12", "user.7"]
    assert read_grant(make_grant(game_id=None, user_id=7)).groups() == ["user.7"]
    assert read_grant(make_grant(game_id=3, user_id=None)).groups() == ["game.3"]


def test_forged_tampered_or_foreign_tokens_grant_nothing():
    token = make_grant(game_id=12, user_id=7)
    payload, rest = token.split(":", 1)
    other_game = signing.b64_encode(b"[13,7]").decode()
    assert payload != other_game
    assert read_grant(f"{other_game}:{rest}") is None, "the signature covers the game"
    assert read_grant(token[:-2] + ("AA" if not token.endswith("AA") else "BB")) is None
    assert read_grant("") is None
    assert read_grant("not a token") is None
    # Signed by us, but for another purpose (another salt) or not of a grant's shape.
    assert read_grant(signing.dumps([12, 7], salt="something.else")) is None
    for value in ({"g": 1}, [1], [True, 2], [-1, 2], ["1", 2], [None, None], [1, 2, 3]):
        assert read_grant(signing.dumps(value, salt="live.stream")) is None


def test_a_grant_expires_after_a_week():
    with time_machine.travel("2026-01-01 00:00Z"):
        token = make_grant(game_id=1, user_id=2)
    with time_machine.travel("2026-01-01 00:00Z", tick=False) as traveller:
        traveller.shift(MAX_AGE_SECONDS - 60)
        assert read_grant(token) is not None
        traveller.shift(120)
        assert read_grant(token) is None
