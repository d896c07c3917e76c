"""Playing a whole game through the pages: create, join from the lobby, move by move to the end.

The driver reads each move section the way a player sees it (``js/moves.js``:
its radio groups and buttons) and a per-game *policy* picks among the offered
options with a seeded random generator, so a run is repeatable and only ever
clicks what the page offers. Some moves are made with the keyboard alone
(Tab to the control, Space/arrows to choose, Enter to send). On the way it
checks every page the movers see (labels; layout at phone size; axe-core once
per kind of move form), follows turn e-mails, watches pages update by
themselves (htmx polling), and takes screenshots at a few moments.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from playwright.sync_api import Page, expect

from e2e.support import E2E_DIR, Checker, Findings, Mailbox, Player, loopback, open_menu

MOVES_JS = (E2E_DIR / "js" / "moves.js").read_text(encoding="utf-8")

TARGET = "data-e2e-target"


@dataclass
class Choice:
    """One move as a player makes it: a button to press, or radio values then the submit button."""

    button: int | None = None
    radios: dict[str, str] = field(default_factory=dict)
    note: str = ""  # a feature this move shows (screenshots and the coverage check)


Policy = Callable[[dict, random.Random, "Table"], Choice]


def button_move(button: dict) -> dict:
    try:
        return json.loads(button["value"])
    except (TypeError, ValueError):
        return {}


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


@dataclass
class Table:
    slug: str
    url: str
    game_id: int
    players: list[Player]
    checker: Checker
    findings: Findings
    mailbox: Mailbox
    base_url: str
    rng: random.Random
    seen: dict[str, int] = field(default_factory=dict)  # feature -> moves seen
    moves: int = 0
    keyboard_moves: int = 0
    form_kinds: set[str] = field(default_factory=set)  # kinds of move form seen (their titles)
    keyboard_forms: set[str] = field(default_factory=set)  # ... and made by keyboard at least once
    live_updates: list[float] = field(default_factory=list)
    mail_links_followed: int = 0
    awaited: list[str] = field(default_factory=list)  # usernames awaited when the current move was read
    loaded_at: dict[str, int] = field(default_factory=dict)  # username -> table.moves when their page loaded
    form_at_load: dict[str, bool] = field(default_factory=dict)  # username -> the page offered a move then

    def loaded(self, player: Player) -> None:
        """Note that ``player``'s page was just (re)loaded, and whether it offered a move."""
        self.loaded_at[player.username] = self.moves
        self.form_at_load[player.username] = player.page.locator("#moves").count() > 0

    def by_username(self, username: str) -> Player | None:
        return next((p for p in self.players if p.username == username), None)

    def where(self, player: Player, what: str) -> str:
        return f"{self.slug} #{self.game_id} {what} ({player.viewport}, {player.username})"

    def see(self, feature: str, player: Player) -> None:
        first = feature not in self.seen
        self.seen[feature] = self.seen.get(feature, 0) + 1
        if first:
            self.checker.shot(player.page, feature, player.username)


# Lobby -----------------------------------------------------------------------------------------------


