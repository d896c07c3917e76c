"""A visitor signs up, verifies the address from the e-mail, logs in and switches to 日本語."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.support import PASSWORD, log_in, log_out, logged_in, open_menu, sign_up, unique_name


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_sign_up_verify_log_in_and_read_japanese(viewport, contexts, stack, mailbox, checker):
    context, page = contexts(viewport, "visitor")
    username = unique_name("visitor")
    address = f"{username}@e2e.example"

    page.goto("/")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    checker.page(page, f"{viewport} home (visitor)", axe=True)
    checker.shot(page, "home", "visitor")

    def check(step: str) -> None:
        checker.page(page, f"{viewport} {step}", axe=True)
        checker.shot(page, step, "visitor")

    sign_up(page, mailbox, stack.base_url, username=username, address=address, check=check)

    # The verification mail went through the real worker-less allauth path and the SMTP catcher.
    confirm_mail = mailbox.to(address, "Confirm")[-1]
    assert "mammamia" in confirm_mail.subject
    assert username in confirm_mail.text or "mammamia" in confirm_mail.text

    # Verified: the address is confirmed; whether or not that logged us in, log in by the form.
    if logged_in(page):
        log_out(page)
    # Logging in with a wrong password is refused politely.
    page.goto("/accounts/login/")
    page.get_by_label(re.compile("Username or email|Login", re.I)).fill(username)
    page.get_by_label("Password").fill(PASSWORD + "-wrong")
    page.get_by_role("button", name=re.compile("Sign in|Log in", re.I)).click()
    assert not logged_in(page)
    checker.page(page, f"{viewport} login with an error", axe=True)

    log_in(page, login=address)  # by e-mail address this time
    open_menu(page)
    expect(page.get_by_role("link", name=username)).to_be_visible()
    checker.page(page, f"{viewport} home (logged in)", axe=True)

    # Switch to 日本語 with the language menu in the header.
    open_menu(page)
    page.get_by_label("Language").select_option("ja")
    page.get_by_role("button", name="Go").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    nav = page.get_by_role("navigation").first
    expect(nav.get_by_role("link", name="マイゲーム")).to_be_visible()
    expect(nav.get_by_role("link", name="ロビー")).to_be_visible()
    open_menu(page)
    expect(page.get_by_role("button", name="ログアウト")).to_be_visible()
    checker.page(page, f"{viewport} home in Japanese", axe=True)
    checker.shot(page, "home-ja", "visitor")

    # The choice sticks to the account: other pages, and a new session, speak Japanese.
    page.get_by_role("link", name="設定").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("設定")
    checker.page(page, f"{viewport} settings in Japanese", axe=True)
    checker.shot(page, "settings-ja", "visitor")
    log_out(page)

    fresh, fresh_page = contexts(viewport, "visitor-again")
    log_in(fresh_page, login=username)
    expect(fresh_page.locator("html")).to_have_attribute("lang", "ja")
    open_menu(fresh_page)
    expect(fresh_page.get_by_role("button", name="ログアウト")).to_be_visible()
