"""こなもんっ! (Konamon!) with two people (the creator on a phone), through the pages to the end:
the simultaneous choice of action cards, then each card worked step by step."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from e2e.tables import (
    Choice,
    button_move,
    check_the_end,
    play_to_end,
    seeded_game,
    send_radio_choice,
    start_game,
    summary,
)

STEPS = ("prep", "bake", "hand_over")


def konamon_policy(kind, rng, table) -> Choice:
    groups, buttons = kind["groups"], kind["buttons"]
    if "play" in groups and "discard" in groups:  # two players without a pair to 90
        play = rng.choice(groups["play"])["value"]
        discard = rng.choice([o["value"] for o in groups["discard"] if o["value"] != play])
        return Choice(radios={"play": play, "discard": discard}, note="choose-and-discard")
    moves = [button_move(b) for b in buttons]
    kinds = {m.get("type") for m in moves}
    if "choose" in kinds:
        # Everyone chooses at once: the page shows more than one player to move.
        note = "simultaneous-choice" if len(table.awaited) > 1 else "choice"
        return Choice(button=rng.randrange(len(buttons)), note=note)
    if "unload" in kinds:
        return Choice(button=0, note="unload")
    steps = [i for i, m in enumerate(moves) if m.get("type") in STEPS]
    stop = [i for i, m in enumerate(moves) if m.get("type") == "next"]
    if steps and (not stop or rng.random() < 0.6):
        i = rng.choice(steps)
        return Choice(button=i, note=f"work-{moves[i]['type']}")
    return Choice(button=stop[0], note="work-next")


def test_konamon_two_people_to_the_end(player_factory, checker, findings, mailbox, stack):
    players = [player_factory("taro", "phone"), player_factory("yuki", "desktop")]
    table = start_game(players, checker, findings, mailbox, stack.base_url, slug="konamon", seats=2, seed=3)
    play_to_end(table, konamon_policy)
    check_the_end(table, tie_breaks=True)
    print(summary(table))
    assert table.seen.get("simultaneous-choice"), table.seen
    assert any(table.seen.get(f"work-{s}") for s in STEPS), table.seen
    assert table.keyboard_forms == table.form_kinds, "some move forms were not made by keyboard"
    assert table.live_updates, "no page updated by itself"
    assert table.mail_links_followed >= 1


@pytest.mark.parametrize("viewport", ["phone", "desktop"])
def test_the_card_ticked_to_play_is_greyed_out_among_the_discards(viewport, player_factory, checker, stack):
    # Seed 561, two players: the seat of the second to join holds 45 46 49 53 56, no two adding up to 90 or less,
    # so the form asks for a card to play and another to discard (static/js/game.js keeps the two groups apart).
    other = "desktop" if viewport == "phone" else "phone"
    players = [player_factory("discard", other), player_factory("discard", viewport)]
    game_id = seeded_game(stack, "konamon", 561, 0, players)
    heading = "#moves h2:text-is('Play one card, discard one')"
    for player in players:
        player.page.goto(f"/games/{game_id}/")
    player = next(p for p in players if p.page.locator(heading).count())  # the seat dealt 45 46 49 53 56
    page = player.page
    form = page.locator("#moves")

    def radio(group: str, number: int, within=form):
        return within.locator(f"input[type=radio][name='{group}'][value='{number}']")

    def card(group: str, number: int):  # the card's picture, the label a player taps
        return form.locator("label", has=radio(group, number, within=page))

    def tap(group: str, number: int) -> None:
        card(group, number).click()
        expect(radio(group, number)).to_be_checked()

    tap("play", 49)
    expect(radio("discard", 49)).to_be_disabled()
    expect(form.locator("input[name='discard']:disabled")).to_have_count(1)
    expect(form.locator("input[name='play']:disabled")).to_have_count(0)
    tap("discard", 56)
    expect(radio("play", 56)).to_be_disabled()
    checker.page(page, f"play one, discard one, both ticked ({player.viewport})", axe=True,
                 axe_key=f"kn-discard-{player.viewport}")
    checker.shot(page, "discard-greyed", player.username)
    # A greyed card cannot be ticked; another card to play keeps the discard and frees the first one.
    card("play", 56).click(force=True)  # a tap on a greyed card does nothing
    expect(radio("play", 56)).not_to_be_checked()
    tap("play", 45)
    expect(radio("discard", 56)).to_be_checked()
    expect(radio("discard", 45)).to_be_disabled()
    expect(radio("discard", 49)).to_be_enabled()
    send_radio_choice(page, Choice(radios={"play": 45, "discard": 56}))  # as ticked: sends "Play and discard"
    expect(page.locator("body")).to_contain_text(re.compile(r"chose No\. 45 \(secret until the reveal\)"))
    expect(page.locator("body")).to_contain_text("set No. 56 aside to discard")
