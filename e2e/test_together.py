"""Playing together (issue 17) in the browser: two players chat and see each other's messages live, one
resigns (the bot takes the seat), and a rematch starts from the end screen."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.tables import start_game


def test_chat_resign_and_rematch(player_factory, checker, findings, mailbox, stack):
    aiko, ben = player_factory("aiko", "desktop"), player_factory("ben", "phone")
    table = start_game([aiko, ben], checker, findings, mailbox, stack.base_url, slug="marumiere", seats=2, seed=3)
    a, b = aiko.page, ben.page

    # Aiko writes; Ben's open page (a phone: log, chat and notes are tabs) shows it without a reload.
    chat = a.locator("#chat")
    a.get_by_label("Your message").fill("Good luck <b>both</b> — rules: https://example.com/rules")
    a.get_by_label("Your message").press("Enter")
    expect(chat.locator(".chat-line")).to_have_count(1)
    expect(a.get_by_label("Your message")).to_have_value("")
    expect(b.get_by_role("tab", name=re.compile("Chat"))).to_contain_text("1 new", timeout=15_000)
    b.get_by_role("tab", name=re.compile("Chat")).click()
    line = b.locator("#chat .chat-line").first
    expect(line).to_contain_text("Good luck <b>both</b>")  # shown as typed, not as markup
    expect(line.get_by_role("link", name="https://example.com/rules")).to_have_attribute("href", "https://example.com/rules")
    expect(b.locator("#log-pane")).to_be_hidden()
    checker.page(b, "table chat (phone)", axe=True, axe_key="chat-phone")
    checker.shot(b, "chat", ben.username)
    b.get_by_label("Your message").fill("Thanks, you too!")
    b.get_by_role("button", name="Send").click()
    expect(a.locator("#chat .chat-line")).to_have_count(2, timeout=15_000)
    expect(a.locator("#chat")).to_contain_text("Thanks, you too!")
    checker.page(a, "table chat (desktop)", axe=True, axe_key="chat-desktop")
    checker.shot(a, "chat", aiko.username)

    # A private note stays with its author.
    b.get_by_role("tab", name="My notes").click()
    b.get_by_label(re.compile("Only you see these notes")).fill("Aiko keeps her blues")
    expect(b.locator("#note-status")).to_contain_text("Saved at", timeout=10_000)
    assert "Aiko keeps her blues" not in a.content()

    # Ben resigns (with a confirmation): the bot takes his seat and Aiko's page says so by itself.
    b.get_by_role("tab", name="Log").click()
    b.get_by_text("Resign…").click()
    b.get_by_label("Yes, I resign from this game.").check()
    b.get_by_role("button", name="Resign", exact=True).click()
    expect(b.locator(".messages")).to_contain_text("You resigned")
    expect(a.locator(".player-rows")).to_contain_text("resigned · bot plays", timeout=15_000)
    expect(a.locator("#log-pane")).to_contain_text(f"{ben.username} resigned")
    checker.shot(a, "resigned", aiko.username)

    # Aiko resigns too: the bots play the game out, and both end screens offer a rematch.
    a.get_by_text("Resign…").click()
    a.get_by_label("Yes, I resign from this game.").check()
    a.get_by_role("button", name="Resign", exact=True).click()
    expect(a.locator("#final-title")).to_be_visible(timeout=60_000)
    expect(b.locator("#final-title")).to_be_visible(timeout=30_000)
    expect(a.locator(".final")).to_contain_text("resigned: counts as last")
    checker.page(a, "end screen with rematch", axe=True, axe_key="end-rematch")

    a.get_by_role("button", name="Rematch", exact=True).click()
    expect(a.locator("#table-actions")).to_contain_text("proposes a rematch")
    # Ben's end screen shows the proposal by itself; he accepts and the rematch starts (seats drawn afresh).
    expect(b.locator("#table-actions")).to_contain_text(f"{aiko.username} proposes a rematch", timeout=15_000)
    checker.shot(b, "rematch-proposed", ben.username)
    b.get_by_role("button", name="Accept the rematch").click()
    expect(b).to_have_url(re.compile(r"/games/(\d+)/$"))
    rematch_id = int(re.search(r"/games/(\d+)/$", b.url).group(1))
    assert rematch_id != table.game_id
    expect(b.locator(".player-rows")).to_be_visible()
    expect(b.locator("#waiting-title")).to_have_count(0)
    expect(a.locator("#table-actions")).to_contain_text("The rematch has started.", timeout=15_000)
    a.get_by_role("link", name="Go to the rematch").click()
    expect(a).to_have_url(re.compile(rf"/games/{rematch_id}/$"))
    expect(a.locator(".player-rows")).to_contain_text(ben.username)
    checker.shot(a, "rematch-started", aiko.username)