def create_game(player: Player, checker: Checker, *, slug: str, seats: int, bots: int = 0,
                options: dict[str, str] | None = None, bot_levels: list[str] | None = None) -> tuple[str, int]:
    page = player.page
    page.goto("/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="My games").click()
    page.get_by_role("link", name="Create a game").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Create a game")
    checker.page(page, f"create form ({player.viewport})", axe=True, axe_key=f"create-{player.viewport}")
    page.locator("label", has=page.locator(f'input[name="engine_slug"][value="{slug}"]')).click()
    page.get_by_label("Number of seats").select_option(str(seats))
    page.get_by_label("Bots").select_option(str(bots))
    for n, level in enumerate(bot_levels or [], start=2):  # the first bot sits as "Bot 2" (issue 28)
        page.locator("[data-bot-levels]").get_by_label(f"Bot {n}", exact=True).select_option(level)
    for label, value in (options or {}).items():
        page.locator("fieldset.engine-options").get_by_label(label).select_option(value)
    page.get_by_role("button", name="Create the game").click()
    expect(page).to_have_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    expect(page.locator("#waiting-title")).to_be_visible()
    checker.page(page, f"waiting room ({player.viewport})", axe=True, axe_key=f"waiting-{player.viewport}")
    return page.url, game_id


def join_from_lobby(player: Player, checker: Checker, game_id: int) -> None:
    page = player.page
    page.goto("/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Lobby").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Lobby")
    checker.page(page, f"lobby ({player.viewport})", axe=True, axe_key=f"lobby-{player.viewport}")
    item = page.locator("li.game-item", has=page.get_by_role("link", name=re.compile(rf"#{game_id}$")))
    expect(item).to_have_count(1)
    item.get_by_role("button", name="Take a seat").click()
    expect(page).to_have_url(re.compile(rf"/games/{game_id}/$"))


def start_game(players: list[Player], checker: Checker, findings: Findings, mailbox: Mailbox, base_url: str, *,
               slug: str, seats: int, bots: int = 0, seed: int = 1,
               options: dict[str, str] | None = None, bot_levels: list[str] | None = None) -> Table:
    creator, *others = players
    url, game_id = create_game(creator, checker, slug=slug, seats=seats, bots=bots, options=options,
                               bot_levels=bot_levels)
    for player in others:
        join_from_lobby(player, checker, game_id)
    table = Table(slug=slug, url=url, game_id=game_id, players=players, checker=checker, findings=findings,
                  mailbox=mailbox, base_url=base_url, rng=random.Random(seed))
    # The creator's waiting room turns into the table by itself (htmx) once the last seat is taken.
    expect(creator.page.locator("#waiting-title")).to_have_count(0, timeout=15_000)
    expect(creator.page.locator(".player-rows")).to_be_visible()
    # The awaited players' clocks tick in the browser (static/js/clocks.js under the production CSP).
    expect(creator.page.locator(".player-row.is-awaited [data-clock-text]").first).to_have_text(re.compile(r"\d"))
    for player in players:
        if player.page.url.rstrip("/") != url.rstrip("/"):
            player.page.goto(url)
        table.loaded(player)
        table.checker.shot(player.page, "start", player.username)
    return table


# Moves ---------------------------------------------------------------------------------------------------


def offer(page: Page) -> dict | None:
    return page.evaluate(MOVES_JS)


def awaited_usernames(page: Page) -> list[str]:
    hrefs = page.locator(".player-row.is-awaited .player-name a").evaluate_all("els => els.map(a => a.pathname)")
    return [h.strip("/").split("/", 1)[1] for h in hrefs if h.startswith("/u/")]


def bot_awaited(page: Page) -> bool:
    return page.locator(".player-row.is-awaited").count() > len(awaited_usernames(page))


def finished(page: Page) -> bool:
    return page.locator("#final-title").count() > 0


def _mark(page: Page, selector: str, index: int = 0) -> None:
    page.evaluate(
        "([sel, i, attr]) => { document.querySelectorAll('[' + attr + ']').forEach(e => e.removeAttribute(attr));"
        " document.querySelectorAll(sel)[i].setAttribute(attr, '1'); }",
        [selector, index, TARGET],
    )


def _tab_to(page: Page, test_js: str, limit: int = 250) -> bool:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate(test_js):
            return True
    return False


def _focused_marked() -> str:
    return f"() => !!document.activeElement && document.activeElement.hasAttribute('{TARGET}')"


# Whether pressing this move button asks "Send this move?" first (issue 19, static/js/confirm.js): a one-tap
# form, and the player's setting "always", or "auto" (the default) on a touch screen.
ASKS_JS = """(b) => {
  if (!b.form || !b.form.querySelector('input[name=one_tap]')) { return false; }
  // One confirmation per decision (issue 32): a Konamon! card's later steps go with one tap once its first was sent.
  const once = b.form.dataset.confirmOnce;
  try { if (once && sessionStorage.getItem('mm-confirmed:' + once) === '1') { return false; } } catch (e) { /* ask */ }
  const holder = document.querySelector('[data-confirm-moves]');
  const mode = holder ? holder.dataset.confirmMoves : 'auto';
  return mode === 'always' || (mode === 'auto' && matchMedia('(pointer: coarse)').matches);
}"""


# Before a tap or key that may send a move. A form that went out (its submit event not cancelled, as the bar's
# script cancels it to ask) is noted: the page that answers it must be waited for, and a table replaced meanwhile
# by the news of that very move (static/js/live.js swaps #live while the POST is under way) is not that page.
# Taking it for the answer let a test read the next page while it was still being parsed (no player rows yet).
WATCH_SEND_JS = """() => {
  window.__mmBefore = true;
  window.__mmSent = false;
  window.__mmForm = document.querySelector('#moves form');
  if (!window.__mmWatching) {
    window.__mmWatching = true;
    window.addEventListener('submit', (event) => { if (!event.defaultPrevented) { window.__mmSent = true; } });
  }
}"""
# Then: a new page (the move's answer), or, when nothing went, the bar asking or the form replaced by news.
SENT_OR_ASKED_JS = (
    "() => !window.__mmBefore || (!window.__mmSent && (!!document.querySelector('.confirm-bar')"
    " || !window.__mmForm || !document.contains(window.__mmForm)))"
)


def send_asking_move(table: Table | None, player: Player, act, *, keyboard: bool) -> None:
    """``act`` (a tap or a key) sends a one-tap move the page should ask about: confirm it with the bar, or, when
    the page went straight on (a Konamon! card's later steps once its first was confirmed, issue 32), wait for
    the new page."""
    page = player.page
    page.evaluate(WATCH_SEND_JS)
    act()
    page.wait_for_function(SENT_OR_ASKED_JS)
    if page.locator(".confirm-bar").count():
        confirm_bar_send(table, player, keyboard=keyboard)
    else:
        page.wait_for_load_state()


def confirm_bar_send(table: Table | None, player: Player, *, keyboard: bool) -> None:
    """The confirmation bar is up: send the move with it (its Send button has the focus)."""
    page = player.page
    bar = page.locator(".confirm-bar")
    expect(bar).to_be_visible()
    expect(page.locator("#moves button[name=move][aria-pressed=true]")).to_have_count(1)
    if table is not None:
        table.see("confirm one-tap move", player)
    with page.expect_navigation():
        if keyboard:
            expect(bar.get_by_role("button", name="Send")).to_be_focused()
            page.keyboard.press("Enter")
        else:
            bar.get_by_role("button", name="Send").click()


def play_by_keyboard(table: Table, player: Player, choice: Choice, kind: dict) -> bool:
    """The move with the keyboard alone; False (and a finding) when a control cannot be reached."""
    page = player.page
    where = table.where(player, f"keyboard move: {kind.get('title', '')}")
    if choice.button is not None:
        _mark(page, "#moves button[name=move]", choice.button)
        if not _tab_to(page, _focused_marked()):
            table.findings.add("keyboard", where, "the move button cannot be reached with Tab")
            return False
        if table.keyboard_moves == 0:
            table.checker.shot(page, "keyboard-focus", player.username)
        key = "Enter" if table.keyboard_moves % 2 == 0 else "Space"
        if page.locator(f"[{TARGET}]").evaluate(ASKS_JS):
            send_asking_move(table, player, lambda: page.keyboard.press(key), keyboard=True)
        else:
            with page.expect_navigation():
                page.keyboard.press(key)
        return True
    for name, value in choice.radios.items():
        group = f"#moves input[type=radio][name='{name}']"
        in_group = f"() => !!document.activeElement && document.activeElement.matches(\"{group}\")"
        if not _tab_to(page, in_group):
            table.findings.add("keyboard", where, f"the {name!r} choices cannot be reached with Tab")
            return False
        if not page.evaluate("() => document.activeElement.checked"):
            page.keyboard.press("Space")
        options = kind["groups"][name]
        for _ in range(len(options)):
            if page.evaluate("() => document.activeElement.value") == value:
                break
            page.keyboard.press("ArrowRight")
        if page.evaluate("() => document.activeElement.value") != value or not page.evaluate(
            "() => document.activeElement.checked"
        ):
            table.findings.add("keyboard", where, f"could not choose {value!r} for {name!r} with the arrow keys")
            return False
    _mark(page, "#moves button[type=submit]:not([name])")
    if not _tab_to(page, _focused_marked(), limit=80):
        table.findings.add("keyboard", where, "the submit button cannot be reached with Tab")
        return False
    with page.expect_navigation():
        page.keyboard.press("Enter")
    return True


def play_by_mouse(player: Player, choice: Choice, table: Table | None = None) -> None:
    page = player.page
    if choice.button is not None:
        button = page.locator("#moves button[name=move]").nth(choice.button)
        if button.evaluate(ASKS_JS):
            send_asking_move(table, player, button.click, keyboard=False)
        else:
            with page.expect_navigation():
                button.click()
        return
    send_radio_choice(page, choice)


def make_move(table: Table, player: Player, policy: Policy, *, keyboard_every: int = 15) -> None:
    """One move by ``player``: by keyboard alone the first time each kind of move form shows up
    (and every ``keyboard_every`` moves), else by mouse/touch."""
    page = player.page
    kind = offer(page)
    assert kind is not None, f"{player.username} was awaited but sees no move form"
    choice = policy(kind, table.rng, table)
    title = kind["title"] or "move"
    where = table.where(player, title)
    form_key = _form_key(kind)
    table.form_kinds.add(form_key)
    table.checker.page(page, where, axe=True, axe_key=f"{table.slug}:{form_key}:{player.viewport}")
    if choice.note:
        table.see(choice.note, player)
    keyboard = form_key not in table.keyboard_forms or table.moves % keyboard_every == 1
    done = keyboard and play_by_keyboard(table, player, choice, kind)
    if done:
        table.keyboard_moves += 1
        table.keyboard_forms.add(form_key)
    else:
        play_by_mouse(player, choice, table)
    table.moves += 1
    table.loaded(player)
    error = page.locator(".game-error")
    if error.count():
        table.findings.add("move refused", where, f"{error.inner_text()} (choice {choice})")


def _form_key(kind: dict) -> str:
    """Kinds of move forms for axe (one run each): the title without numbers and names."""
    return re.sub(r"[\d#]+", "", kind["title"]).split(":")[0].strip()


def mark_page(page: Page) -> None:
    """A mark that only lives as long as this document: gone after any reload or navigation."""
    page.evaluate("() => { window.__e2eSamePage = true; }")


def same_page(page: Page) -> bool:
    return page.evaluate("() => window.__e2eSamePage === true")


def wait_live(player: Player, timeout: float) -> float | None:
    """Wait, without reloading, for the page to offer a move (htmx polling); seconds taken or None."""
    started = time.monotonic()
    mark_page(player.page)
    try:
        expect(player.page.locator("#moves")).to_be_visible(timeout=timeout * 1000)
    except AssertionError:
        return None
    assert same_page(player.page), "the page was reloaded, not updated in place"
    return time.monotonic() - started


def play_to_end(table: Table, policy: Policy, *, max_moves: int = 1500, live_switches: int = 4,
                keyboard_every: int = 15, mail_switches: int = 2, poll_seconds: float = 1,
                screenshot_every: int = 40) -> None:
    """Play until the game is over; ``live_switches`` hand-overs are awaited without reloading."""
    players = table.players
    current = players[0]
    current.page.goto(table.url)
    table.loaded(current)
    followed_mail: set[str] = set()
    stalled_since = None
    while table.moves < max_moves:
        page = current.page
        if finished(page):
            break
        awaited = [u for u in awaited_usernames(page) if table.by_username(u)]
        if not awaited:
            # A bot moves (Celery worker), or the page is stale: let htmx bring the news, or reload.
            stalled_since = stalled_since or time.monotonic()
            if time.monotonic() - stalled_since > 60:
                raise AssertionError(f"nobody moved for 60 s in {table.url}")
            page.wait_for_timeout(400)
            if bot_awaited(page):
                continue
            page.reload()
            continue
        stalled_since = None
        nxt = current if current.username in awaited else table.by_username(awaited[0])
        if nxt is not current:
            # Was the page loaded while it was not this player's move, and has anyone moved since?
            newly_awaited = not table.form_at_load.get(nxt.username, True)
            stale = newly_awaited and table.loaded_at.get(nxt.username, -1) < table.moves
            on_table = nxt.page.url.rstrip("/") == table.url.rstrip("/")
            if stale and on_table and len(table.live_updates) < live_switches:
                took = wait_live(nxt, poll_seconds + 10)
                if took is None:
                    table.findings.add("live update", table.where(nxt, "page left open"),
                                       "the page did not show the move form by itself within "
                                       f"{poll_seconds + 10:.0f}s after the other player moved")
                    nxt.page.goto(table.url)
                else:
                    table.live_updates.append(took)
                    if len(table.live_updates) == 1:
                        table.checker.shot(nxt.page, "live-update", nxt.username)
            elif (newly_awaited and not on_table and nxt.username not in followed_mail
                  and len(followed_mail) < mail_switches):
                # Newly awaited (and the page visited since the last e-mail): a "your move" e-mail
                # comes; come back the way a player does, through its link.
                mail = table.mailbox.wait_for(nxt.email, f"#{table.game_id}:", timeout=45)[-1]
                nxt.page.goto(loopback(mail.link(f"/games/{table.game_id}/"), table.base_url))
                followed_mail.add(nxt.username)
                table.mail_links_followed += 1
            else:
                nxt.page.goto(table.url)
            table.loaded(nxt)
            current = nxt
        if offer(current.page) is None:
            current.page.goto(table.url)
            table.loaded(current)
            if offer(current.page) is None:
                continue
        table.awaited = awaited
        if len(table.live_updates) >= live_switches and len(followed_mail) < mail_switches:
            # Nobody at the table hears "your move" by e-mail (issue 34): a player not awaited leaves for My games,
            # and comes back through the e-mail the next turn of theirs brings after the hold.
            for other in players:
                if (other is not current and other.username not in awaited and other.username not in followed_mail
                        and other.page.url.rstrip("/") == table.url.rstrip("/")):
                    other.page.goto(f"{table.base_url}/games/")
        make_move(table, current, policy, keyboard_every=keyboard_every)
        if table.moves % screenshot_every == 0:
            table.checker.shot(current.page, f"move{table.moves}", current.username)
    else:
        raise AssertionError(f"the game did not end within {max_moves} moves")


# The end ----------------------------------------------------------------------------------------------


def final_ranking(page: Page) -> list[tuple[int, str, float]]:
    rows = page.locator("section.final table.final-ranking tbody tr")
    ranking = []
    for i in range(rows.count()):
        row = rows.nth(i)
        place, name, score = (row.get_attribute(f"data-{key}") for key in ("place", "name", "score"))
        ranking.append((int(place), name, float(score)))
    return ranking


def check_the_end(table: Table, *, tie_breaks: bool) -> dict[str, int]:
    """Every player sees the final ranking, the finished e-mail, My games and the match history agree."""
    first = table.players[0].page
    first.goto(table.url)
    expect(first.locator("#final-title")).to_be_visible()
    ranking = final_ranking(first)
    assert len(ranking) == len({p.username for p in table.players}) + sum(
        1 for r in ranking if not table.by_username(r[1])
    )
    places = [r[0] for r in ranking]
    assert places == sorted(places) and places[0] == 1, ranking
    for (rank_a, _, score_a), (rank_b, _, score_b) in zip(ranking, ranking[1:], strict=False):
        # A better place never has fewer points; equal points share the place unless the game breaks ties.
        assert score_a >= score_b, ranking
        if score_a == score_b and not tie_breaks:
            assert rank_a == rank_b, ranking
        if score_a > score_b:
            assert rank_a < rank_b, ranking
    rank_of = {name: rank for rank, name, _ in ranking}
    score_of = {name: score for _, name, score in ranking}

    without_started: list[str] = []
    for player in table.players:
        page = player.page
        page.goto(table.url)
        expect(page.locator("#final-title")).to_be_visible()
        assert final_ranking(page) == ranking
        table.checker.page(page, table.where(player, "final"), axe=True,
                           axe_key=f"{table.slug}:final:{player.viewport}")
        table.checker.shot(page, "end", player.username)
        rank = rank_of[player.username]

        mail = table.mailbox.wait_for(player.email, f"#{table.game_id} is over")[-1]
        if rank == 1:
            assert "you won" in mail.subject, mail.subject
        else:
            place = f"{rank}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(rank, 'th')}"  # as the end screen says it: "2nd"
            assert f"you placed {place} of {len(ranking)}" in mail.subject, mail.subject
        if not table.mailbox.to(player.email, f"#{table.game_id} has started"):
            # The first to move hears "game started" as their "your move" (issue 34): held, and dropped while
            # they sit at the table; everyone else hears it at once.
            without_started.append(player.username)
        # Nobody at the table hears "your move" (issue 34): only the players the harness sent away (and brought
        # back through their e-mail, table.mail_links_followed) got one; a player always at the table gets none.

        page.get_by_role("navigation", name="Main").get_by_role("link", name=re.compile("My games")).click()
        item = page.locator("section[aria-labelledby=finished-title] li.game-item",
                            has=page.get_by_role("link", name=re.compile(rf"#{table.game_id}$")))
        expect(item).to_have_count(1)
        score = score_of[player.username]
        # In the game's own unit, as the end screen says it (issue 35, item 9): "4 recipes baked", "12 points".
        unit = ("recipe baked", "recipes baked") if table.slug == "mamma-mia" else ("point", "points")
        expect(item).to_contain_text(f"{ordinal(rank)} place, {score:g} {unit[0] if score == 1 else unit[1]}")
        table.checker.page(page, f"my games ({player.viewport})", axe=True, axe_key=f"my-games-{player.viewport}")

        open_menu(page)
        page.get_by_role("navigation", name="Main").get_by_role("link", name=player.username).click()
        game_link = page.get_by_role("link", name=re.compile(rf"#{table.game_id}$"))
        row = page.locator("table.history tbody tr", has=game_link)
        expect(row).to_have_count(1)
        expect(row.locator("td[data-label=Place]")).to_contain_text(ordinal(rank))
        table.checker.page(page, f"profile with match history ({player.viewport})", axe=True,
                           axe_key=f"profile-{player.viewport}")
        if player is table.players[0]:
            table.checker.shot(page, "match-history", player.username)
    # Konamon! starts with every player choosing at once: each is a first mover, so none may hear it.
    first_movers = len(table.players) if table.slug == "konamon" else 1
    assert len(without_started) <= first_movers, f"no game-started e-mail for {without_started}"
    return rank_of


def summary(table: Table) -> str:
    live = ", ".join(f"{t:.1f}s" for t in table.live_updates)
    return (
        f"{table.slug} #{table.game_id}: {table.moves} moves through the pages, {table.keyboard_moves} by keyboard "
        f"(every kind of form: {sorted(table.keyboard_forms)}), seen {table.seen}, "
        f"live updates after [{live}], {table.mail_links_followed} turn e-mail links followed"
    )


# Fast-forward ----------------------------------------------------------------------------------------------

FAST_FORWARD = """
import random, sys, time
import django
django.setup()
from games.models import Game, Seat, SeatView
from games.play import services
from games.exceptions import GameError
game_id, seed = int(sys.argv[1]), int(sys.argv[2])
phase = sys.argv[3] if len(sys.argv) > 3 else ""  # stop when the game reaches this phase instead
rng = random.Random(seed)
game = Game.objects.get(pk=game_id)
for _ in range(20000):
    game.refresh_from_db()
    if game.status != "active":
        break
    if phase and SeatView.objects.get(game=game, seat_number=None).view.get("phase") == phase:
        break
    seat = Seat.objects.filter(game=game, awaited=True, is_bot=False).select_related("user").order_by("number").first()
    if seat is None:  # a bot moves (the Celery worker)
        time.sleep(0.1)
        continue
    view = SeatView.objects.get(game=game, seat_number=seat.number)
    try:
        services.check_play_move(user=seat.user, game_id=game.pk, move=rng.choice(view.legal_moves),
                                 expected_version=game.version)
    except GameError:
        pass
print(game.status)
"""


SEEDED_GAME = """
import sys
import django
django.setup()
from django.contrib.auth import get_user_model
from games.lobby import services
slug, seed, bots, hours, *usernames = sys.argv[1:]
services.new_seed = lambda: int(seed)  # this run's deal: the test needs one outcome in particular
users = [get_user_model().objects.get(username=name) for name in usernames]
game = services.create_game(user=users[0], engine_slug=slug, players=len(users) + int(bots), bots=int(bots),
                            time_limit_hours=int(hours))
for user in users[1:]:
    services.join_game(user=user, game_id=game.pk)
print(game.pk)
"""


def seeded_game(stack, slug: str, seed: int, bots: int, players, hours: int = 0) -> int:
    """A game created on the server with the deal of ``seed`` (``create_game``, as the form posts to) and a
    per-move limit of ``hours`` (0: none)."""
    return int(stack.run_script(SEEDED_GAME, slug, seed, bots, hours, *(p.username for p in players)))


def fast_forward_to_end(stack, game_id: int, *, seed: int = 1, phase: str = "") -> None:
    """Play a game's human moves at random on the server (the service the move form posts to) until it
    ends: for the tests of the end screen and the replay, which need a finished game, not another game
    played through the pages (the game tests do that). With ``phase``: until the game reaches that phase
    (the spectators' view's ``phase``), still going on."""
    last = stack.run_script(FAST_FORWARD, game_id, seed, phase, timeout=600)
    assert last.endswith("active" if phase else "finished"), last


def send_radio_choice(page: Page, choice: Choice) -> None:
    """Tick the radios a move form asks for, as a player taps their labels, and send the form."""
    for name, value in choice.radios.items():
        radio = f"input[type=radio][name='{name}'][value='{value}']"
        page.locator("#moves label", has=page.locator(radio)).click()
        expect(page.locator(f"#moves {radio}")).to_be_checked()
    with page.expect_navigation():
        page.locator("#moves button[type=submit]:not([name])").click()
