"""Issue 19, the table as players see it on a 360×740 phone: when it is your move, the way to the move
form is in the first screen ("Go to your move"), one tap brings the form into view; the header is one
line; ``GET .../move/`` (a reload after a refused move) lands on the game, not on a 405 page; and the
site has a favicon. Screenshots (phone and desktop) go to e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from e2e.tables import awaited_usernames, start_game

SLUGS = ["konamon", "mamma-mia", "marumiere"]


def in_first_screen(page, selector: str) -> bool:
    """Whether the element's top edge shows in the viewport without scrolling."""
    return page.evaluate(
        "(sel) => { window.scrollTo(0, 0); const r = document.querySelector(sel).getBoundingClientRect();"
        " return r.top >= 0 && r.top < window.innerHeight && r.height > 0; }",
        selector,
    )


@pytest.mark.parametrize("slug", SLUGS)
def test_your_move_is_within_reach_on_a_phone(slug, player_factory, checker, findings, mailbox, stack):
    players = [player_factory("reach", "phone"), player_factory("reach", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug=slug, seats=2, seed=5)
    players[0].page.reload()
    awaited = awaited_usernames(players[0].page)
    phone = next(p for p in players if p.username in awaited)
    page = phone.page
    page.goto(table.url)
    expect(page.locator(".your-move")).to_be_visible()
    jump = page.get_by_role("link", name="Go to your move")
    expect(jump).to_be_visible()
    assert in_first_screen(page, ".jump-to-move"), "the jump link is below the first screen"
    box = jump.bounding_box()
    assert box and box["height"] >= 24, box
    page.screenshot(path=str(checker.shots / f"{slug}-first-screen-phone.png"))
    jump.click()
    expect(page).to_have_url(f"{table.url.rstrip('/')}/#moves")
    top = page.evaluate("() => document.querySelector('#moves').getBoundingClientRect().top")
    assert 0 <= top < page.viewport_size["height"] / 2, f"the move form's top after the jump: {top}px"
    page.screenshot(path=str(checker.shots / f"{slug}-after-jump-phone.png"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(table.url)
    expect(page.get_by_role("link", name="Go to your move")).to_be_visible()
    page.screenshot(path=str(checker.shots / f"{slug}-your-move-desktop.png"))


def test_phone_header_is_one_line_and_move_get_and_favicon(player_factory, checker, findings, mailbox, stack):
    players = [player_factory("head", "phone"), player_factory("other", "desktop")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=5)
    page = players[0].page
    header = page.locator(".site-header .nav")
    heights = page.evaluate(
        "() => { const nav = document.querySelector('.site-header .nav');"
        " const mids = [...nav.children].filter(c => c.getClientRects().length)"
        ".map(c => { const r = c.getBoundingClientRect();"
        " return r.top + r.height / 2; });"
        " return {spread: Math.max(...mids) - Math.min(...mids), height: nav.getBoundingClientRect().height,"
        " small: [...nav.querySelectorAll('a, button')].filter(a => a.getClientRects().length)"
        ".filter(a => a.getBoundingClientRect().height < 24).map(a => a.textContent.trim()),"
        " wide: document.documentElement.scrollWidth > window.innerWidth}; }"
    )
    assert heights["spread"] < 8 and heights["height"] < 60, heights  # one line
    assert not heights["small"], f"header tap targets under 24 px: {heights['small']}"
    assert not heights["wide"], "the header widens the page"
    # The rest is behind Menu (issue 19): one tap opens it, every link a big enough target.
    page.get_by_role("link", name="Menu").click()
    menu = page.locator("#nav-more")
    expect(menu).to_be_visible()
    expect(page.locator(".nav-more__toggle")).to_have_attribute("aria-expanded", "true")
    for control in (menu.get_by_role("link", name="Settings"), menu.get_by_role("button", name="Log out")):
        expect(control).to_be_visible()
        assert control.bounding_box()["height"] >= 24
    page.screenshot(path=str(checker.shots / "header-menu-open-phone.png"))
    page.keyboard.press("Escape")
    expect(menu).to_be_hidden()
    names = page.locator(".player-name a")
    for i in range(names.count()):
        assert names.nth(i).bounding_box()["height"] >= 24
    header.screenshot(path=str(checker.shots / "header-phone.png"))
    page.goto(f"{table.url.rstrip('/')}/move/")
    expect(page).to_have_url(table.url)
    expect(page.locator(".player-rows")).to_be_visible()
    response = page.request.get("/favicon.ico")
    assert response.ok and "svg" in response.headers["content-type"]
