"""Issue 30 for leagues: a league's game is seated by the site but dealt only once every seated player has added
their bits to the deal (their page, their API client), or at its deadline with the site drawing the missing ones
from its committed secret; nobody can steer the deal, and anyone can check it from the revealed values."""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import io
import random
import secrets

import pytest
from competition_helpers import play_randomly_to_the_end
from django.core.management import CommandError, call_command
from django.urls import reverse
from django.utils import timezone, translation

from competition import leagues
from competition.models import LeagueGame
from games import tables, tasks
from games.engines import get_engine
from games.exceptions import ContributionFixed, DealDrawn, NotAllowed
from games.fairness_page import facts
from games.history.services import verify_deal
from games.lobby import seated
from games.lobby import services as lobby
from games.models import Game, GameState, GameStatus, Move, Seat
from games.play import selectors as play_selectors
from notifications.emails import render
from notifications.models import OutboxEmail

pytestmark = pytest.mark.django_db


def documented_seed(secret: str, contributions: list[str]) -> int:
    """docs/fairness.md's formula, written out again with the standard library only."""
    message = "\n".join(["mammamia deal v2", *contributions]).encode()
    return int.from_bytes(hmac.new(secret.encode(), message, hashlib.sha256).digest()[:16], "big")


def documented_site_contribution(secret: str, join_position: int) -> str:
    label = f"mammamia site contribution:{join_position}".encode()
    return hmac.new(secret.encode(), label, hashlib.sha256).hexdigest()[:32]


def league_games(people, *, count=2, size=2, slug="marumiere") -> list[Game]:
    """A league of ``count`` entrants started now; its games, seated and waiting for their deals."""
    league = leagues.create_league(
        user=people[0], name="Bits cup", engine_slug=slug, players_per_game=size,
        signup_until=timezone.now() + dt.timedelta(hours=1),
    )
    for user in people[1:count]:
        leagues.sign_up(user=user, league_id=league.pk)
    leagues.start_league(league_id=league.pk, now=league.signup_until + dt.timedelta(seconds=1))
    return [link.game for link in LeagueGame.objects.filter(league=league).select_related("game").order_by("pk")]


