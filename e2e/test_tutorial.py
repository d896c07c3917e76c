"""Issue 27: a newcomer with no account learns each game by playing its guided first game, on a 390×844 phone and a
desktop, and ends in a real game against bots.

From the home page (no account, no sign-up) the visitor taps "Learn by playing — 5 minutes"; on the real game page
the step box points at a part of the table (outlined by static/js/tutorial.js); "Next" passes a reading step, and a
move step is made with the page's own move form (the move the box names; one other move is tried first and refused
with the reason). The bots answer by themselves (the real worker). At the end "Play a real game against bots" starts
a game at once. Every step is photographed (e2e-artifacts/screens/<test>/), axe runs on the first and the last
step, and any console or CSP error fails the test.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from e2e.support import E2E_DIR, Checker, watch_console
from e2e.tables import Choice, send_radio_choice

PHONE_390 = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
FOLDERS = {"mamma-mia": "mamma_mia", "konamon": "konamon", "marumiere": "marumiere"}
LOCALES = {"en": "en-GB", "ja": "ja-JP", "zh-hant": "zh-TW", "fr": "fr-FR"}
NEXT = {"en": "Next", "ja": "次へ", "zh-hant": "下一步", "fr": "Suivant"}
PLAY_BOTS = {
    "en": "Play a real game against bots",
    "ja": "ボット相手に本番のゲームを遊ぶ",
    "zh-hant": "和機器人玩一場正式對局",
    "fr": "Jouer une vraie partie contre des robots",
}
LEARN = {
    "en": "Learn by playing — 5 minutes",
    "ja": "遊んで覚える（5分）",
    "zh-hant": "邊玩邊學（5 分鐘）",
    "fr": "Apprendre en jouant — 5 minutes",
}

# Every game on a phone and a desktop in English, and each other language on one of them.
CASES = [
    ("marumiere", "phone", "en"),
    ("marumiere", "desktop", "en"),
    ("konamon", "phone", "en"),
    ("konamon", "desktop", "en"),
    ("mamma-mia", "phone", "en"),
    ("mamma-mia", "desktop", "en"),
    ("marumiere", "phone", "ja"),
    ("konamon", "desktop", "zh-hant"),
    ("mamma-mia", "phone", "fr"),
]

BOX_READY = """() => {
  const box = document.getElementById('tutorial');
  if (!box || document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')) return false;
  if (box.querySelector('.tutorial-box__next button')) return true;
  return !!box.querySelector('.tutorial-box__hint strong') && !!document.querySelector('#moves form');
}"""


def script_of(slug: str) -> dict:
    return json.loads((E2E_DIR.parent / FOLDERS[slug] / "tutorial.json").read_text(encoding="utf-8"))


def choice_for(page, move: dict) -> Choice:
    """The asked move as the page offers it: its one-tap button, or the turn form's radios (Mamma Mia!)."""
    values = page.locator("#moves button[name=move]").evaluate_all("els => els.map(e => e.value)")
    for index, value in enumerate(values):
        try:
            if json.loads(value) == move:
                return Choice(button=index)
        except ValueError:
            continue
    assert move.get("type") == "turn", f"the page offers no button for {move}"
    play = f"{move['topping']}:{move['count']}" if move["topping"] else "pass"
    return Choice(radios={"play": play, "recipe": move["recipe"] or "", "draw": move["draw"]})


def another_choice(page, move: dict) -> Choice | None:
    """A move the page offers other than ``move`` (for the refusal), if the form is buttons."""
    values = page.locator("#moves button[name=move]").evaluate_all("els => els.map(e => e.value)")
    for index, value in enumerate(values):
        try:
            if json.loads(value) != move:
                return Choice(button=index)
        except ValueError:
            continue
    return None


def send(page, choice: Choice) -> None:
    """The move as a player makes it, in any language: a one-tap button (on a phone, then Send in the
    "Send this move?" bar), or the turn form's radios and its submit button."""
    if choice.button is not None:
        button = page.locator("#moves button[name=move]").nth(choice.button)
        page.evaluate("window.__tutorialBefore = true")
        button.click()
        page.wait_for_function("() => !window.__tutorialBefore || !!document.querySelector('.confirm-bar')")
        if page.locator(".confirm-bar").count():
            with page.expect_navigation():
                page.locator(".confirm-bar [data-confirm-send]").click()
        page.wait_for_load_state()
        return
    send_radio_choice(page, choice)


def step_number(page) -> int | None:
    match = re.search(r"(\d+)\D+(\d+)", page.locator("#tutorial-title").inner_text())
    return int(match.group(1)) if match else None


@pytest.mark.parametrize(("slug", "viewport", "language"), CASES)
def test_a_newcomer_without_an_account_learns_the_game_by_playing_it_to_the_end(
    browser, stack, findings, artifacts, request, slug, viewport, language
):
    script = script_of(slug)
    folder = request.node.name.replace("[", "-").replace("]", "")
    checker = Checker(findings, artifacts, folder)
    size = PHONE_390 if viewport == "phone" else DESKTOP
    options = {"viewport": size, "base_url": stack.base_url, "locale": LOCALES[language], "timezone_id": "UTC"}
    if viewport == "phone":
        options.update(is_mobile=True, has_touch=True, device_scale_factor=2)
    context = browser.new_context(**options)
    context.set_default_timeout(20_000)
    page = context.new_page()
    watch_console(page, findings, f"newcomer-{viewport}-{language}")
    try:
        page.goto("/")
        tile = page.locator(".game-tile").filter(has=page.locator(f"form[action='/learn/{slug}/']"))
        with page.expect_navigation():
            tile.get_by_role("button", name=LEARN[language]).click()
        assert re.search(r"/games/\d+/$", page.url), page.url
        tutorial_url = page.url
        refused = False
        seen: list[int] = []
        for _ in range(80):
            page.wait_for_function(BOX_READY, timeout=30_000)
            number = step_number(page)
            point = page.locator("#tutorial").get_attribute("data-tutorial-point")
            if number is not None:
                seen.append(number)
                # The step points at a part of the table that is there, outlined.
                expect(page.locator(point).first).to_have_class(re.compile(r"\btutorial-point\b"))
            shot = checker.shots / f"{len(seen):02d}-step-{number or 'end'}.png"
            page.screenshot(path=str(shot), full_page=viewport == "desktop")
            if len(seen) == 1:
                checker.page(
                    page,
                    "tutorial, first step",
                    axe=True,
                    axe_key=f"tutorial-{slug}-{viewport}-first",
                    phone=viewport == "phone",
                )
            box = page.locator("#tutorial")
            if number is None:  # the lesson is complete
                checker.page(
                    page,
                    "tutorial, end",
                    axe=True,
                    axe_key=f"tutorial-{slug}-{viewport}-end",
                    phone=viewport == "phone",
                )
                with page.expect_navigation():
                    box.get_by_role("button", name=PLAY_BOTS[language]).click()
                break
            step = script["steps"][number - 1]
            next_button = box.get_by_role("button", name=NEXT[language])
            if next_button.count():
                with page.expect_navigation():
                    next_button.click()
                continue
            asked = script["moves"][step["move"]][1]
            if not refused and (other := another_choice(page, asked)) is not None:
                with findings.expecting_console("status of 400"):
                    send(page, other)
                    expect(page.locator(".game-error")).to_be_visible()
                page.screenshot(path=str(checker.shots / f"{len(seen):02d}-refused.png"))
                refused = True
                page.goto(tutorial_url)
                continue
            # A bot that moves while the page is being swapped can leave the form a version behind: the site then
            # answers 409 "still play it?" (issue 32) and the loop plays the move again from that page.
            with findings.expecting_console("status of 409"):
                send(page, choice_for(page, asked))
        else:
            pytest.fail("the lesson never ended")
        assert sorted(set(seen)) == list(range(1, len(script["steps"]) + 1)), f"steps seen: {seen}"
        assert page.url != tutorial_url and re.search(r"/games/\d+/$", page.url)
        expect(page.locator(".players, .seats").first).to_be_visible()
        expect(page.locator("#tutorial")).to_have_count(0)  # a real game: no lesson box
        page.screenshot(path=str(checker.shots / "99-real-game-against-bots.png"))
    finally:
        context.close()
