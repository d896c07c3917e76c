"""Issue 19, point 3: an end screen worth the wait. After a game created and joined through the pages and
played out on the server (``fast_forward_to_end``), each player's page opens on a banner naming the winner
and their own place ("You placed 2nd of 3"), with the rematch button right under it (in the first screen
on a phone); the ranking highlights the winner and the reader, says each score with its unit and how it
came about; every hand is revealed. Checked with axe, light and dark; screenshots of every game's end
screen (phone and desktop, light and dark) in e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.tables import fast_forward_to_end, start_game

GAMES = [("konamon", 2, 0), ("mamma-mia", 3, 1), ("marumiere", 3, 1)]


def top_in_first_screen(page, locator) -> bool:
    page.evaluate("() => window.scrollTo(0, 0)")
    box = locator.bounding_box()
    return bool(box) and box["y"] >= 0 and box["y"] + box["height"] <= page.viewport_size["height"]


@pytest.mark.parametrize(("slug", "seats", "bots"), GAMES)
def test_the_end_screen(slug, seats, bots, player_factory, checker, findings, mailbox, stack):
    players = [player_factory("end", "desktop"), player_factory("end", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug=slug, seats=seats, bots=bots, seed=5)
    fast_forward_to_end(stack, table.game_id, seed=5)
    for player in players:
        page = player.page
        page.goto(table.url)
        banner = page.locator(".end-banner")
        expect(banner).to_be_visible()
        expect(banner.locator(".end-banner__winner")).to_contain_text(re.compile(r"wins!|share the win!"))
        expect(banner.locator(".end-banner__you")).to_contain_text(
            re.compile(rf"You (placed \d\w\w of {seats}|share \d\w\w place of {seats})\.")
        )
        rematch = page.get_by_role("button", name="Rematch")
        expect(rematch).to_be_visible()
        if player.is_phone:
            assert top_in_first_screen(page, rematch), "the rematch button is below the first screen"
        rows = page.locator("table.final-ranking tbody tr")
        expect(rows).to_have_count(seats)
        expect(page.locator("tr.final-row.is-winner").first).to_be_visible()
        expect(page.locator("tr.final-row.is-viewer")).to_have_count(1)
        unit = "recipe" if slug == "mamma-mia" else "point"
        for i in range(seats):
            expect(rows.nth(i).locator(".final-row__score")).to_contain_text(unit)
        expect(page.locator(".revealed-hands, .revealed").first).to_be_visible()
        checker.axe(page, f"{slug} end screen ({player.viewport})", key=f"{slug}-end-{player.viewport}")
        page.screenshot(path=str(checker.shots / f"{slug}-end-{player.viewport}-light.png"), full_page=True)
        page.screenshot(path=str(checker.shots / f"{slug}-end-{player.viewport}-light-first-screen.png"))
        page.emulate_media(color_scheme="dark")
        checker.axe(page, f"{slug} end screen dark ({player.viewport})", key=f"{slug}-end-dark-{player.viewport}")
        page.screenshot(path=str(checker.shots / f"{slug}-end-{player.viewport}-dark.png"), full_page=True)
        page.emulate_media(color_scheme="light")
    # The banner's link leads to the scores.
    page = players[1].page
    page.get_by_role("link", name=re.compile("Scores, how they came about")).click()
    expect(page).to_have_url(re.compile(r"#final-title$"))
