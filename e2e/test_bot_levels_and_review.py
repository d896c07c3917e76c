"""Issue 28: a game with a strong and an easy bot, created through the create page (a level per bot seat), played
to its end, then each person's review: linked from the end screen, listing their decisions with marks, and the
replay marking their move. Phone and desktop screenshots in e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import re
import time

from playwright.sync_api import expect

from e2e.tables import fast_forward_to_end, start_game


def wait_for_review(page, url: str, timeout: float = 240) -> None:
    """The review runs on the slow queue a little after the end: reload until it is there."""
    deadline = time.monotonic() + timeout
    while True:
        page.goto(url)
        if page.locator("[data-review-counts]").count():
            return
        assert page.locator("[data-review-pending]").count(), page.content()[:2000]
        assert time.monotonic() < deadline, "the review was not ready in time"
        time.sleep(3)


def test_a_game_with_a_strong_and_an_easy_bot_ends_with_a_review_for_each_person(
    player_factory, checker, findings, mailbox, stack
):
    players = [player_factory("review", "desktop"), player_factory("review", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="marumiere", seats=4, bots=2,
                       seed=7, bot_levels=["strong", "easy"])
    for player in players:
        names = player.page.locator(".player-rows")
        expect(names).to_contain_text("Bot 2 (strong)")
        expect(names).to_contain_text("Bot 3 (easy)")
    checker.shot(players[1].page, "table-with-levels", players[1].username)
    fast_forward_to_end(stack, table.game_id, seed=7)
    for player in players:
        page = player.page
        page.goto(table.url)
        link = page.get_by_role("link", name="Review your game")
        expect(link).to_be_visible()
        review_url = link.get_attribute("href")
        wait_for_review(page, review_url)
        expect(page.get_by_role("heading", level=1)).to_contain_text("Review of your game")
        rows = page.locator("tr.review-row")
        assert rows.count() > 0, "no decision reviewed"
        checker.axe(page, f"review ({player.viewport})", key=f"review-{player.viewport}")
        page.screenshot(path=str(checker.shots / f"review-{player.viewport}.png"), full_page=True)
        # The first decision's link opens the replay at that move, marked.
        mark = rows.first.get_attribute("data-review-mark")
        rows.first.get_by_role("link").click()
        expect(page).to_have_url(re.compile(r"/replay/\?step=\d+"))
        aside = page.locator("aside.review-mark")
        expect(aside).to_be_visible()
        assert aside.get_attribute("data-review-mark") == mark
        expect(aside).to_contain_text("You played:")
        page.screenshot(path=str(checker.shots / f"replay-review-mark-{player.viewport}.png"), full_page=True)
