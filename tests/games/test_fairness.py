"""Issue 30: every seat shapes the deal, secret choices are sealed, and anyone can check both from published values."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets

import pytest
from django.urls import reverse
from game_helpers import SLUGS, awaited_human, play_out, start_game

from games import tables
from games.engines import get_engine
from games.engines.sealing import canonical, commitment, opens, salt
from games.exceptions import BadInput, ContributionFixed, GameNotOpen
from games.fairness_page import facts
from games.history.services import verify_deal
from games.lobby import services as lobby
from games.models import DealScheme, Game, GameState, GameStatus, Move, Seat, SeatView
from games.play import selectors as play_selectors
from games.play import services as play_services

pytestmark = pytest.mark.django_db


def documented_seed(secret: str, contributions: list[str]) -> int:
    """docs/fairness.md's formula, written out again with the standard library only."""
    message = "\n".join(["mammamia deal v2", *contributions]).encode()
    return int.from_bytes(hmac.new(secret.encode(), message, hashlib.sha256).digest()[:16], "big")


def documented_bot_contribution(secret: str, join_position: int) -> str:
    return hmac.new(secret.encode(), f"mammamia bot contribution:{join_position}".encode(), hashlib.sha256).hexdigest()[
        :32
    ]


def test_the_seed_is_the_documented_function_of_the_committed_secret_and_every_contribution(players):
    mine, theirs = secrets.token_hex(16), secrets.token_hex(16).upper()  # any case is accepted, stored lower
    game = lobby.create_game(user=players[0], engine_slug="konamon", players=3, contribution=mine)
    lobby.add_bot(user=players[0], game_id=game.pk)
    lobby.join_game(user=players[1], game_id=game.pk, contribution=theirs)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE and game.deal_scheme == DealScheme.JOINT
    row = GameState.objects.get(game=game)
    secret = row.seed
    assert hashlib.sha256(secret.encode()).hexdigest() == game.seed_sha256, "the commitment shown from the start"
    bot = documented_bot_contribution(secret, 1)
    assert list(Seat.objects.filter(game=game).order_by("join_order").values_list("contribution", flat=True)) == [
        mine,
        bot,
        theirs.lower(),
    ]
    seed = documented_seed(secret, [mine, bot, theirs.lower()])
    assert int(row.deal_seed) == seed and tables.full_state(game)["seed"] == seed
    assert seed != int(secret)
    # The seats too are drawn from the joint seed.
    order = tables.seat_order(seed, 3)
    by_join = sorted(Seat.objects.filter(game=game), key=lambda seat: seat.join_order)
    assert [by_join[position].number for position in order] == [0, 1, 2]


def test_a_different_contribution_gives_a_different_deal():
    secret = str(secrets.randbits(128))
    assert documented_seed(secret, ["0" * 32, "1" * 32]) != documented_seed(secret, ["0" * 32, "2" * 32])
    assert documented_seed(secret, ["0" * 32, "1" * 32]) != documented_seed(secret, ["1" * 32, "0" * 32]), "in order"


def test_a_contribution_once_committed_cannot_change(players):
    game = lobby.create_game(user=players[0], engine_slug="mamma-mia", players=3)
    lobby.join_game(user=players[1], game_id=game.pk)  # without one: an API client may send it next
    first, second = secrets.token_hex(16), secrets.token_hex(16)
    lobby.contribute(user=players[1], game_id=game.pk, contribution=first)
    lobby.contribute(user=players[1], game_id=game.pk, contribution=first)  # the same request again: harmless
    with pytest.raises(ContributionFixed):
        lobby.contribute(user=players[1], game_id=game.pk, contribution=second)
    with pytest.raises(BadInput):
        lobby.contribute(user=players[0], game_id=game.pk, contribution="not hex at all")
    assert Seat.objects.get(game=game, user=players[1]).contribution == first
    lobby.contribute(user=players[0], game_id=game.pk, contribution=second)
    lobby.join_game(user=players[2], game_id=game.pk, contribution=secrets.token_hex(16))
    with pytest.raises(GameNotOpen):  # after the start nobody's can change, even one never sent
        lobby.contribute(user=players[2], game_id=game.pk, contribution=secrets.token_hex(16))
    assert Seat.objects.get(game=game, user=players[0]).contribution == second


