"""Issue 19, point 2: confirm one-tap moves. On a phone (a touch screen: the default "auto"), a tapped
Konamon! card is only picked: a bar asks "Send this move?" (Send / Choose again) and nothing is sent before
the second tap; with a mouse the click sends at once, unless the player chose "Always" in the settings.
Without JavaScript the server asks on a page of its own. Screenshots (light and dark, phone and desktop)
in e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.support import PHONE
from e2e.tables import mark_page, same_page, start_game

IPHONE_UA = (
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) "
    "Version/17.5 Mobile/15E148 Safari/604.1"
)


def chosen(page) -> int:
    return page.locator(".seat__chosen.is-done").count()


def test_a_tap_on_a_phone_asks_first_and_a_mouse_click_sends(player_factory, checker, findings, mailbox, stack):
    phone, desktop = player_factory("tap", "phone"), player_factory("click", "desktop")
    table = start_game([desktop, phone], checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=5)
    page = phone.page
    page.goto(table.url)
    mark_page(page)
    card = page.locator("#moves button[name=move]").first
    card.click()
    bar = page.locator(".confirm-bar")
    expect(bar).to_be_visible()
    expect(card).to_have_attribute("aria-pressed", "true")
    expect(bar).to_contain_text("Send this move?")
    expect(bar.locator("[data-confirm-label]")).to_have_text(re.compile(r"\S"))
    expect(bar.get_by_role("button", name="Send")).to_be_focused()
    box = bar.bounding_box()
    assert box and box["y"] + box["height"] <= PHONE["height"] + 1, f"the bar is off the screen: {box}"
    assert chosen(page) == 0 and same_page(page), "a tap sent the move"
    page.screenshot(path=str(checker.shots / "confirm-bar-phone-light.png"))
    checker.axe(page, "confirm bar (phone)", key="confirm-bar-phone")
    # Choose again: nothing sent, the bar is gone, the page is the same.
    bar.get_by_role("button", name="Choose again").click()
    expect(bar).to_have_count(0)
    expect(card).not_to_have_attribute("aria-pressed", "true")
    assert same_page(page)
    # In the dark, then sent for real.
    page.emulate_media(color_scheme="dark")
    page.locator("#moves button[name=move]").last.click()
    expect(bar).to_be_visible()
    page.screenshot(path=str(checker.shots / "confirm-bar-phone-dark.png"))
    checker.axe(page, "confirm bar (phone, dark)", key="confirm-bar-phone-dark")
    with page.expect_navigation():
        bar.get_by_role("button", name="Send").click()
    expect(page.locator(".seat__chosen.is-done")).to_have_count(1)
    page.emulate_media(color_scheme="light")

    # With a mouse, the default sends at once...
    d = desktop.page
    d.goto(table.url)
    settings_link = d.get_by_role("navigation", name="Main").get_by_role("link", name="Settings")
    expect(d.locator("#moves button[name=move]").first).to_be_visible()
    # ...unless the player asks for it always.
    settings_link.click()
    d.locator("#confirm-moves").get_by_label("Always").check()
    d.locator("#confirm-moves").get_by_role("button", name="Save").click()
    expect(d.locator(".messages")).to_contain_text("Your settings are saved")
    expect(d.locator("#confirm-moves").get_by_label("Always")).to_be_checked()
    d.goto(table.url)
    d.locator("#moves button[name=move]").first.click()
    expect(d.locator(".confirm-bar")).to_be_visible()
    d.screenshot(path=str(checker.shots / "confirm-bar-desktop-light.png"))
    d.emulate_media(color_scheme="dark")
    d.screenshot(path=str(checker.shots / "confirm-bar-desktop-dark.png"))
    d.emulate_media(color_scheme="light")
    with d.expect_navigation():
        d.locator(".confirm-bar").get_by_role("button", name="Send").click()
    # Both chose: the cards are revealed and carried out.
    expect(d.locator("#log-pane")).to_contain_text("plays")


def test_a_click_with_a_mouse_sends_at_once_by_default(player_factory, checker, findings, mailbox, stack):
    players = [player_factory("mouse", "desktop"), player_factory("other", "desktop")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=5)
    page = players[0].page
    page.goto(table.url)
    with page.expect_navigation():
        page.locator("#moves button[name=move]").first.click()
    expect(page.locator(".seat__chosen.is-done")).to_have_count(1)


def test_without_javascript_a_phone_is_asked_on_a_page(browser, player_factory, checker, findings, mailbox, stack):
    players = [player_factory("nojs", "phone"), player_factory("other", "desktop")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=5)
    context = browser.new_context(
        viewport=PHONE, base_url=stack.base_url, java_script_enabled=False, user_agent=IPHONE_UA,
        locale="en-GB", timezone_id="UTC", device_scale_factor=2,
        # What a phone's Chromium says of itself (desktop Chromium, emulating, would send ?0).
        extra_http_headers={"Sec-CH-UA-Mobile": "?1"},
    )
    try:
        context.add_cookies(players[0].context.cookies())
        page = context.new_page()
        page.goto(table.url)
        page.locator("#moves button[name=move]").first.click()
        expect(page.get_by_role("heading", name="Send this move?")).to_be_visible()
        expect(page.locator(".confirm-move__what")).to_contain_text("Your choice:")
        page.screenshot(path=str(checker.shots / "confirm-page-no-js-phone-light.png"), full_page=True)
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=str(checker.shots / "confirm-page-no-js-phone-dark.png"), full_page=True)
        # Choose again goes back to the form; the second time, Send plays it.
        page.get_by_role("link", name="Choose again").click()
        expect(page).to_have_url(re.compile(r"/games/\d+/#moves$"))
        expect(page.locator(".seat__chosen.is-done")).to_have_count(0)
        page.locator("#moves button[name=move]").first.click()
        page.get_by_role("button", name="Send").click()
        expect(page).to_have_url(table.url)
        expect(page.locator(".seat__chosen.is-done")).to_have_count(1)
    finally:
        context.close()
