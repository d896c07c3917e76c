"""Issue 31: each game played from start to end with the keyboard alone, by two people (one on a phone, one at a
desktop) whose pages stay open: no mouse, no clicks, no reloads once the table is set.

Every move is found the way a keyboard or screen reader player finds it: Alt+Shift+K to the command box, the
command ``m`` to the move form, Tab to the card or choice, Space and the arrow keys to choose, Enter to send (and
Enter on the focused Send of "Send this move?"). After the other player moved, the page left open has read out,
through its polite live region, what happened and that it is your move, once, never the whole table; axe runs
on pages after live updates. The commands (turn, last events, hand, table) answer from what the page shows.
Reduced motion and 200 % zoom are checked on the way. The table is set up through the lobby as the other browser
tests do (tables.start_game): what is tested here is the play.
"""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from e2e.support import Player
from e2e.tables import (
    ASKS_JS,
    SENT_OR_ASKED_JS,
    TARGET,
    WATCH_SEND_JS,
    Choice,
    awaited_usernames,
    finished,
    offer,
    start_game,
)
from e2e.test_konamon import konamon_policy
from e2e.test_mamma_mia import mamma_mia_policy
from e2e.test_marumiere import marumiere_policy

POLICIES = {"marumiere": marumiere_policy, "mamma-mia": mamma_mia_policy, "konamon": konamon_policy}
MAX_MOVES = 600
FOCUS_IN_MOVES = "() => !!document.activeElement && !!document.activeElement.closest('#moves')"


def tab_until(page: Page, test_js: str, limit: int = 60) -> bool:
    """Tab (from where the focus is) until ``test_js`` holds; it may hold already."""
    for _ in range(limit + 1):
        if page.evaluate(test_js):
            return True
        page.keyboard.press("Tab")
    return False


def command(page: Page, text: str) -> str:
    """Type a command into the command box, reached with Alt+Shift+K; what it read out."""
    page.keyboard.press("Alt+Shift+K")
    expect(page.locator("#command-input")).to_be_focused()
    page.keyboard.type(text)
    page.keyboard.press("Enter")
    if text.strip() == "m":
        return ""
    output = page.locator("#command-output")
    expect(output).not_to_be_empty()
    return output.inner_text()


def send(page: Page, key: str) -> None:
    """Press ``key`` on the focused move control; confirm with the focused Send when the page asks."""
    page.evaluate(WATCH_SEND_JS)
    asks = page.locator(f"[{TARGET}]").evaluate(ASKS_JS)
    page.keyboard.press(key)
    page.wait_for_function(SENT_OR_ASKED_JS)
    if asks and page.locator(".confirm-bar").count():
        send_button = page.locator(".confirm-bar").get_by_role("button", name="Send")
        expect(send_button).to_be_focused()
        page.keyboard.press("Enter")
        page.wait_for_function(SENT_OR_ASKED_JS)  # the bar's Send submits the form: the new page
    page.wait_for_load_state()


def mark(page: Page, selector: str, index: int = 0) -> None:
    page.evaluate(
        "([sel, i, attr]) => { document.querySelectorAll('[' + attr + ']').forEach(e => e.removeAttribute(attr));"
        " document.querySelectorAll(sel)[i].setAttribute(attr, '1'); }",
        [selector, index, TARGET],
    )


def keyboard_move(page: Page, kind: dict, choice: Choice, moves: int) -> None:
    """One move with the keyboard alone, starting from the command box."""
    command(page, "m")
    page.wait_for_function(FOCUS_IN_MOVES)
    focused = f"() => !!document.activeElement && document.activeElement.hasAttribute('{TARGET}')"
    if choice.button is not None:
        mark(page, "#moves button[name=move]", choice.button)
        assert tab_until(page, focused, limit=120), f"move button {choice.button} cannot be reached with Tab"
        send(page, "Enter" if moves % 2 == 0 else "Space")
        return
    for name, value in choice.radios.items():
        group = f"#moves input[type=radio][name='{name}']"
        assert tab_until(page, f'() => !!document.activeElement && document.activeElement.matches("{group}")'), name
        if not page.evaluate("() => document.activeElement.checked"):
            page.keyboard.press("Space")
        for _ in range(len(kind["groups"][name])):
            if page.evaluate("() => document.activeElement.value") == value:
                break
            page.keyboard.press("ArrowRight")
        assert page.evaluate("() => document.activeElement.value") == value, (name, value)
        assert page.evaluate("() => document.activeElement.checked"), (name, value)
    mark(page, "#moves button[type=submit]:not([name])")
    assert tab_until(page, focused), "the submit button cannot be reached with Tab"
    send(page, "Enter")


def what_the_page_shows(page: Page, checker) -> str:
    """For a failure message: where the page is and what its table says (and a screenshot)."""
    shot = checker.shot(page, "nobody-awaited", "keyboard")
    shows = page.evaluate(
        "() => ({url: location.href, live: document.documentElement.dataset.live || '',"
        " rows: document.querySelectorAll('.player-row').length,"
        " status: (document.querySelector('.turn-status') || document.body).innerText.slice(0, 300)})"
    )
    return f"{shows} (screenshot {shot.name})"


def announced(page: Page) -> str:
    return page.locator("#announcer").inner_text()


def check_commands(page: Page, slug: str) -> None:
    """The commands read out the turn, the last events, the hand and the table, as the page shows them."""
    turn = command(page, "t")
    assert "your move" in turn.lower(), turn
    status = page.locator(".turn-status").inner_text()
    assert turn.split(".")[0] in status, (turn, status)
    events = command(page, "l 2")
    last = page.locator("#log-pane .log-line .log-text").last.inner_text()
    assert last in events, (last, events)
    hand = command(page, "h")
    assert re.match(r"Your (row|hand)|You have no row yet", hand), hand
    table = command(page, "b")
    expected = {"marumiere": r"^Round \d+ of \d+: ", "mamma-mia": r"^Oven: ", "konamon": r"^Kitchen stock: "}
    assert re.search(expected[slug], table), table
    assert "Unknown command" in command(page, "zz")


