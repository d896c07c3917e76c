"""Issue 35, items 1-4: what players read after a game is called off, after a resignation, on Marumiere's
cards and on the clocks — one reading of each fact everywhere on the page. Screenshots (phone 390×844 and
desktop) in e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.tables import start_game

PHONE_390 = {"width": 390, "height": 844}


def shots(checker, page, name: str, phone: bool) -> None:
    """Full-page screenshots of ``page``: at 390×844 for the phone player, as is for the desktop one."""
    if phone:
        page.set_viewport_size(PHONE_390)
    page.screenshot(path=str(checker.shots / f"{name}-{'phone' if phone else 'desktop'}.png"), full_page=True)


def test_a_called_off_game_says_so_at_the_top_and_shows_its_seed(player_factory, checker, findings, mailbox, stack):
    players = [player_factory("off", "desktop"), player_factory("off", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="konamon", seats=2)
    proposer, other = players
    proposer.page.get_by_role("button", name="Propose to call the game off").click()
    other.page.goto(table.url)
    other.page.get_by_role("button", name="Agree to call it off").click()
    for player in players:
        page = player.page
        page.goto(table.url)
        status = page.locator(".turn-status")
        expect(status.locator(".end-banner")).to_contain_text("This game was called off.")
        expect(status).to_contain_text("Every player agreed.")
        expect(status).not_to_contain_text("to move")
        deal_check = page.locator(".deal-check")
        expect(deal_check).to_contain_text("Now that the game is over, here is the number itself.")
        expect(deal_check.locator("code.hash").nth(1)).to_have_text(re.compile(r"^\d+$"))
        expect(deal_check).not_to_contain_text("once the game is over")
        checker.page(page, f"called-off game ({player.viewport})", axe=True, axe_key=f"called-off-{player.viewport}")
        shots(checker, page, "called-off", player.is_phone)
