"""Marumiere's card backs are sized afresh every round (issue 14): existing games take the new sizes.

Before, each card had one size factor in [0.92, 1.08] for the whole game and sizes had 2 decimals,
so a back could be read too precisely and a card seen face up was recognised in every later round.
The engine now draws the factors in [0.85, 1.15] each round from the game's seed and the round
(``round_sizes``, a stream of its own: the deals of a game are unchanged), with 1 decimal.

This migration gives every stored Marumiere state the sizes of its current round as the engine now
draws them, and writes them into every stored view (by position: rows, pile tops, the trick), so a
stored game is exactly what replaying its moves with the new engine gives (``check_snapshots`` stays
clean) and every page, label and e-mail states sizes with 1 decimal from now on. Ongoing games see
their backs change once, at the deployment. Nothing else in a state depends on the sizes (legal
moves, scores and logs do not), so the games go on as they were.

The reverse is a no-op: the engine before this change plays any sizes it finds in ``state["sizes"]``.
"""

import hashlib
import random

from django.db import migrations

# The engine's data when this migration was written (not imported: a migration must keep doing what
# it did when the engines change): games/engines/data/marumiere.json.
COLOURS = ("red", "blue", "yellow", "green")
NUMBERS = range(1, 10)
CARDS = tuple(f"{colour}-{number}" for colour in COLOURS for number in NUMBERS)
SIZE_FACTOR = (0.85, 1.15)
SIZE_DECIMALS = 1


def round_sizes(seed, round_number: int) -> dict[str, float]:
    """The engine's ``round_sizes``: each card's back size in that round of the game of ``seed``."""
    digest = hashlib.sha256(f"{seed}:backs:{round_number}".encode()).digest()
    rng = random.Random(int.from_bytes(digest[:16], "big"))
    low, high = SIZE_FACTOR
    return {
        card: round(int(card.rsplit("-", 1)[1]) * rng.uniform(low, high), SIZE_DECIMALS) for card in CARDS
    }


def resized_view(view: dict, state: dict, sizes: dict[str, float]) -> dict:
    """A stored view (without its log) with every back's size taken from ``sizes``, card by position."""
    view = dict(view)
    rows = state["rows"]
    if isinstance(view.get("rows"), list):
        view["rows"] = [
            [{**card, "size": sizes[rows[owner][pos]]} for pos, card in enumerate(row)]
            for owner, row in enumerate(view["rows"])
        ]
    if isinstance(view.get("piles"), list):
        view["piles"] = [
            {**pile, "top": {**pile["top"], "size": sizes[state["piles"][index][0]]}}
            for index, pile in enumerate(view["piles"])
        ]
    if isinstance(view.get("trick"), list):
        view["trick"] = [{**entry, "size": sizes[rows[entry["seat"]][entry["position"]]]} for entry in view["trick"]]
    return view


def backs_per_round(apps, schema_editor):
    GameState = apps.get_model("games", "GameState")
    SeatView = apps.get_model("games", "SeatView")
    rows = GameState.objects.filter(game__engine_slug="marumiere", state__isnull=False)
    for row in rows.iterator(chunk_size=200):
        state = row.state
        if not isinstance(state, dict) or "sizes" not in state:
            continue
        sizes = round_sizes(state["seed"], state["round"])
        if state["sizes"] == sizes:
            continue  # already sized by the new engine
        row.state = {**state, "sizes": sizes}
        row.save(update_fields=["state"])
        for seat_view in SeatView.objects.filter(game_id=row.game_id):
            seat_view.view = resized_view(seat_view.view, state, sizes)
            seat_view.save(update_fields=["view"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_state_log_chunks"),
    ]

    operations = [
        migrations.RunPython(backs_per_round, migrations.RunPython.noop),
    ]
