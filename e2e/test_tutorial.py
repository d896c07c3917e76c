"""Issue 27: a newcomer with no account learns each game by playing its guided first game, on a 390×844 phone and a
desktop, and ends in a real game against bots.

From the home page (no account, no sign-up) the visitor taps "Learn by playing — 5 minutes"; on the real game page
the step box points at a part of the table (outlined by static/js/tutorial.js); "Next" passes a reading step, and a
move step is made with the page's own move form (the move the box names; one other move is tried first and refused
with the reason). The bots answer by themselves (the real worker). At the end "Play a real game against bots" starts
a game at once. Every step is photographed (e2e-artifacts/screens/<test>/); its text is the script's own in the
visitor's language (no English fallback); on the phone the part of the table it names is on screen under the box;
axe runs on the first step, on each kind of move form and at the end, and *any* violation fails (label in name
included, not only the rules support.AXE_FATAL_RULES makes fatal elsewhere); any console or CSP error fails.

Every game in every language on a phone and a desktop is 24 cases: ``make e2e-tutorials`` runs them all
(``E2E_TUTORIALS=all``); ``make e2e`` runs six of them (each game on both, each language at least once).
"""

from __future__ import annotations

import json
import os
import re

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from e2e.support import E2E_DIR, Checker, axe_violations, watch_console
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

# Each game on a phone and a desktop, each language at least once: what ``make e2e`` runs.
REPRESENTATIVE = {
    ("marumiere", "phone", "ja"),
    ("marumiere", "desktop", "en"),
    ("konamon", "phone", "fr"),
    ("konamon", "desktop", "zh-hant"),
    ("mamma-mia", "phone", "en"),
    ("mamma-mia", "desktop", "ja"),
}
# Every game in every language on both (``make e2e-tutorials``: E2E_TUTORIALS=all).
ALL_CASES = [(slug, size, language) for slug in FOLDERS for language in LOCALES for size in ("phone", "desktop")]
CASES = [case for case in ALL_CASES if os.environ.get("E2E_TUTORIALS") == "all" or case in REPRESENTATIVE]

BOX_READY = """() => {
  const box = document.getElementById('tutorial');
  if (!box || document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')) return false;
  if (box.querySelector('.tutorial-box__next button')) return true;
  return !!box.querySelector('.tutorial-box__hint strong') && !!document.querySelector('#moves form');
}"""


# On the phone, the part of the table the step names is on screen, its top under the (sticky) box.
POINT_IN_SIGHT = """(selector) => {
  const target = document.querySelector(selector), box = document.getElementById('tutorial');
  if (!target || !box) return false;
  const rect = target.getBoundingClientRect();
  return rect.top >= box.getBoundingClientRect().bottom - 1 && rect.top < window.innerHeight - 40;
}"""


WHERE = """(selector) => {
  const rect = document.querySelector(selector).getBoundingClientRect();
  const box = document.getElementById('tutorial').getBoundingClientRect();
  return {top: rect.top, height: rect.height, boxTop: box.top, boxBottom: box.bottom, scrollY: window.scrollY,
          innerHeight: window.innerHeight, page: document.documentElement.scrollHeight};
}"""


def words(text: str) -> str:
    return " ".join(text.split())


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
        assert page.locator("html").get_attribute("lang").lower().startswith(language.split("-")[0])
        refused = False
        seen: list[int] = []
        shots = 0
        axed: set[str] = set()
        for _ in range(80):
            page.wait_for_function(BOX_READY, timeout=30_000)
            number = step_number(page)
            box = page.locator("#tutorial")
            point = box.get_attribute("data-tutorial-point")
            step = script["steps"][number - 1] if number is not None else None
            # The step's own text in the visitor's language, not an English fallback.
            wanted = (step["text"] if step else script["end"])[language]
            assert words(box.locator(".tutorial-box__text").inner_text()) == words(wanted), (number, language)
            if number is not None:
                seen.append(number)
                # The step points at a part of the table that is there, outlined, and on a phone in sight.
                for part in page.locator(point).all():  # every part it names
                    expect(part).to_have_class(re.compile(r"\btutorial-point\b"))
                if viewport == "phone":
                    try:
                        page.wait_for_function(POINT_IN_SIGHT, arg=point, timeout=5_000)
                    except PlaywrightTimeout:
                        page.screenshot(path=str(checker.shots / f"step-{number}-out-of-sight.png"))
                        pytest.fail(f"step {number}: {point} out of sight: {page.evaluate(WHERE, point)}")
            shots += 1
            shot = checker.shots / f"{shots:02d}-step-{number or 'end'}.png"
            page.screenshot(path=str(shot), full_page=viewport == "desktop")
            # Axe on the first step, on each kind of move form the lesson shows, and at the end: any violation fails.
            form = page.locator("#moves .mv__title").first
            kind = "end" if number is None else form.inner_text() if form.count() else "first" if not axed else ""
            if kind and kind not in axed:
                axed.add(kind)
                where = f"tutorial, step {number or 'end'}"
                checker.page(page, where, phone=viewport == "phone")
                for violation in axe_violations(page):
                    nodes = "; ".join(n["target"] for n in violation["nodes"])
                    findings.add(f"axe {violation['id']}", where, f"{violation['help']}: {nodes}", fatal=True)
            if number is None:  # the lesson is complete
                with page.expect_navigation():
                    box.get_by_role("button", name=PLAY_BOTS[language]).click()
                break
            next_button = box.get_by_role("button", name=NEXT[language])
            if next_button.count():
                with page.expect_navigation():
                    next_button.click()
                continue
            asked = script["moves"][step["move"]][1]
            if not refused and (other := another_choice(page, asked)) is not None:
                with findings.expecting_console("status of 400"):
                    send(page, other)
                    expect(page.locator(".game-error")).to_be_in_viewport()  # the reason is read, also on a phone
                shots += 1
                page.screenshot(path=str(checker.shots / f"{shots:02d}-refused.png"))
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
