"""Issue 35, item 7: no page applies an inline style, fresh or updated in place. A browser extension, autofill or a
screenshot tool writes a style through the CSSOM (which the CSP allows) and takes it back, leaving ``style=""`` on a
field; htmx used to copy that attribute onto the field's new copy after each live update or replay step, with
setAttribute, which style-src 'self' refuses ("Applying inline style violates…", 13 times a page). The e2e fixtures
fail every test on any CSP violation or console error; this one provokes the case."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.tables import fast_forward_to_end, start_game
from e2e.test_live import move_and_watch

LEAVE_EMPTY_STYLES = """() => {
  const marked = document.querySelectorAll("[id]");
  marked.forEach((el) => { if (el.style) { el.style.caretColor = "red"; el.style.caretColor = ""; } });
  return document.querySelectorAll("[style]").length;
}"""


def csp_findings(findings, test: str) -> list:
    csp = re.compile("Content Security Policy|CSP violation")
    return [f for f in findings.items if f.test == test and csp.search(f.detail)]


def test_no_inline_style_is_applied_after_live_updates_or_replay_steps(player_factory, checker, findings, mailbox,
                                                                      stack, request):
    players = [player_factory("csp", "desktop"), player_factory("csp", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=11)
    for _ in range(3):
        for player in players:
            assert player.page.evaluate(LEAVE_EMPTY_STYLES) > 0
        move_and_watch(table)
    for player in players:
        player.page.wait_for_timeout(500)  # a violation is reported after the settle
        checker.shot(player.page, "after-live-updates", player.username)
    assert csp_findings(findings, request.node.name) == []

    fast_forward_to_end(stack, table.game_id, seed=11)
    for player in players:
        page = player.page
        page.goto(f"{table.url.rstrip('/')}/replay/?step=3")
        for step in (4, 5):
            assert page.evaluate(LEAVE_EMPTY_STYLES) > 0
            page.get_by_role("link", name="Next").click()
            expect(page.locator(".replay-where")).to_contain_text(f"Move {step} of")
        page.wait_for_timeout(500)
        checker.shot(page, "replay-after-steps", player.username)
    assert csp_findings(findings, request.node.name) == []


# Every kind of page a visitor or a player opens outside a game (the game and replay pages are above).
PAGES = ["/", "/lobby/", "/games/", "/games/new/", "/settings/", "/settings/channels/", "/settings/away/",
         "/leaderboards/mamma-mia/", "/leagues/", "/rules/mamma-mia/", "/rules/konamon/", "/rules/marumiere/",
         "/api/docs/"]
VISITOR_PAGES = ["/", "/lobby/", "/accounts/login/", "/accounts/signup/", "/accounts/password/reset/",
                 "/rules/marumiere/", "/leaderboards/konamon/"]


def test_every_page_loads_without_a_console_error_or_csp_violation(player_factory, contexts, checker, findings,
                                                                   request):
    """The fixtures fail the test on any console error; the pages are also photographed, phone and desktop."""
    for viewport in ("phone", "desktop"):
        player = player_factory("cspsweep", viewport)
        for path in [*PAGES, f"/u/{player.username}/"]:
            player.page.goto(path)
            player.page.wait_for_timeout(400)  # late reports (not "networkidle": the live stream stays open)
        _context, visitor = contexts(viewport, f"visitor-{viewport}")
        for path in VISITOR_PAGES:
            visitor.goto(path)
            visitor.wait_for_timeout(400)
        checker.shot(player.page, "profile", player.username)
    assert csp_findings(findings, request.node.name) == []
