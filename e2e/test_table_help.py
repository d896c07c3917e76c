"""Issue 27: help on the table. On a 390×844 phone a tap on a card or marker shows its explanation beside it,
not over the move form, and a tap elsewhere hides it; on a desktop a hover and a keyboard focus show it, Escape
and leaving hide it, and it is the card's accessible description; "What can I do now?" opens above the move
form. Each game: Mamma Mia!'s toppings and zones, Konamon!'s customers, Marumiere's backs (what the size
tells). axe finds nothing on the table, the help and the move form with an explanation open; any console or
CSP error fails the test. Screenshots in e2e-artifacts/screens/<test>/."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from e2e.support import axe_violations
from e2e.tables import fast_forward_to_end, seeded_game

PHONE_390 = {"width": 390, "height": 844}
# What the help adds: the explanations, "What can I do now?" and every card that explains itself.
HELP_REGION = ["[data-table-help]", ".what-now", ".has-help"]

# slug, seed, a card or marker to open on each game (CSS), and what its explanation says.
GAMES = [
    ("mamma-mia", 5, ".mm-tablezone [data-help], .mm-kitchen [data-help]", re.compile(r"\w")),
    ("konamon", 5, ".kn-customer__name[data-help], .kn-board__title [data-help]", re.compile(r"\w")),
    ("marumiere", 5, ".mr-row--placed .mr-card[data-help]", re.compile(r"Only a \d has a back|belongs to one of")),
]


def open_help(page: Page):
    return page.locator(".help-pop:popover-open")


def axe_clean(page: Page, where: str) -> None:
    """axe-core over what the help adds (WCAG 2.1 A/AA): no violation at all."""
    found = [f"{v['id']}: {'; '.join(n['target'] for n in v['nodes'])}" for v in axe_violations(page, HELP_REGION)]
    assert found == [], f"{where}: {found}"


def boxes_overlap(a, b) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or a["y"] + a["height"] <= b["y"]
                or b["y"] + b["height"] <= a["y"])


def shot(checker, page: Page, name: str) -> None:
    page.screenshot(path=str(checker.shots / f"{name}.png"))


@pytest.mark.parametrize(("slug", "seed", "selector", "says"), GAMES, ids=[g[0] for g in GAMES])
def test_cards_explain_themselves_on_tap_hover_and_focus(slug, seed, selector, says, player_factory, checker, stack):
    players = [player_factory("hlp", "desktop"), player_factory("hlp", "phone")]
    game_id = seeded_game(stack, slug, seed, 1, players)
    if slug == "marumiere":
        fast_forward_to_end(stack, game_id, phase="bid")  # every row laid out: backs to read
    desktop, phone = players[0].page, players[1].page

    # Desktop: hover shows, leaving hides; focus shows, Escape hides; the card is described by its explanation.
    desktop.goto(f"/games/{game_id}/")
    card = desktop.locator(selector).first
    expect(card).to_have_attribute("role", "button")
    help_id = card.get_attribute("data-help")
    expect(card).to_have_attribute("aria-describedby", re.compile(rf"\b{re.escape(help_id)}\b"))
    explanation = desktop.locator(f"[id=\"{help_id}\"]")
    expect(card).to_have_accessible_description(re.compile(re.escape(explanation.text_content().strip()[:30])))
    card.scroll_into_view_if_needed()
    card.hover()
    expect(explanation).to_be_visible()
    expect(explanation).to_contain_text(says)
    shot(checker, desktop, f"{slug}-hover-desktop")
    desktop.mouse.move(2, 2)
    expect(explanation).to_be_hidden()
    card.focus()
    expect(explanation).to_be_visible()
    axe_clean(desktop, f"{slug} desktop, help open")
    shot(checker, desktop, f"{slug}-focus-desktop")
    desktop.keyboard.press("Escape")
    expect(open_help(desktop)).to_have_count(0)
    # Tab moves on to the next card, whose explanation follows the focus.
    card.focus()
    desktop.keyboard.press("Tab")
    next_has_help = desktop.evaluate(
        "() => document.activeElement.matches('[data-help]') || !!document.activeElement.querySelector('[data-help]')"
    )
    expect(open_help(desktop)).to_have_count(1 if next_has_help else 0)

    # Phone 390×844: a tap shows the explanation beside the card, off the move form; a tap elsewhere hides it.
    phone.set_viewport_size(PHONE_390)
    phone.goto(f"/games/{game_id}/")
    card = phone.locator(selector).first
    card.scroll_into_view_if_needed()
    card.tap()
    explanation = phone.locator(f"[id=\"{card.get_attribute('data-help')}\"]")
    expect(explanation).to_be_visible()
    expect(card).to_have_attribute("aria-expanded", "true")
    box = explanation.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE_390["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE_390["height"], box
    form = phone.locator("#moves")
    if form.count() and form.is_visible():
        form_box = form.bounding_box()
        card_box = card.bounding_box()
        if not boxes_overlap(card_box, form_box):
            assert not boxes_overlap(box, form_box), ("the help covers the move form", box, form_box)
    axe_clean(phone, f"{slug} phone, help open")
    shot(checker, phone, f"{slug}-tap-phone")
    phone.locator("h1").tap()
    expect(open_help(phone)).to_have_count(0)

    # "What can I do now?" beside the move form, for whoever has the move (a bot may move first).
    for _attempt in range(20):
        if desktop.locator(".what-now").count() + phone.locator(".what-now").count():
            break
        desktop.wait_for_timeout(500)
        desktop.reload()
        phone.reload()
    for page, size in ((desktop, "desktop"), (phone, "phone")):
        what_now = page.locator(".what-now")
        if not what_now.count():
            continue
        what_now.locator("summary").click()
        expect(what_now.locator(".what-now__text")).to_be_visible()
        expect(what_now.locator(".what-now__text")).to_have_text(re.compile(r"\w{3,}.*\."))
        what_now.scroll_into_view_if_needed()
        axe_clean(page, f"{slug} {size}, what can I do now")
        shot(checker, page, f"{slug}-what-now-{size}")
    assert desktop.locator(".what-now").count() + phone.locator(".what-now").count() >= 1, "nobody has the move"
    checker.page(desktop, f"{slug} table with help (desktop)", axe=True)
    checker.page(phone, f"{slug} table with help (phone)", axe=True, phone=False)
