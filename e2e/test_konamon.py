"""こなもんっ! (Konamon!) with two people (the creator on a phone), through the pages to the end:
the simultaneous choice of action cards, then each card worked step by step."""

from __future__ import annotations

from e2e.tables import Choice, button_move, check_the_end, play_to_end, start_game, summary

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
