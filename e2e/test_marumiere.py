"""Marumiere with two people (one on a phone) and a bot, through the pages to the end:
piles picked, bids made by turning a card, tricks played with must-follow."""

from __future__ import annotations

from e2e.tables import Choice, button_move, check_the_end, play_to_end, start_game, summary


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


def test_marumiere_two_people_and_a_bot_to_the_end(player_factory, checker, findings, mailbox, stack):
    players = [player_factory("kaito", "desktop"), player_factory("hana", "phone")]
    table = start_game(players, checker, findings, mailbox, stack.base_url,
                       slug="marumiere", seats=3, bots=1, seed=7)
    play_to_end(table, marumiere_policy)
    check_the_end(table, tie_breaks=False)
    print(summary(table))
    assert table.seen.get("pick") and table.seen.get("bid"), table.seen
    assert table.seen.get("must-follow"), table.seen
    assert table.keyboard_moves >= 1
    assert table.live_updates, "no page updated by itself"
    assert table.mail_links_followed >= 1