def by_join(game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user").order_by("join_order"))


def test_a_league_game_is_dealt_only_when_every_player_has_contributed_from_the_documented_function(people, settings):
    settings.DEAL_WAIT_HOURS = 48
    game = league_games(people, count=3, size=3, slug="mamma-mia")[0]
    assert game.status == GameStatus.OPEN and game.rated
    league = LeagueGame.objects.get(game=game).league
    assert game.contributions_due_at - league.started_at == dt.timedelta(hours=48), "DEAL_WAIT_HOURS after the start"
    row = GameState.objects.get(game=game)
    assert row.state is None and row.deal_seed == "", "not dealt before the players' bits"
    assert not Seat.objects.filter(game=game, awaited=True).exists(), "no clock runs before the deal"
    assert not OutboxEmail.objects.filter(kind="started").exists()
    bits = {}
    for seat in by_join(game)[::-1]:  # in any order; the formula takes them in join order
        bits[seat.join_order] = secrets.token_hex(16)
        lobby.contribute(user=seat.user, game_id=game.pk, contribution=bits[seat.join_order])
        game.refresh_from_db()
        assert (game.status == GameStatus.ACTIVE) == (len(bits) == 3), "it starts with the last contribution"
    row.refresh_from_db()
    secret = row.seed
    assert hashlib.sha256(secret.encode()).hexdigest() == game.seed_sha256
    seed = documented_seed(secret, [bits[0], bits[1], bits[2]])
    assert int(row.deal_seed) == seed and tables.full_state(game)["seed"] == seed
    assert Seat.objects.filter(game=game, awaited=True).exclude(deadline_at=None).exists(), "the clocks start"
    assert game.started_at is not None
    # "Game started" goes out as for any game (issue 34 decides when: held, dropped at the table).
    assert OutboxEmail.objects.filter(kind="started", game_id=game.pk).exists()


def test_at_the_deadline_the_site_draws_the_missing_bits_from_its_secret_and_starts_the_game(people, client):
    game = league_games(people)[0]
    first, second = by_join(game)
    mine = secrets.token_hex(16)
    lobby.contribute(user=first.user, game_id=game.pk, contribution=mine)
    assert tasks.draw_due_contributions.apply().get() == 0, "not before the deadline"
    assert seated.draw_missing(game_id=game.pk) is False
    Game.objects.filter(pk=game.pk).update(contributions_due_at=timezone.now() - dt.timedelta(seconds=1))
    assert tasks.draw_due_contributions.apply().get() == 1
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    secret = GameState.objects.get(game=game).seed
    second.refresh_from_db()
    assert second.contribution_by_site and second.contribution == documented_site_contribution(secret, 1)
    assert int(GameState.objects.get(game=game).deal_seed) == documented_seed(secret, [mine, second.contribution])
    assert tasks.draw_due_contributions.apply().get() == 0 and seated.draw_missing(game_id=game.pk) is False
    # Marked as the site's, on the check page and in the API.
    client.force_login(first.user)
    entries = client.get(reverse("api-game-fairness", args=[game.pk])).json()["contributions"]
    assert [(e["drawn_by"], e["bot"]) for e in entries] == [("player", False), ("site", False)]
    page = client.get(reverse("game-fairness", args=[game.pk])).content.decode()
    assert "drawn by the site: the player sent none" in page
    # The late player's bits are refused once the deal is drawn, on the page and through the API.
    with pytest.raises(DealDrawn):
        lobby.contribute(user=second.user, game_id=game.pk, contribution=secrets.token_hex(16))
    client.force_login(second.user)
    late = client.post(reverse("api-game-contribution", args=[game.pk]), {"contribution": secrets.token_hex(16)},
                       content_type="application/json")
    assert late.status_code == 409 and late.json()["error"] == "deal_drawn"


def test_a_contribution_given_cannot_change_and_nobody_leaves_cancels_or_invites(people):
    game = league_games(people)[0]
    first, second = by_join(game)
    given = secrets.token_hex(16)
    lobby.contribute(user=first.user, game_id=game.pk, contribution=given)
    lobby.contribute(user=first.user, game_id=game.pk, contribution=given)  # the same again: harmless
    with pytest.raises(ContributionFixed):
        lobby.contribute(user=first.user, game_id=game.pk, contribution=secrets.token_hex(16))
    seated.draw_mine(user=first.user, game_id=game.pk)  # already in: nothing changes
    first.refresh_from_db()
    assert first.contribution == given and not first.contribution_by_site
    for refused in (
        lambda: lobby.leave_game(user=second.user, game_id=game.pk),
        lambda: lobby.cancel_game(user=first.user, game_id=game.pk),
        lambda: lobby.invite_user(user=first.user, game_id=game.pk, username=people[5].username),
        lambda: lobby.add_bot(user=first.user, game_id=game.pk),
    ):
        with pytest.raises(NotAllowed):
            refused()
    assert Game.objects.get(pk=game.pk).status == GameStatus.OPEN


def test_an_api_client_sends_its_own_contribution_and_the_game_starts(people, client):
    game = league_games(people)[0]
    first, second = by_join(game)
    client.force_login(first.user)
    listed = client.get(reverse("api-games")).json()["results"]
    summary = next(item for item in listed if item["game"]["id"] == game.pk)["game"]
    assert summary["status"] == "open" and summary["contributions_due_at"]
    bits = [secrets.token_hex(16), secrets.token_hex(16)]
    answer = client.post(reverse("api-game-contribution", args=[game.pk]), {"contribution": bits[0]},
                         content_type="application/json")
    assert answer.status_code == 200 and answer.json()["status"] == "open"
    again = client.post(reverse("api-game-contribution", args=[game.pk]), {"contribution": bits[1]},
                        content_type="application/json")
    assert again.status_code == 409 and again.json()["error"] == "contribution_fixed"
    client.force_login(second.user)
    answer = client.post(reverse("api-game-contribution", args=[game.pk]), {"contribution": bits[1]},
                         content_type="application/json")
    assert answer.status_code == 200 and answer.json()["status"] == "active"
    fairness = client.get(reverse("api-game-fairness", args=[game.pk])).json()
    assert [e["contribution"] for e in fairness["contributions"]] == bits
    assert fairness["contributions_due_at"] is None and fairness["secret"] is None


def test_verify_deal_recomputes_a_league_games_deal_from_revealed_values_alone(people):
    game = league_games(people, slug="konamon")[0]
    first, _second = by_join(game)
    lobby.contribute(user=first.user, game_id=game.pk, contribution=secrets.token_hex(16))
    Game.objects.filter(pk=game.pk).update(contributions_due_at=timezone.now())
    assert seated.draw_missing(game_id=game.pk)
    game = play_randomly_to_the_end(Game.objects.get(pk=game.pk), random.Random(4))
    assert game.status == GameStatus.FINISHED
    assert verify_deal(game) == []
    out = io.StringIO()
    call_command("verify_deal", game.pk, stdout=out)  # what an operator runs
    assert f"all {game.version} moves re-run to the same game" in out.getvalue()
    found = facts(play_selectors.game_access(game_id=game.pk, user=first.user))
    namespace: dict = {}
    exec(compile(found["check"], "check.py", "exec"), namespace)  # noqa: S102 - asserts the site's bits too
    assert str(namespace["seed"]) == found["seed"]
    engine = get_engine("konamon")
    state = engine.setup(2, seed=int(found["seed"]), options={**game.options, "sealed": True})
    for move in Move.objects.filter(game=game).order_by("sequence"):
        state = engine.play(state, move.seat_number, move.move)
    assert state == tables.full_state(game)
    # Had the site drawn other bits for the late seat, the check would say so.
    Seat.objects.filter(game=game, contribution_by_site=True).update(contribution=secrets.token_hex(16))
    assert any("site's contribution" in problem for problem in verify_deal(game))
    with pytest.raises(CommandError):
        call_command("verify_deal", game.pk, stdout=io.StringIO(), stderr=io.StringIO())


def test_the_game_page_sends_the_players_bits_or_lets_the_site_draw_them_without_javascript(people, client):
    game = league_games(people)[0]
    first, second = by_join(game)
    client.force_login(first.user)
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "data-contribution-auto" in page and "Waiting for every player" in page
    assert "Leave this game" not in page and "Cancel this game" not in page
    bits = secrets.token_hex(16)
    response = client.post(reverse("game-contribution", args=[game.pk]), {"contribution": bits})
    assert response.status_code == 302 and Seat.objects.get(pk=first.pk).contribution == bits
    page = client.get(reverse("game", args=[game.pk])).content.decode()
    assert "data-contribution-auto" not in page and "Your bits are in" in page
    client.force_login(second.user)
    bad = client.post(reverse("game-contribution", args=[game.pk]), {"own_contribution": "nope"}, follow=True)
    assert "32 hexadecimal digits" in bad.content.decode()
    client.post(reverse("game-contribution", args=[game.pk]), {"site_draws": "1"})
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert Seat.objects.get(pk=second.pk).contribution_by_site


def test_a_player_whose_account_is_closed_before_the_deal_hands_the_seat_to_the_bot(people):
    from trust.account import delete_account

    game = league_games(people)[0]
    first, second = by_join(game)
    lobby.contribute(user=first.user, game_id=game.pk, contribution=secrets.token_hex(16))
    delete_account(user=second.user)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE, "the last missing bits were the closed account's: drawn, dealt"
    seat = Seat.objects.get(pk=second.pk)
    assert seat.is_bot and seat.dropped_out and seat.contribution_by_site
    secret = GameState.objects.get(game=game).seed
    assert seat.contribution == documented_site_contribution(secret, seat.join_order)


def test_a_player_deactivated_by_staff_before_the_deal_hands_the_seat_to_the_bot_and_the_others_wait(people):
    from together.moderation import deactivate_user

    game = league_games(people, count=3, size=3, slug="mamma-mia")[0]
    first, second, _third = by_join(game)
    assert deactivate_user(user=first.user) >= 1
    seat = Seat.objects.get(pk=first.pk)
    assert seat.is_bot and seat.dropped_out and seat.contribution_by_site
    assert Game.objects.get(pk=game.pk).status == GameStatus.OPEN, "the others' bits are still awaited"
    lobby.contribute(user=second.user, game_id=game.pk, contribution=secrets.token_hex(16))
    assert Game.objects.get(pk=game.pk).status == GameStatus.OPEN


def test_the_league_email_and_pages_say_the_games_wait_for_the_players_bits(people, client):
    game = league_games(people)[0]
    row = OutboxEmail.objects.filter(kind="league_started").first()
    subject, text, _html = render(row)
    assert "shuffle in your bits" in text
    client.force_login(row.user)
    mine = client.get(reverse("my-games")).content.decode()
    assert "open it to shuffle in your bits" in mine
    league_page = client.get(LeagueGame.objects.get(game=game).league.get_absolute_url()).content.decode()
    assert "waiting for its players" in league_page


@pytest.fixture
def _back_to_english():
    """A page request activates its reader's language for the thread: the tests after this expect the default."""
    yield
    translation.deactivate()


@pytest.mark.parametrize("language", ["ja", "zh-hant", "fr"])
def test_the_waiting_game_page_speaks_the_players_language(people, client, language, _back_to_english):
    # The catalogue's words, not a copy of them: a language review may reword them; the test holds that the page
    # shows that language's words and no English.
    with translation.override(language):
        words = translation.gettext("Waiting for every player's bits")
    assert words != "Waiting for every player's bits"
    game = league_games(people)[0]
    first = by_join(game)[0]
    first.user.language = language
    first.user.save(update_fields=["language"])
    client.force_login(first.user)
    page = client.get(reverse("game", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert words in page and "Waiting for every player" not in page and "Shuffle in my bits" not in page
    check = client.get(reverse("game-fairness", args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert "The site seated this game's players" not in check and "not sent yet" not in check
