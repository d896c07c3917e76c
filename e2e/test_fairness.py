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
