"""Mamma Mia! with three people (one on a phone), through the pages to the end.

The game must include a phase-2 decision by a recipe's owner. The create form
offers no seed or stacked deal (those are API/engine options), so the players
put recipes into the oven whenever they can, which makes a decision in almost
every game; a game without one is followed by another (at most three).
"""

from __future__ import annotations

from e2e.tables import Choice, button_move, check_the_end, play_to_end, start_game, summary


def mamma_mia_policy(kind, rng, table) -> Choice:
    groups, buttons = kind["groups"], kind["buttons"]
    if not buttons:  # the phase-1 turn: toppings, maybe a recipe, the refill source
        radios = {}
        if "play" in groups:
            radios["play"] = rng.choice(groups["play"])["value"]
        if "recipe" in groups:
            recipes = [o["value"] for o in groups["recipe"] if o["value"]]
            radios["recipe"] = rng.choice(recipes) if recipes and rng.random() < 0.9 else ""
        if "draw" in groups:
            radios["draw"] = rng.choice(groups["draw"])["value"]
        if "move" in groups:  # Bombastica's many ways to add: a radio list
            return Choice(radios={"move": groups["move"][0]["value"]}, note="decision")
        return Choice(radios=radios, note="recipe-into-oven" if radios.get("recipe") else "")
    # Phase 2: the owner of a revealed recipe decides (bake one way or another, or keep the toppings).
    moves = [button_move(b) for b in buttons]
    bakes = [i for i, m in enumerate(moves) if m.get("type") == "bake"]
    declines = [i for i, m in enumerate(moves) if m.get("type") == "decline"]
    if declines and (not bakes or rng.random() < 0.25):
        return Choice(button=declines[0], note="decision")
    return Choice(button=rng.choice(bakes), note="decision")


def test_mamma_mia_three_players_to_the_end(player_factory, checker, findings, mailbox, stack):
    players = [player_factory("mia", "desktop"), player_factory("luigi", "phone"), player_factory("bea", "desktop")]
    for attempt in range(3):
        table = start_game(players, checker, findings, mailbox, stack.base_url,
                           slug="mamma-mia", seats=3, seed=10 + attempt)
        play_to_end(table, mamma_mia_policy)
        check_the_end(table, tie_breaks=True)
        if table.seen.get("decision"):
            break
    print(summary(table))
    assert table.seen.get("decision"), "no phase-2 decision in three games"
    assert table.seen.get("recipe-into-oven")
    assert table.keyboard_forms == table.form_kinds, "some move forms were not made by keyboard"
    assert table.live_updates, "no page updated by itself"
    assert table.mail_links_followed >= 1
