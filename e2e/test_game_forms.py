"""Issue 19's forms as players meet them, on a desktop and on a 360×740 phone: settings (the browser's time zone,
"Tokyo" accepted, a failed save leaves the header alone), creating a game (only the chosen game's seat counts and
options, how long it lasts), the waiting room (invitation suggestions as one types, the typed name kept on an error,
pending invitations, the link copied, bots added and removed) and My games and the lobby saying how far a game is
and how long it lasts."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.support import VIEWPORTS, Player, log_in, log_out, logged_in, sign_up, unique_name, watch_console


def _player_in_zone(browser, stack, mailbox, findings, viewport: str, prefix: str, zone: str) -> Player:
    """Sign up and log in from a browser whose clock says ``zone`` (Intl), as a newcomer from there would."""
    username = unique_name(prefix)
    options = {"viewport": VIEWPORTS[viewport], "base_url": stack.base_url, "locale": "en-GB", "timezone_id": zone}
    if viewport == "phone":
        options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
    context = browser.new_context(**options)
    context.set_default_timeout(15_000)
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=stack.base_url)
    page = context.new_page()
    watch_console(page, findings, username)  # names the page; the browser fixture watches it already
    address = f"{username}@e2e.example"
    sign_up(page, mailbox, stack.base_url, username=username, address=address, check=None)
    if logged_in(page):
        log_out(page)
    log_in(page, login=username)
    return Player(username=username, email=address, context=context, page=page, viewport=viewport)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_settings_create_form_and_waiting_room(viewport, browser, stack, mailbox, findings, checker):
    other = "phone" if viewport == "desktop" else "desktop"
    host = _player_in_zone(browser, stack, mailbox, findings, viewport, "host", "Europe/Paris")
    friend = _player_in_zone(browser, stack, mailbox, findings, other, "friend", "Asia/Tokyo")
    try:
        _settings(friend, checker)
        _create_form(host, checker)
        _waiting_room(host, friend, checker)
    finally:
        for player in (host, friend):
            player.context.close()


def _settings(friend: Player, checker) -> None:
    page = friend.page
    # The first pages took the browser's zone (static/js/site.js): stored, pages stop asking, the settings show it.
    field = page.get_by_label("Time zone")
    for _ in range(20):
        page.goto("/settings/")
        if page.evaluate("() => !document.body.hasAttribute('data-tz-detect')"):
            break
        page.wait_for_timeout(500)
    expect(page.locator("body")).not_to_have_attribute("data-tz-detect", re.compile(".*"))
    expect(field).to_have_value("Asia/Tokyo")
    checker.page(page, f"settings ({friend.viewport})", axe=True, axe_key=f"settings-{friend.viewport}")
    checker.shot(page, "settings-browser-zone", friend.username)

    # A failed save keeps what was typed in the form but not in the header.
    page.get_by_label("Display name").fill(f"Ada {friend.username}")
    field.fill("Atlantis")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("is not a time zone we know")).to_be_visible()
    header = page.locator("header.site-header")
    _open_menu(page)
    expect(header.get_by_role("link", name=friend.username, exact=True)).to_be_visible()
    expect(header).not_to_contain_text("Ada ")
    checker.shot(page, "settings-failed-save", friend.username)

    # A city is enough.
    field.fill("Tokyo")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_text("Your settings are saved.")).to_be_visible()
    expect(field).to_have_value("Asia/Tokyo")
    _open_menu(page)
    expect(header.get_by_role("link", name=f"Ada {friend.username}")).to_be_visible()


def _open_menu(page) -> None:
    """On a phone the header folds the account links into its Menu (issue 19): open it to see them."""
    toggle = page.locator("header.site-header").get_by_role("link", name="Menu")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()


def _create_form(host: Player, checker) -> None:
    page = host.page
    page.goto("/games/new/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Create a game")
    seats = page.get_by_label("Number of seats")

    page.locator("label", has=page.locator('input[name="engine_slug"][value="konamon"]')).click()
    expect(seats.locator("option")).to_have_text(["2", "3", "4"])  # Konamon! takes 2 to 4
    expect(page.locator("#game-facts-konamon")).to_contain_text(re.compile(r"2–4 players · ~\d+ rounds"))
    expect(page.locator('fieldset.engine-options[data-engine="mamma-mia"]')).to_be_hidden()
    seats.select_option("3")
    expect(page.locator("#seat-length")).to_have_text(re.compile(r"^A game: ~\d+ rounds, ~\d+ moves each\.$"))
    checker.page(page, f"create form, Konamon! ({host.viewport})", axe=True, axe_key=f"create-k-{host.viewport}")
    checker.shot(page, "create-konamon", host.username)

    page.locator("label", has=page.locator('input[name="engine_slug"][value="mamma-mia"]')).click()
    expect(seats.locator("option")).to_have_text(["2", "3", "4", "5"])
    expect(seats).to_have_value("3")  # the count chosen stays when the new game takes it
    expect(page.locator("#seat-length")).to_have_text("A game: 3 rounds, ~30 moves each.")
    options = page.locator('fieldset.engine-options[data-engine="mamma-mia"]')
    expect(options).to_be_visible()
    expect(options.get_by_label("Memory")).to_be_visible()
    checker.shot(page, "create-mamma-mia", host.username)

    page.get_by_label("Bots").select_option("0")
    page.get_by_text("Private: by invitation or link only").click()
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#waiting-title")).to_be_visible()
    expect(page.locator(".waiting-room")).to_contain_text("A game lasts 3 rounds, ~30 moves each.")


def _waiting_room(host: Player, friend: Player, checker) -> None:
    page = host.page
    game_url = page.url
    box = page.get_by_label("Invite a player by username or display name")

    # A name nobody has: the error says so next to the box, which keeps what was typed. The refusal is a 400,
    # which the browser notes in its console: expected here, and only here.
    with checker.findings.expecting_console(r"status of 400 \(Bad Request\)"):
        box.fill("nobody-at-all")
        page.get_by_role("button", name="Invite", exact=True).click()
        expect(page.locator("#invite-error")).to_have_text("There is no player called “nobody-at-all”.")
        expect(box).to_have_value("nobody-at-all")
        expect(box).to_have_attribute("aria-invalid", "true")
        checker.page(page, f"waiting room, invitation error ({host.viewport})", axe=True,
                     axe_key=f"invite-error-{host.viewport}")

    # Suggestions as one types a part of the display name (htmx fills the box's list).
    page.goto(game_url)
    box.press_sequentially("Ada", delay=60)
    suggestion = page.locator(f'#invite-suggestions option[value="{friend.username}"]')
    expect(suggestion).to_have_count(1)
    expect(suggestion).to_have_text(f"Ada {friend.username} ({friend.username})")
    checker.shot(page, "invite-suggestions", host.username)
    box.fill(f"Ada {friend.username}")  # the display name works as well as the username
    page.get_by_role("button", name="Invite", exact=True).click()
    expect(page.get_by_text(f"Invitation sent to Ada {friend.username}.")).to_be_visible()
    pending = page.locator(".pending-invitations")
    expect(pending).to_contain_text(f"Ada {friend.username}")

    # An invitation link, copied with its button.
    page.get_by_role("button", name="Make a new invitation link").click()
    copy = page.get_by_role("button", name="Copy link").first
    expect(copy).to_be_visible()
    copy.click()
    expect(page.locator(".copy-status").first).to_have_text(re.compile("Link copied|Could not copy"))

    # Bots come and go until the start.
    page.get_by_role("button", name="Add a bot").click()
    expect(page.get_by_role("button", name=re.compile(r"^Remove Bot \d \(normal\)$"))).to_have_count(1)
    page.get_by_role("button", name=re.compile(r"^Remove Bot \d \(normal\)$")).click()
    expect(page.get_by_role("button", name=re.compile(r"^Remove Bot"))).to_have_count(0)
    page.get_by_role("button", name="Add a bot").click()
    expect(page.locator(".waiting-room")).to_contain_text("The bot takes the last seat")
    checker.page(page, f"waiting room ({host.viewport})", axe=True, axe_key=f"waiting-forms-{host.viewport}")
    checker.shot(page, "waiting-room", host.username)

    # The friend accepts from My games: the bot took a seat, so the friend's is the last and the game starts.
    fpage = friend.page
    fpage.goto("/games/")
    invitation = fpage.locator("li.game-item", has=fpage.get_by_text("invites you to play"))
    invitation.get_by_role("button", name="Accept").click()
    expect(fpage.locator(".player-rows")).to_be_visible()
    fpage.goto("/games/")
    expect(fpage.locator(".game-progress").first).to_have_text("round 1 of 3")
    checker.page(fpage, f"my games ({friend.viewport})", axe=True, axe_key=f"my-games-forms-{friend.viewport}")
    checker.shot(fpage, "my-games-progress", friend.username)

    # The lobby says how long an open game lasts.
    page.goto("/games/new/?game=marumiere")
    page.get_by_label("Number of seats").select_option("3")
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#waiting-title")).to_be_visible()
    page.goto("/lobby/?game=marumiere")
    expect(page.locator("li.game-item").first).to_contain_text("3 rounds, ~30 moves each")
    checker.page(page, f"lobby ({host.viewport})", axe=True, axe_key=f"lobby-forms-{host.viewport}")
    checker.shot(page, "lobby-lengths", host.username)