def check_zoom_and_motion(page: Page, checker) -> None:
    """A desktop at 200 % zoom is a 640 px wide window: nothing scrolls sideways; reduced motion moves nothing."""
    before = page.viewport_size
    page.set_viewport_size({"width": 640, "height": 400})
    width = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
    assert width[0] <= width[1], f"at 200 % zoom the page is {width[0]}px wide in {width[1]}px"
    checker.shot(page, "zoom-200", "desktop")
    page.set_viewport_size(before)
    page.emulate_media(reduced_motion="reduce")
    moving = page.evaluate(
        "() => [...document.querySelectorAll('#live *')].filter(e => { const s = getComputedStyle(e);"
        " return parseFloat(s.transitionDuration) > 0.001 || parseFloat(s.animationDuration) > 0.001; }).length"
    )
    assert moving == 0, f"{moving} elements still move with reduced motion"
    page.emulate_media(reduced_motion="no-preference")


@pytest.mark.parametrize("slug", ["marumiere", "mamma-mia", "konamon"])
def test_a_whole_game_by_keyboard_alone_with_the_news_read_out(slug, player_factory, checker, findings, mailbox, stack):
    players = [player_factory("kb", "desktop"), player_factory("sr", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug=slug, seats=2, seed=31)
    rng = random.Random(31)
    for player in players:
        expect(player.page.locator("#commands")).to_be_visible()
    # A chat message from one is read out on the other's open page, once.
    writer, reader = players
    writer.page.locator("#chat-text").focus()
    writer.page.keyboard.type("Good luck, have fun!")
    writer.page.keyboard.press("Enter")
    expect(reader.page.locator("#announcer")).to_contain_text(
        re.compile(rf"Chat, {writer.username}: Good luck, have fun!"), timeout=15_000
    )
    by_name = {p.username: p for p in players}
    announcements: list[tuple[str, str]] = []
    commands_checked: set[str] = set()
    moves = 0
    fresh = players[0].page  # a page loaded (or swapped) after the last move: it knows whom the game awaits
    last_mover: Player | None = None
    while moves < MAX_MOVES:
        if finished(fresh):
            break
        awaited = [by_name[u] for u in awaited_usernames(fresh) if u in by_name]
        assert awaited, f"{slug}: nobody awaited after {moves} moves: {what_the_page_shows(fresh, checker)}"
        # The one to move next: the other player first (its page, left open, must show the move by itself).
        mover = next((p for p in awaited if p is not last_mover), awaited[0])
        page = mover.page
        expect(page.locator("#moves")).to_be_visible(timeout=20_000)
        kind = offer(page)
        assert kind is not None
        if last_mover is not None and mover is not last_mover and page.evaluate("() => window.__e2eOpen === true"):
            # Updated in place after the other player's move: the polite region said what happened, once.
            region = page.locator("#announcer")
            expect(region).to_contain_text("It is your move.", timeout=5_000)
            news = region.inner_text()
            assert len(news) < 1500, f"the whole table was read out: {news[:300]}…"
            assert news.count("It is your move.") == 1, news
            announcements.append((mover.viewport, news))
            checker.page(
                page,
                f"{slug} after a live update ({mover.viewport})",
                axe=True,
                axe_key=f"{slug}-live-{mover.viewport}",
            )
        if mover.viewport not in commands_checked:
            check_commands(page, slug)
            commands_checked.add(mover.viewport)
            if mover.viewport == "desktop":
                check_zoom_and_motion(page, checker)
        choice = POLICIES[slug](kind, rng, table)
        keyboard_move(page, kind, choice, moves)
        moves += 1
        table.moves = moves
        error = page.locator(".game-error")
        assert not error.count(), error.all_inner_texts()
        # A mark that lasts while this page stays open (live updates), gone when it loads again.
        page.evaluate("() => { window.__e2eOpen = true; }")
        fresh, last_mover = page, mover
    else:
        raise AssertionError(f"the game did not end within {MAX_MOVES} moves")
    for player in players:
        expect(player.page.locator("#final-title")).to_be_visible(timeout=15_000)
        checker.page(player.page, f"{slug} end ({player.viewport})", axe=True, axe_key=f"{slug}-end-{player.viewport}")
    # axe finds nothing, not even the notes other tests let pass (a scrollable region out of the keyboard's reach).
    noted = [f"{f.kind} {f.where}: {f.detail}" for f in findings.items if f.test == findings.test and "axe" in f.kind]
    assert not noted, noted
    viewports = {viewport for viewport, _news in announcements}
    assert viewports == {"desktop", "phone"}, f"no news read out on { ({'desktop', 'phone'} - viewports) }"
    assert len(announcements) >= 3, announcements
    print(f"{slug}: {moves} moves by keyboard, {len(announcements)} turns announced; e.g. {announcements[0][1]!r}")


def test_the_keyboard_help_page_in_four_languages(contexts, checker):
    _context, page = contexts("desktop", "reader")
    for language, title in (
        ("en", "Playing by keyboard"),
        ("ja", "キーボード"),
        ("zh-hant", "鍵盤"),
        ("fr", "clavier"),
    ):
        page.goto("/")
        page.locator("#lang-select").select_option(language)
        page.locator("form.lang button").press("Enter")
        page.goto("/help/keyboard/")
        expect(page.get_by_role("heading", level=1)).to_contain_text(title)
        expect(page.locator("kbd").first).to_be_visible()
        checker.page(page, f"keyboard help ({language})", axe=True)
