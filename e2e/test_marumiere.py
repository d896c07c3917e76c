"""Marumiere with two people (one on a phone) and a bot, through the pages to the end:
piles picked, bids made by turning a card, tricks played with must-follow."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from e2e.tables import Choice, button_move, check_the_end, mark_page, play_to_end, same_page, start_game, summary


def marumiere_policy(kind, rng, table) -> Choice:
    buttons = kind["buttons"]
    moves = [button_move(b) for b in buttons]
    kinds = {m.get("type") for m in moves}
    index = rng.randrange(len(buttons))
    if "pick" in kinds:
        return Choice(button=index, note="pick")
    if "bid" in kinds:
        return Choice(button=index, note="bid")
    blocked = [c for c in kind["unavailable"] if "follow" in c["why"]]
    if blocked:
        # Must follow: every card offered has the led colour; the greyed ones say why they are not.
        offered = {b["colour"] for b in buttons}
        if len(offered) != 1 or offered & {c["colour"] for c in blocked}:
            table.findings.add("must follow", table.where(table.players[0], kind["title"]),
                               f"offered colours {offered}, blocked {[c['colour'] for c in blocked]}")
        return Choice(button=index, note="must-follow")
    return Choice(button=index, note="lead" if any("lead" in h for h in kind["help"]) else "")


def test_marumiere_two_people_and_a_bot_to_the_end(player_factory, contexts, checker, findings, mailbox, stack):
    players = [player_factory("kaito", "desktop"), player_factory("hana", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url,
                       slug="marumiere", seats=3, bots=1, seed=7)

    # Someone not logged in watches the public game from the lobby; their page is never reloaded.
    _, watcher = contexts("desktop", "watcher")
    watcher.goto("/lobby/")
    watcher.get_by_role("link", name=re.compile(rf"#{table.game_id}$")).click()
    expect(watcher.locator(".player-rows")).to_be_visible()
    checker.page(watcher, "marumiere watched by a visitor", axe=True)
    mark_page(watcher)
    log_at_start = watcher.locator(".log-lines").inner_text()

    play_to_end(table, marumiere_policy)

    expect(watcher.locator("#final-title")).to_be_visible(timeout=15_000)
    assert same_page(watcher), "the watcher's page was reloaded"
    assert watcher.locator(".log-lines").inner_text() != log_at_start
    checker.shot(watcher, "end-watched", "visitor")
    check_the_end(table, tie_breaks=False)
    print(summary(table))
    assert table.seen.get("pick") and table.seen.get("bid"), table.seen
    assert table.seen.get("must-follow"), table.seen
    assert table.keyboard_forms == table.form_kinds, "some move forms were not made by keyboard"
    assert table.live_updates, "no page updated by itself"
    assert table.mail_links_followed >= 1
