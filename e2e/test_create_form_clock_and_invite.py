"""Issue 35, items 5 and 6 in the browser, on a 390×844 phone and a desktop: the create form shows only the chosen
time control's fields (CSS alone: each control's fields sit under its radio), the custom bank's hours only once
"Custom" is chosen; Marumiere's variants read in English with their Japanese name as a reading aid; and a friend
invited by username from the form itself finds the invitation in My games and accepts it. Screenshots of each
control in e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

PHONE_390 = {"width": 390, "height": 844}


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_create_form_shows_the_chosen_clocks_fields_and_invites_a_friend(viewport, player_factory, checker):
    host, friend = player_factory("clockhost", viewport), player_factory("clockfriend", "desktop")
    page = host.page
    if viewport == "phone":
        page.set_viewport_size(PHONE_390)
    page.goto("/games/new/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Create a game")
    per_move = page.get_by_label("Time limit per move", exact=True)
    bank = page.get_by_label("Time bank", exact=True)
    custom = page.get_by_label("Bank at the start, in hours")

    expect(page.get_by_role("radio", name="A time limit per move")).to_be_checked()
    expect(per_move).to_be_visible()
    expect(bank).to_be_hidden()
    expect(custom).to_be_hidden()
    page.screenshot(path=str(checker.shots / f"create-per-move-{viewport}.png"), full_page=True)

    page.get_by_role("radio", name=re.compile("^A time bank")).check()
    expect(bank).to_be_visible()
    expect(per_move).to_be_hidden()
    expect(custom).to_be_hidden()
    bank.select_option("custom")
    expect(custom).to_be_visible()
    expect(page.get_by_label("Hours added after each move")).to_be_visible()
    expect(page.get_by_label("Largest bank, in hours")).to_be_visible()
    page.screenshot(path=str(checker.shots / f"create-custom-bank-{viewport}.png"), full_page=True)

    page.get_by_role("radio", name="No time limit").check()
    for field in (per_move, bank, custom):
        expect(field).to_be_hidden()
    page.screenshot(path=str(checker.shots / f"create-no-limit-{viewport}.png"), full_page=True)

    # Marumiere's variants: English names, the game's Japanese terms in brackets (item 6).
    page.locator("label", has=page.locator('input[name="engine_slug"][value="marumiere"]')).click()
    variants = page.locator("fieldset.engine-options[data-engine=marumiere]").get_by_label("Bid cards")
    expect(variants.locator("option")).to_have_text(
        ["Standard: everyone but the bidder", "Nobody sees (誰もミエーズ): no one until the round ends",
         "Only I see (自分だけミエール): only the bidder"]
    )
    page.get_by_role("radio", name="A time limit per move").check()
    page.get_by_label("Invite a friend").fill(friend.username)
    checker.page(page, f"create form ({viewport})", axe=True, axe_key=f"create-item5-{viewport}")
    page.screenshot(path=str(checker.shots / f"create-invite-{viewport}.png"), full_page=True)
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    expect(page.locator(".pending-invitations")).to_contain_text(friend.username)

    friend.page.goto("/games/")
    invitation = friend.page.locator("li.game-item", has=friend.page.get_by_text("invites you to play"))
    expect(invitation).to_contain_text(host.username)
    invitation.get_by_role("button", name="Accept").click()
    expect(friend.page.locator(".player-rows, #waiting-title").first).to_be_visible()
