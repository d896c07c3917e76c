"""Issue 35, item 8: the replay on a phone (390×844) and a desktop. On a phone the board starts in the first screen
(the step buttons above it, the jumps to a round, a move or a seat below it); the arrow-key hint shows only where
there is a keyboard and a mouse, not on a touch screen; and the address bar names the step shown, once, after a
tap on Next and after a jump (a jump form without an action added its step to the old address: ``step=4&…&step=5``
with move 5 on screen). Screenshots in e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

from playwright.sync_api import expect

from e2e.tables import fast_forward_to_end, start_game

PHONE_390 = {"width": 390, "height": 844}


def shown_step(page) -> int:
    return int(re.search(r"(\d+) of \d+", page.locator(".replay-where").inner_text()).group(1))


def address_steps(page) -> list[str]:
    return parse_qs(urlparse(page.url).query).get("step", [])


def settled(page) -> None:
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


def test_the_replay_on_a_phone_shows_the_board_first_no_key_hint_and_the_step_in_the_address(
    player_factory, checker, findings, mailbox, stack
):
    players = [player_factory("replayph", "desktop"), player_factory("replayph", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="marumiere", seats=3, bots=1, seed=5)
    fast_forward_to_end(stack, table.game_id, seed=5)
    replay = f"{table.url.rstrip('/')}/replay/"

    desktop, phone = players[0].page, players[1].page
    phone.set_viewport_size(PHONE_390)
    phone.goto(f"{replay}?step=3")
    expect(phone.locator(".replay-where")).to_contain_text("Move 3 of")
    phone.screenshot(path=str(checker.shots / "replay-phone-390-first-screen.png"))
    board_top = phone.locator("#replay-view .table-wrap").evaluate("el => el.getBoundingClientRect().top")
    screen = PHONE_390["height"]
    assert board_top < screen * 0.6, f"the board starts {board_top}px down a {screen}px screen"
    expect(phone.locator("[data-replay-keys]")).to_be_hidden()  # a touch screen has no arrow keys

    for expected in (4, 5, 6):
        phone.get_by_role("link", name="Next").click()
        expect(phone.locator(".replay-where")).to_contain_text(f"Move {expected} of")
        settled(phone)
        assert address_steps(phone) == [str(expected)], phone.url
    phone.get_by_label(re.compile("Go to move")).fill("9")
    phone.locator(".replay-jump", has=phone.get_by_label(re.compile("Go to move"))).get_by_role("button").click()
    expect(phone.locator(".replay-where")).to_contain_text("Move 9 of")
    settled(phone)
    assert address_steps(phone) == ["9"], phone.url
    phone.get_by_label("Go to round").select_option(index=1)
    phone.locator(".replay-jump", has=phone.get_by_label("Go to round")).get_by_role("button").click()
    expect(phone.locator(".replay-where")).to_contain_text("round 2")
    settled(phone)
    assert address_steps(phone) == [str(shown_step(phone))], phone.url
    checker.page(phone, "replay (phone 390)", axe=True, axe_key="replay-phone-390")
    phone.screenshot(path=str(checker.shots / "replay-phone-390-full.png"), full_page=True)

    desktop.goto(f"{replay}?step=3")
    expect(desktop.locator("[data-replay-keys]")).to_be_visible()  # a mouse and a keyboard: the keys are told
    desktop.keyboard.press("ArrowRight")
    expect(desktop.locator(".replay-where")).to_contain_text("Move 4 of")
    settled(desktop)
    assert address_steps(desktop) == ["4"], desktop.url
    desktop.get_by_label(re.compile("Go to move")).fill("7")
    desktop.locator(".replay-jump", has=desktop.get_by_label(re.compile("Go to move"))).get_by_role("button").click()
    expect(desktop.locator(".replay-where")).to_contain_text("Move 7 of")
    settled(desktop)
    assert address_steps(desktop) == ["7"], desktop.url
    checker.axe(desktop, "replay (desktop)", key="replay-desktop-item8")
    desktop.screenshot(path=str(checker.shots / "replay-desktop-first-screen.png"))
    desktop.screenshot(path=str(checker.shots / "replay-desktop-full.png"), full_page=True)
