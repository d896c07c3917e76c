"""Quiet at the table (issue 34): two players with their pages open get no "your move" e-mail; one who leaves
gets one after the hold, and on a phone its first screen holds what is awaited and the "Make your move" button."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from e2e.support import loopback
from e2e.tables import awaited_usernames, make_move, start_game
from e2e.test_konamon import konamon_policy
from e2e.test_live import move_and_watch, mover_and_watcher, wait_streaming

HOLD_SECONDS = 8  # the stack's TURN_NOTIFY_HOLD_SECONDS (e2e/stack.py)


def turn_mails(table, player) -> list:
    return table.mailbox.to(player.email, f"#{table.game_id}:")  # "Konamon! #12: …"; not "#12 has started"


def test_at_the_table_no_turn_email_away_one_with_the_button_in_the_first_screen(player_factory, checker, findings,
                                                                                mailbox, stack, contexts):
    players = [player_factory("rosa"), player_factory("luigi")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=21)
    for _ in range(6):  # both pages open and streaming: each move shows on the other's page
        move_and_watch(table)
    time.sleep(HOLD_SECONDS + 4)  # past the hold: anything not dropped would have gone
    assert not turn_mails(table, players[0]) and not turn_mails(table, players[1]), "a turn e-mail at the table"

    # One player leaves the table (My games); the other moves: the one away hears it after the hold.

    mover, watcher = mover_and_watcher(table)
    wait_streaming(watcher)
    watcher.page.goto(f"{stack.base_url}/games/")
    for _ in range(20):  # a Konamon! turn has several steps: until it is the watcher's turn
        started = time.monotonic()
        make_move(table, mover, konamon_policy)
        if watcher.username in awaited_usernames(mover.page):
            break
    mail = mailbox.wait_for(watcher.email, f"#{table.game_id}:", timeout=HOLD_SECONDS + 45)[-1]
    assert time.monotonic() - started >= HOLD_SECONDS - 1, "the e-mail waited the hold"
    assert f"/games/{table.game_id}/#moves" in mail.text

    # On a phone, the first screen holds what is awaited, the deadline and the button.
    _context, phone = contexts("phone", "turn-email")
    phone.set_content(mail.html)
    button = phone.get_by_role("link", name="Make your move")
    expect(button).to_be_visible()
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= phone.viewport_size["height"], box
    checker.shot(phone, "turn-email", watcher.username)
    # The button opens the game at the move form.
    watcher.page.goto(loopback(button.get_attribute("href"), stack.base_url))
    expect(watcher.page.locator("#moves")).to_be_visible()
