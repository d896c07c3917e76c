"""Issue 30: every seated player shapes the deal, and anyone can check the game.

Through the pages: the create form and the lobby's "Take a seat" each send 128 bits the page drew itself
(static/js/fairness.js, ``crypto.getRandomValues``: no inline script under the CSP); the check page lists them,
marks the reader's own, and once the game is over its copy-paste Python check, run as a player would (a fresh
``python3``, standard library only), finds everything matches. Checked with axe; screenshots on a phone and a
desktop in e2e-artifacts/screens/<test>/.
"""

from __future__ import annotations

import re
import subprocess
import sys
from urllib.parse import parse_qs

from playwright.sync_api import expect

from e2e.tables import create_game, fast_forward_to_end, join_from_lobby

HEX128 = re.compile(r"[0-9a-f]{32}")


def sent_contribution(request) -> str:
    """The ``contribution`` field of a posted form."""
    return (parse_qs(request.post_data or "").get("contribution") or [""])[0]


def test_the_page_sends_a_contribution_and_the_check_page_proves_the_deal(player_factory, checker, stack):
    creator, joiner = player_factory("fair", "desktop"), player_factory("fair", "phone")
    with creator.page.expect_request(lambda r: r.method == "POST" and r.url.endswith("/games/new/")) as created:
        _url, game_id = create_game(creator, checker, slug="konamon", seats=2)
    with joiner.page.expect_request(lambda r: r.method == "POST" and r.url.endswith(f"/games/{game_id}/join/")) as join:
        join_from_lobby(joiner, checker, game_id)
    theirs, mine = sent_contribution(created.value), sent_contribution(join.value)
    assert HEX128.fullmatch(theirs) and HEX128.fullmatch(mine) and theirs != mine, (theirs, mine)

    for player, own in ((creator, theirs), (joiner, mine)):
        page = player.page
        page.goto(f"/games/{game_id}/")
        page.get_by_role("link", name="How you can check this game").click()
        expect(page.get_by_role("heading", level=1)).to_have_text("How you can check this game")
        cells = page.locator("table.fairness-contributions code.hash")
        expect(cells).to_have_text([theirs, mine])
        expect(page.locator(".contribution--mine")).to_have_text(own)  # the reader's own bits, marked
        expect(page.locator(".contribution-note")).to_have_text("sent by this browser")
        expect(page.locator("pre.fairness-check")).to_have_count(0)  # nothing to check before a reveal
        checker.page(page, f"check page ({player.viewport})", axe=True, axe_key=f"fairness-{player.viewport}")
        checker.shot(page, "check page while playing", player.username)

    fast_forward_to_end(stack, game_id, seed=3)
    page = joiner.page
    page.goto(f"/games/{game_id}/check/")
    expect(page.locator("[data-secret]")).to_be_visible()
    expect(page.locator("pre.fairness-check")).to_be_visible()
    expect(page.locator("table.fairness-commitments tbody tr").first).to_be_visible()
    checker.page(page, "check page at the end (phone)", axe=True, axe_key="fairness-end-phone")
    checker.shot(page, "check page at the end", joiner.username)
    script = page.locator("pre.fairness-check").inner_text()
    assert theirs in script and mine in script
    run = subprocess.run([sys.executable, "-I", "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    seed = page.locator("[data-seed]").inner_text()
    assert f"seed {seed} " in run.stdout and "every revealed choice is the one committed" in run.stdout


LEAGUE_GAME = """
import datetime as dt, os, sys
import django
django.setup()
from django.contrib.auth import get_user_model
from django.utils import timezone
from competition import leagues
from competition.models import LeagueGame
slug, usernames = sys.argv[1], sys.argv[2:]
users = [get_user_model().objects.get(username=name) for name in usernames]
league = leagues.create_league(user=users[0], name=f"Bits cup {os.getpid()}", engine_slug=slug,
                               players_per_game=len(users), signup_until=timezone.now() + dt.timedelta(minutes=5))
for user in users[1:]:
    leagues.sign_up(user=user, league_id=league.pk)
leagues.start_league(league_id=league.pk, now=league.signup_until + dt.timedelta(seconds=1))
print(LeagueGame.objects.get(league=league).game_id)
"""


def league_game(stack, slug: str, players) -> int:
    """The one game of a league of ``players``, started on the server as beat's task does: seated, not dealt."""
    return int(stack.run_script(LEAGUE_GAME, slug, *(p.username for p in players)))


def test_a_league_players_page_sends_their_bits_and_the_game_starts_when_everyones_are_in(
    player_factory, checker, stack
):
    first, second = player_factory("league", "desktop"), player_factory("league", "phone")
    game_id = league_game(stack, "marumiere", [first, second])
    posted = f"/games/{game_id}/contribution/"
    sent = {}
    for player in (first, second):
        page = player.page
        page.goto("/games/")
        expect(page.get_by_text("open it to shuffle in your bits")).to_be_visible()
        with page.expect_request(lambda r: r.method == "POST" and r.url.endswith(posted)) as request:
            page.goto(f"/games/{game_id}/")  # the first opening sends the page's bits, nothing to click
        sent[player.username] = sent_contribution(request.value)
        assert HEX128.fullmatch(sent[player.username]), sent
        if player is first:
            expect(page.get_by_text("Your bits are in.")).to_be_visible()
            expect(page.locator("[data-bits-sent]")).to_have_count(1)
            expect(page.locator("[data-bits-awaited]")).to_have_count(1)
            checker.page(page, "league game waiting for its deal (desktop)", axe=True, axe_key="deal-waits-desktop")
            checker.shot(page, "league game waiting for the others' bits", player.username)
    # The last bits drew the deal: the game is on, on the page that sent them and, by itself, on the other.
    for player in (second, first):
        expect(player.page.locator(".waiting-room")).to_have_count(0, timeout=30_000)
        expect(player.page.locator("#log-pane")).to_be_attached()
    checker.page(second.page, "league game started (phone)")
    checker.shot(second.page, "league game dealt", second.username)
    page = second.page
    page.goto(f"/games/{game_id}/check/")
    expect(page.locator("table.fairness-contributions code.hash")).to_have_text(
        [sent[first.username], sent[second.username]]
    )
    expect(page.locator(".contribution--mine")).to_have_text(sent[second.username])