@pytest.fixture
def finished(django_capture_on_commit_callbacks):
    """Start a game and play it out, bots moving as each move commits: ``finished(slug, users, bots=, seed=)``."""

    def play(slug, users, *, bots=0, seed=1, before_start=None):
        import random

        with django_capture_on_commit_callbacks(execute=True):
            game = start_game(slug, users, bots=bots)
        rng = random.Random(seed)
        for _ in range(5000):
            game.refresh_from_db()
            if game.status != GameStatus.ACTIVE:
                return game
            seat, seat_view = awaited_human(game)
            with django_capture_on_commit_callbacks(execute=True):
                move = rng.choice(seat_view.legal_moves)
                play_services.check_play_move(user=seat.user, game_id=game.pk, move=move, expected_version=game.version)
        raise AssertionError("the game did not end")

    return play


def run_check_script(script: str) -> dict:
    """Runs the copy-paste check of the page and API as a player would (standard library only)."""
    namespace: dict = {}
    exec(compile(script, "check.py", "exec"), namespace)  # noqa: S102 - the script under test
    return namespace


@pytest.mark.parametrize("slug", SLUGS)
def test_verification_recomputes_each_engines_deal_from_revealed_values_alone(slug, players, finished):
    game = finished(slug, players[:2], bots=1, seed=3)
    assert game.status == GameStatus.FINISHED
    assert verify_deal(game) == []
    found = facts(play_selectors.game_access(game_id=game.pk, user=players[0]))
    assert found["secret"] == game.revealed_seed
    assert found["deal_check"] == {"matches": True, "problems": [], "moves": game.version}, "the API's re-run"
    namespace = run_check_script(found["check"])  # asserts the SHA-256, the bot's bits and every commitment
    assert str(namespace["seed"]) == found["seed"]
    # From those values alone (no database): the engine deals and re-plays exactly this game.
    engine = get_engine(slug)
    state = engine.setup(game.players, seed=int(found["seed"]), options={**game.options, "sealed": True})
    for move in Move.objects.filter(game=game).order_by("sequence"):
        state = engine.play(state, move.seat_number, move.move)
    assert state == tables.full_state(game)
    if slug != "mamma-mia":  # Konamon!'s choices, Marumiere's bid cards and face-down plays
        assert found["commitments"] and all(entry["salt"] for entry in found["commitments"])
        assert all(opens(e["commitment"], e["salt"], e["choice"]) for e in found["commitments"])


def test_verification_notices_a_changed_contribution_or_a_changed_bot_contribution(players, finished):
    game = finished("konamon", players[:1], bots=1, seed=2)
    assert verify_deal(game) == []
    bot = Seat.objects.get(game=game, is_bot=True)
    Seat.objects.filter(pk=bot.pk).update(contribution=secrets.token_hex(16))
    problems = verify_deal(game)
    assert any("bot's contribution" in problem for problem in problems), problems
    assert any("does not apply" in p or "different" in p for p in problems), "another seed deals another game"


def test_a_called_off_game_with_its_seed_revealed_recomputes_its_deal_from_the_revealed_values(players):
    game = start_game("marumiere", players[:3])
    seat, seat_view = awaited_human(game)
    move = seat_view.legal_moves[0]
    play_services.check_play_move(user=seat.user, game_id=game.pk, move=move, expected_version=game.version)
    assert Move.objects.filter(game=game).exists()
    # Issue 35 (h35a): a called-off game reveals its seed as a finished one does.
    Game.objects.filter(pk=game.pk).update(
        status=GameStatus.ABANDONED, revealed_seed=GameState.objects.get(game=game).seed
    )
    found = facts(play_selectors.game_access(game_id=game.pk, user=players[0]))
    assert found["secret"]
    namespace = run_check_script(found["check"])
    engine = get_engine("marumiere")
    state = engine.setup(3, seed=namespace["seed"], options={**game.options, "sealed": True})
    for played in Move.objects.filter(game=game).order_by("sequence"):
        state = engine.play(state, played.seat_number, played.move)
    assert state == tables.full_state(game)


