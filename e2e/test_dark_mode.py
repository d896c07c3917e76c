"""Issue 19, point 11: dark mode follows the system setting (prefers-color-scheme), with AA contrast
checked by axe on the pages a player meets (home, lobby, the create form, the waiting room, a table
with a move to make), on a phone and on a desktop. Screenshots in dark go to
e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from e2e.tables import start_game

DARK_BACKGROUND_MAX = 60  # every channel of the page background at most this: a dark page


def background(page) -> list[int]:
    rgb = page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")
    return [int(part) for part in rgb[rgb.index("(") + 1 : rgb.index(")")].split(",")[:3]]


@pytest.mark.parametrize("slug", ["konamon", "mamma-mia", "marumiere"])
def test_dark_mode_keeps_aa_contrast(slug, player_factory, checker, findings, mailbox, stack):
    players = [player_factory("dark", "phone"), player_factory("dark", "desktop")]
    for player in players:
        player.page.emulate_media(color_scheme="dark")
    phone, desktop = players
    for player in players:
        player.page.goto("/")
        assert max(background(player.page)) <= DARK_BACKGROUND_MAX, background(player.page)
        checker.axe(player.page, f"home dark ({player.viewport})", key=f"home-dark-{player.viewport}")
        player.page.screenshot(path=str(checker.shots / f"home-dark-{player.viewport}.png"), full_page=True)
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug=slug, seats=2, seed=5)
    for player in players:
        player.page.goto(table.url)
        expect(player.page.locator(".player-rows")).to_be_visible()
        assert max(background(player.page)) <= DARK_BACKGROUND_MAX
        checker.axe(player.page, f"{slug} table dark ({player.viewport})", key=f"{slug}-dark-{player.viewport}")
        player.page.screenshot(path=str(checker.shots / f"{slug}-dark-{player.viewport}.png"), full_page=True)
    # The light scheme is unchanged: the same page without the emulation has the light background.
    phone.page.emulate_media(color_scheme="light")
    phone.page.reload()
    assert min(background(phone.page)) > 200
