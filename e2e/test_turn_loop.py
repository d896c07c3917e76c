"""Issue 32: the turn in one gesture. For each game, two people (one on a 390×844 phone, one on a desktop)
created and joined through the pages; the game is moved on from the server (``TURN_SCRIPT``: the service the
move form posts to) while a player's page stays as it was loaded (its live updates held back, as a phone's
frozen tab), so that between loading the page and posting:

- another seat moves and the player's choices stay the same (Konamon!'s simultaneous choice): applied;
- the player's choices changed but the chosen move is still legal: one line "… played since you chose —
  still play Y?", one tap plays it;
- the chosen move is no longer legal: the answer lands at the move form (on the phone too, not the top),
  says why in one line, shows what changed (the since-your-last-visit summary) and keeps the choice where
  the new form still offers it.

Then a fresh visit after the other player moved opens on "Since your last visit". Taps and scroll distance
from opening the turn link to "move sent" are measured on the phone (``Meter``) and written to
e2e-artifacts/turn-loop-figures.json; screenshots in e2e-artifacts/screens/<test>/.
"""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from e2e.tables import ASKS_JS, start_game

PHONE_390 = {"width": 390, "height": 844}

TURN_SCRIPT = """
import json, random, sys
import django
django.setup()
from games.models import Game, Seat, SeatView
from games.play import services
game_id, username, mode, seed = int(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4])
old = json.loads(sys.argv[5]) if len(sys.argv) > 5 else []
rng = random.Random(seed)
game = Game.objects.get(pk=game_id)
start, others_moved = game.version, False
for _ in range(4000):
    game.refresh_from_db()
    if game.status != "active":
        break
    seats = list(Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").order_by("number"))
    mine = next((s for s in seats if s.user.username == username), None)
    others = [s for s in seats if s.user.username != username]
    legal = SeatView.objects.get(game=game, seat_number=mine.number).legal_moves if mine else []
    steps = [m for m in legal if m.get("type") in ("prep", "bake", "hand_over")]
    if mine and (mode == "await" or (mode == "steps" and steps)):
        print(json.dumps({"version": game.version, "legal": legal}))
        sys.exit(0)
    if mine and mode in ("still", "gone") and others_moved:
        found = [m for m in old if (m in legal) == (mode == "still")]
        if found:
            print(json.dumps({"found": found[0], "version": game.version}))
            sys.exit(0)
    if mode == "other" and mine and others:
        other = others[0]
        view = SeatView.objects.get(game=game, seat_number=other.number)
        services.check_play_move(user=other.user, game_id=game.pk, move=view.legal_moves[0],
                                 expected_version=game.version)
        print(json.dumps({"same": SeatView.objects.get(game=game, seat_number=mine.number).legal_moves == legal}))
        sys.exit(0)
    if mode == "steps" and mine and not steps:
        mover = mine  # not a card's steps yet: the player moves (from another device)
    elif mode in ("await", "other", "steps"):
        mover = others[0] if others else None
    else:
        mover = rng.choice(seats)
    if mover is None:
        break
    view = SeatView.objects.get(game=game, seat_number=mover.number)
    services.check_play_move(user=mover.user, game_id=game.pk, move=rng.choice(view.legal_moves),
                             expected_version=game.version)
    others_moved = others_moved or mover.user.username != username
print(json.dumps({"found": None}))
"""


def server(stack, game_id: int, username: str, mode: str, seed: int = 1, old=None) -> dict:
    extra = [json.dumps(old)] if old is not None else []
    return json.loads(stack.run_script(TURN_SCRIPT, game_id, username, mode, seed, *extra, timeout=300))


# The page's scroll and the move sheet's own (issue 32: on a phone the form opens as a sheet over the table).
SCROLLED_JS = "() => [window.scrollY, (document.querySelector('.move-sheet') || {scrollTop: 0}).scrollTop]"


class Meter:
    """Taps and the distance scrolled by hand (px) to reach what is tapped."""

    def __init__(self, page: Page) -> None:
        self.page, self.taps, self.scrolled = page, 0, 0

    def tap(self, locator, *, navigates: bool = False) -> None:
        before = self.page.evaluate(SCROLLED_JS)
        locator.scroll_into_view_if_needed()
        after = self.page.evaluate(SCROLLED_JS)
        self.scrolled += abs(after[0] - before[0]) + abs(after[1] - before[1])
        self.taps += 1
        if navigates:
            with self.page.expect_navigation():
                locator.click()
        else:
            locator.click()

    def figures(self) -> dict:
        return {"taps": self.taps, "scroll_px": round(self.scrolled)}