def test_games_dealt_before_keep_their_site_drawn_seed_and_say_so(players, client):
    game = lobby.create_game(user=players[0], engine_slug="konamon", players=2)
    Game.objects.filter(pk=game.pk).update(deal_scheme=DealScheme.SITE)  # as the migration leaves older games
    lobby.join_game(user=players[1], game_id=game.pk, contribution=secrets.token_hex(16))
    game = play_out(Game.objects.get(pk=game.pk), seed=5)
    state = tables.full_state(game)
    assert state["seed"] == int(game.revealed_seed) and "sealed" not in state, "dealt exactly as before"
    assert not [event for event in state["log"] if "commitment" in event or "salt" in event]
    assert verify_deal(game) == []
    found = facts(play_selectors.game_access(game_id=game.pk, user=players[0]))
    assert found["scheme"] == "site" and found["seed"] == game.revealed_seed
    run_check_script(found["check"])
    client.force_login(players[0])
    page = client.get(reverse("game-fairness", args=[game.pk])).content.decode()
    assert "drawn by the site alone" in page


def test_konamon_seals_each_choice_until_the_reveal(players, client):
    game = start_game("konamon", players[:2])
    seat = Seat.objects.filter(game=game, number=0).select_related("user").get()
    move = SeatView.objects.get(game=game, seat_number=0).legal_moves[0]
    play_services.check_play_move(user=seat.user, game_id=game.pk, move=move, expected_version=game.version)
    other_log = SeatView.objects.get(game=game, seat_number=1).log_tail
    chose = [event for event in other_log if event["type"] == "chose" and event["seat"] == 0]
    assert chose and len(chose[-1]["commitment"]) == 64
    assert not [event for event in other_log if "salt" in event], "no salt before the reveal"
    state = tables.full_state(game)
    choice = {"cards": move["cards"], "discard": move.get("discard")}
    assert chose[-1]["commitment"] == commitment(salt(state["seed"], f"konamon:{state['round']}:0"), choice)
    assert canonical(choice) not in json.dumps(other_log)
    # Everyone's log shows it at once, marked sealed (the chooser's own line too); the check page lists it
    # whole, not yet opened.
    for viewer in (players[0], players[1], None):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        log_page = client.get(reverse("game-log", args=[game.pk])).content.decode()
        assert 'class="log-seal"' in log_page and chose[-1]["commitment"][:12] in log_page
        check_page = client.get(reverse("game-fairness", args=[game.pk])).content.decode()
        assert chose[-1]["commitment"] in check_page and "not yet" in check_page


def test_a_commitment_is_sha256_of_salt_colon_canonical_json():
    salt_hex = "00112233445566778899aabbccddeeff"
    expected = hashlib.sha256(b'00112233445566778899aabbccddeeff:{"cards":[3,7],"discard":null}').hexdigest()
    assert commitment(salt_hex, {"discard": None, "cards": [3, 7]}) == expected
    assert not opens(expected, salt_hex, {"cards": [3, 8], "discard": None})


# The API ----------------------------------------------------------------------------------------------


def test_an_api_client_sends_its_contribution_with_the_join_and_reads_it_back(players, client):
    game = lobby.create_game(user=players[0], engine_slug="konamon", players=3)
    mine = secrets.token_hex(16)
    client.force_login(players[1])
    url = reverse("api-game-join", args=[game.pk])
    refused = client.post(url, {"contribution": "xyz"}, content_type="application/json")
    assert refused.status_code == 400 and not Seat.objects.filter(game=game, user=players[1]).exists()
    assert client.post(url, {"contribution": mine}, content_type="application/json").status_code == 200
    assert Seat.objects.get(game=game, user=players[1]).contribution == mine
    body = client.get(reverse("api-game-fairness", args=[game.pk])).json()
    assert body["scheme"] == "joint" and body["secret"] is None and body["seed"] is None
    assert [entry["contribution"] for entry in body["contributions"]] == ["", mine]
    assert [entry["drawn_by"] for entry in body["contributions"]] == ["none", "player"]
    # The creator sends theirs afterwards, once; a second, different one is refused.
    client.force_login(players[0])
    url = reverse("api-game-contribution", args=[game.pk])
    first = secrets.token_hex(16)
    assert client.post(url, {"contribution": first}, content_type="application/json").status_code == 200
    again = client.post(url, {"contribution": secrets.token_hex(16)}, content_type="application/json")
    assert again.status_code == 409 and again.json()["error"] == "contribution_fixed"
    assert Seat.objects.get(game=game, user=players[0]).contribution == first


def test_the_api_creates_a_game_with_the_creators_contribution(players, client):
    client.force_login(players[0])
    mine = secrets.token_hex(16)
    response = client.post(
        reverse("api-games"), {"game": "marumiere", "players": 3, "contribution": mine}, content_type="application/json"
    )
    assert response.status_code == 201, response.content
    assert Seat.objects.get(game_id=response.json()["id"], user=players[0]).contribution == mine


# The page ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "How you can check this game"),
        ("ja", "このゲームを自分で確かめる方法"),
        ("zh-hant", "如何自行驗證這局遊戲"),
        ("fr", "Comment vérifier cette partie"),
    ],
)
def test_the_check_page_speaks_the_players_language_and_shows_the_secret_only_at_the_end(
    language, title, players, client
):
    players[0].language = language
    players[0].save(update_fields=["language"])
    game = start_game("konamon", players[:2])
    client.force_login(players[0])
    url = reverse("game-fairness", args=[game.pk])
    page = client.get(url).content.decode()
    secret = GameState.objects.get(game=game).seed
    assert title in page and game.seed_sha256 in page and secret not in page
    assert title in client.get(reverse("game", args=[game.pk])).content.decode(), "the game page links to it"
    game = play_out(game)
    page = client.get(url).content.decode()
    assert secret in page and "hmac.new" in page and "data-deal-matches" in page


def test_the_migration_leaves_every_existing_game_drawn_by_the_site_and_every_new_one_joint():
    import importlib

    from django.db.migrations.operations import AddField, AlterField

    operations = importlib.import_module("games.migrations.0012_h30_joint_deals").Migration.operations
    added = next(op for op in operations if isinstance(op, AddField) and op.name == "deal_scheme")
    altered = next(op for op in operations if isinstance(op, AlterField) and op.name == "deal_scheme")
    assert added.field.default == DealScheme.SITE, "rows that exist when it runs are filled with this"
    assert altered.field.default == DealScheme.JOINT == Game._meta.get_field("deal_scheme").default


def test_the_pages_take_the_contribution_with_the_join_and_refuse_a_malformed_one_in_the_readers_language(
    players, client
):
    game = lobby.create_game(user=players[0], engine_slug="konamon", players=3)
    players[1].language = "fr"
    players[1].save(update_fields=["language"])
    client.force_login(players[1])
    url = reverse("game-join", args=[game.pk])
    refused = client.post(url, {"contribution": "pas de l’hexadécimal"}, follow=True)
    assert "32 chiffres hexadécimaux" in refused.content.decode()
    assert not Seat.objects.filter(game=game, user=players[1]).exists()
    mine = secrets.token_hex(16)
    assert client.post(url, {"contribution": mine}).status_code == 302
    assert Seat.objects.get(game=game, user=players[1]).contribution == mine
    client.force_login(players[2])
    assert client.post(url, {}).status_code == 302, "without JavaScript: a seat all the same, with none sent"
    assert Seat.objects.get(game=game, user=players[2]).contribution == ""