def hold_live_updates(page: Page, game_id: int) -> None:
    """The page keeps what it loaded (a frozen tab): its live partial answers "nothing new"."""
    page.route(re.compile(rf"/games/{game_id}/table/"), lambda route: route.fulfill(status=204, body=""))


def release_live_updates(page: Page) -> None:
    page.unroute_all(behavior="ignoreErrors")


def controls_for(page: Page, move: dict) -> list:
    """The page's controls that make ``move``: one button, or the radios of a composite form then submit."""
    for button in page.locator("#moves button[name=move], #moves input[type=radio][name=move]").all():
        try:
            if json.loads(button.get_attribute("value") or "null") == move:
                return [button]
        except ValueError:
            continue
    radios: dict[str, str] = {}
    if move.get("type") == "turn":  # Mamma Mia!'s turn: play, recipe, draw
        radios["play"] = f"{move['topping']}:{move['count']}" if move.get("topping") else "pass"
        radios["recipe"] = move.get("recipe") or ""
        radios["draw"] = move.get("draw")
    elif move.get("type") == "choose" and move.get("discard") is not None:  # Konamon!'s play one, discard one
        radios = {"play": str(move["cards"][0]), "discard": str(move["discard"])}
    found = []
    for name, value in radios.items():
        selector = f"input[type=radio][name='{name}'][value='{value}']"
        radio = page.locator(f"#moves {selector}")
        if radio.count() and not radio.is_checked():
            found.append(page.locator("#moves label", has=page.locator(selector)).first)
    return [*found, page.locator("#moves button[type=submit]:not([name])").first]


def choose_and_send(page: Page, meter: Meter, move: dict) -> int:
    """Make ``move`` with the form's own controls (a one-tap move asks "Send this move?" on a phone); the
    taps it took."""
    controls = controls_for(page, move)
    assert controls, f"the page does not offer {move}"
    taps = meter.taps
    for control in controls[:-1]:
        meter.tap(control)
    last = controls[-1]
    if last.evaluate(ASKS_JS) and not last.evaluate(CONFIRMED_ONCE_JS):
        meter.tap(last)
        meter.tap(page.locator(".confirm-bar").get_by_role("button", name="Send"), navigates=True)
    else:
        meter.tap(last, navigates=True)
    return meter.taps - taps


# A Konamon! card whose first step was confirmed in this tab: its next steps go with one tap (static/js/confirm.js).
CONFIRMED_ONCE_JS = """(b) => !!b.form && !!b.form.dataset.confirmOnce
  && sessionStorage.getItem('mm-confirmed:' + b.form.dataset.confirmOnce) === '1'"""


def form_offset(page: Page) -> int:
    """How far below the top of the page the move form begins (what the old answer left to scroll)."""
    return round(page.evaluate(
        "() => { const m = document.getElementById('moves'); return m ? m.getBoundingClientRect().top + scrollY : 0; }"
    ))


def in_first_screen(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    return bool(box) and box["y"] < page.viewport_size["height"] and box["y"] + box["height"] > 0


GAMES = ["konamon", "mamma-mia", "marumiere"]


@pytest.mark.parametrize("asked_on", ["phone", "desktop"])
@pytest.mark.parametrize("slug", GAMES)
def test_a_page_behind_never_loses_a_choice(slug, asked_on, player_factory, checker, findings, mailbox, stack,
                                            artifacts):
    """Each stale case on both viewports: ``asked_on`` is the one asked "still play it?" (and whose turns are
    measured); the other is told its move is no longer possible."""
    findings.expect_console(r"status of 409 \(Conflict\)")  # the stale moves this test posts on purpose
    phone, desktop = player_factory("loop", "phone"), player_factory("loop", "desktop")
    phone.page.set_viewport_size(PHONE_390)
    if asked_on == "desktop":  # the roles swapped: below, "phone" is the player asked, "desktop" the other
        phone, desktop = desktop, phone
    figures: dict = {"game": slug, "asked_on": asked_on}
    for attempt in range(3):  # each deal comes from the game's fresh seed: a game may end first
        table = start_game([phone, desktop], checker, findings, mailbox, stack.base_url, slug=slug, seats=2, seed=5)
        game_id = table.game_id
        if slug == "konamon":
            # Applied when the choices did not change: the other player chooses while the phone's page is behind.
            page = phone.page
            page.goto(table.url)
            hold_live_updates(page, game_id)
            offered = server(stack, game_id, phone.username, "await")
            moved = server(stack, game_id, phone.username, "other")
            assert moved["same"], "a neighbour's choice changed mine"
            meter = Meter(page)
            choose_and_send(page, meter, offered["legal"][0])
            release_live_updates(page)
            expect(page.locator("#stale-answer")).to_have_count(0)
            expect(page.locator(".game-error")).to_have_count(0)
            figures["unchanged_applied"] = True

        # Still legal, on the phone.
        page = phone.page
        offered = server(stack, game_id, phone.username, "await")
        page.goto(table.url)
        meter = Meter(page)
        meter.taps += 1  # opening the turn link
        hold_live_updates(page, game_id)
        result = server(stack, game_id, phone.username, "still", seed=attempt + 1, old=offered["legal"])
        if result["found"] is None:
            release_live_updates(page)
            continue
        choice_taps = choose_and_send(page, meter, result["found"])
        release_live_updates(page)
        answer = page.locator("#stale-answer")
        expect(answer).to_be_visible()
        expect(answer).to_contain_text(re.compile(r"since you chose — still play"))
        assert in_first_screen(page, "#stale-answer"), "the answer is not on the phone's screen"
        checker.page(page, f"{slug} still play it? ({asked_on})", axe=True, axe_key=f"{slug}-stale-still-{asked_on}")
        page.screenshot(path=str(checker.shots / f"{slug}-still-play-{asked_on}.png"))
        first = meter.figures()
        offset = form_offset(page)
        meter.tap(answer.locator("[data-stale-confirm]"), navigates=True)
        expect(page.locator("#stale-answer")).to_have_count(0)
        expect(page.locator(".game-error")).to_have_count(0)
        figures["still_legal_after"] = meter.figures()
        # Before: the refusal at the top of the page, the choice gone: back down to the form ("Go to your
        # move", one tap, or this far by hand) and the whole choice again.
        figures["still_legal_before"] = {
            "taps": first["taps"] + 1 + choice_taps, "scroll_px": first["scroll_px"], "or_scroll_px": offset
        }
        page.goto(stack.base_url + "/")  # the phone is put away: its page no longer records what it shows

        # No longer legal, on the desktop: why, what changed, the choice kept where it applies.
        d = desktop.page
        offered = server(stack, game_id, desktop.username, "await")
        d.goto(table.url)
        hold_live_updates(d, game_id)
        result = server(stack, game_id, desktop.username, "gone", seed=attempt + 1, old=offered["legal"])
        if result["found"] is None:
            release_live_updates(d)
            continue
        dmeter = Meter(d)
        dmeter.taps += 1
        gone_taps = choose_and_send(d, dmeter, result["found"])
        release_live_updates(d)
        answer = d.locator("#stale-answer")
        expect(answer).to_be_visible()
        expect(answer).to_contain_text("your move is no longer possible")
        expect(answer.locator("details.since[open] .since__lines li").first).to_be_visible()
        assert in_first_screen(d, "#stale-answer")
        # Just above the move form: the answer was moved there and the form follows it.
        assert d.evaluate(
            "() => { const a = document.getElementById('stale-answer'), m = document.querySelector('.moves-wrap');"
            " return !m || a.nextElementSibling === m; }"
        )
        told_on = "desktop" if asked_on == "phone" else "phone"
        checker.page(d, f"{slug} no longer possible ({told_on})", axe=True, axe_key=f"{slug}-stale-gone-{told_on}")
        d.screenshot(path=str(checker.shots / f"{slug}-no-longer-possible-{told_on}.png"))
        if result["found"].get("type") == "turn":  # radios: what still applies is selected again
            kept = d.locator("#moves input[type=radio]:checked")
            assert kept.count() >= 1, "no part of the choice was kept"
        figures["no_longer_legal"] = {
            "taps_to_refusal": dmeter.taps, "choice_taps": gone_taps, "answer_at_form": True,
            "before_form_offset_px": form_offset(d),
        }

        # A fresh visit after the others moved: "since your last visit", open.
        server(stack, game_id, phone.username, "await")
        page.goto(table.url)
        since = page.locator("details#since")
        expect(since).to_have_attribute("open", "")
        expect(since.locator(".since__lines li").first).to_be_visible()
        since.scroll_into_view_if_needed()
        page.screenshot(path=str(checker.shots / f"{slug}-since-{asked_on}.png"))
        figures["since_shown"] = True
        # Taps and scroll from opening the turn link to the move sent (no page behind): the phone.
        offered = server(stack, game_id, phone.username, "await")
        page.goto(table.url)
        meter = Meter(page)
        meter.taps += 1
        # On a phone "Move" opens the form as a sheet over the table; on a desktop "Go to your move" jumps to it.
        on_phone = page.viewport_size["width"] <= 640
        way = ".your-move .open-move-sheet" if on_phone else ".your-move .jump-to-move"
        first_screen = in_first_screen(page, way)
        jump = Meter(page)
        jump.taps = 1
        jump.tap(page.locator(way))  # no hand scroll: the sheet opens, or the page jumps
        if on_phone:
            expect(page.get_by_role("dialog")).to_be_visible()
            page.screenshot(path=str(checker.shots / f"{slug}-move-sheet-{asked_on}.png"))
        else:
            page.wait_for_function("() => window.scrollY > 0 || !document.querySelector('#moves')")
        choose_and_send(page, jump, offered["legal"][-1])
        figures["turn_from_link"] = {"jump_in_first_screen": first_screen, "way": "sheet" if on_phone else "jump",
                                     **jump.figures()}
        # The same turn scrolled by hand to each control (no jump link), for comparison: the next one.
        offered = server(stack, game_id, phone.username, "await")
        page.goto(table.url)
        meter = Meter(page)
        meter.taps += 1
        choose_and_send(page, meter, offered["legal"][-1])
        figures["turn_from_link_by_hand"] = meter.figures()
        break
    else:
        pytest.fail(f"no {slug} game gave the situations in three tries")
    out = artifacts / "turn-loop-figures.json"
    data = json.loads(out.read_text()) if out.exists() else {}
    data[slug if asked_on == "phone" else f"{slug} ({asked_on})"] = figures
    out.write_text(json.dumps(data, indent=2))


def test_a_konamon_cards_steps_are_confirmed_once(player_factory, checker, findings, mailbox, stack):
    """One confirmation per decision: on a phone the first step of a card asks "Send this move?", the same
    card's next steps go with one tap each."""
    phone, desktop = player_factory("steps", "phone"), player_factory("steps", "desktop")
    table = start_game([phone, desktop], checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=5)
    page = phone.page
    asked_once = False
    for _attempt in range(8):
        found = server(stack, table.game_id, phone.username, "steps")
        if "legal" not in found:
            break
        page.goto(table.url)
        form = page.locator("#moves form[data-confirm-once]")
        expect(form).to_have_count(1)
        key = form.get_attribute("data-confirm-once")
        step = page.locator("#moves button[name=move]:not(.secondary)").first
        step.click()
        bar = page.locator(".confirm-bar")
        expect(bar).to_be_visible()  # a card's first step asks
        with page.expect_navigation():
            bar.get_by_role("button", name="Send").click()
        again = page.locator(f"#moves form[data-confirm-once='{key}']")
        if not again.count():
            continue  # that was the card's last step
        with page.expect_navigation():
            again.locator("button[name=move]").first.click()
        expect(page.locator(".confirm-bar")).to_have_count(0)
        asked_once = True
        page.screenshot(path=str(checker.shots / "konamon-steps-one-confirmation-phone.png"))
        break
    assert asked_once, "no Konamon! card with two steps came up"


def test_a_konamon_cards_steps_are_taken_in_the_sheet(player_factory, checker, findings, mailbox, stack):
    """Issue 32, the move sheet: on a phone "Move" opens the form over the table; a step sent from it (asked
    once, "Send this move?" in the sheet) comes back with the sheet open on the card's next step, the kitchen
    beside it; "Back to the table" closes it on the table as it was."""
    phone, desktop = player_factory("sheet", "phone"), player_factory("sheet", "desktop")
    phone.page.set_viewport_size(PHONE_390)
    table = start_game([phone, desktop], checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=5)
    page = phone.page
    for _attempt in range(8):
        found = server(stack, table.game_id, phone.username, "steps")
        if "legal" not in found:
            pytest.fail("the game ended before a card with two steps came up")
        page.goto(table.url)
        page.locator(".your-move .open-move-sheet").click()
        sheet = page.get_by_role("dialog")
        expect(sheet).to_be_visible()
        expect(sheet.locator(".kn-kitchen-now")).to_be_visible()
        key = sheet.locator("form[data-confirm-once]").get_attribute("data-confirm-once")
        sheet.locator("button[name=move]:not(.secondary)").first.click()
        bar = sheet.locator(".confirm-bar")
        expect(bar).to_be_visible()  # the card's first step asks, in the sheet
        with page.expect_navigation():
            bar.get_by_role("button", name="Send").click()
        if not page.locator(f"#moves form[data-confirm-once='{key}']").count():
            continue  # that was the card's last step
        sheet = page.get_by_role("dialog")
        expect(sheet).to_be_visible()  # the next step, in the sheet again
        expect(sheet.locator(".kn-kitchen-now")).to_be_visible()
        page.screenshot(path=str(checker.shots / "konamon-next-step-in-the-sheet-phone.png"))
        checker.page(page, "konamon next step in the sheet", axe=True, axe_key="konamon-sheet-next-step")
        sheet.get_by_role("button", name="Back to the table").click()
        expect(page.get_by_role("dialog")).to_have_count(0)
        break
    else:
        pytest.fail("no Konamon! card with two steps came up")
