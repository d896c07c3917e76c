"""Choices lost to a refusal in a game with bots (issue 32's "Done when" figure), counted, not timed.

One person plays each game against bots over HTTP, as a player does: open the game page (GET, the page's
version and idempotency key), choose one of the moves it offers (seeded), and while they choose the bots move
(the bot task, held back from the broker, is run between the page load and the post: a person takes seconds,
a bot task a fraction of one), then send the move from the page as loaded. The page is not refreshed in
between (a phone's tab in the background, or a choice already half made: the live update would otherwise
bring a fresh form). With ``--devices 2`` the person has the game open on a phone and a desktop: each turn they open
it on one (the e-mail's link) and half the time answer from the other, as it was last loaded (reloaded first
with probability ``--reload``), as people do who look at a game on one device and answer on another.
What the site answers is counted:

- ``applied``: the move was played (302);
- ``asked``: refused with "X changed since you chose — still play Y?" — one tap ("Send") plays it; the
  choice is not lost;
- ``lost``: refused with the choice gone ("The game has moved on since you loaded the page", or "your move
  is no longer possible"): the player chooses again.

Run in any checkout (the code before issue 32's stale-page work too: the script uses only what both have),
on a database of its own (it creates ``test_<name>`` from DATABASE_URL and keeps it)::

    DJANGO_SETTINGS_MODULE=tests.settings CELERY_TASK_ALWAYS_EAGER=1 python -m bench.stale_choices \\
        --games 3 --players 3 [--devices 2] --out result.json
"""

from __future__ import annotations

import argparse
import html
import json
import random
import re
import sys
import uuid
from collections import Counter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per game type")
    parser.add_argument("--players", type=int, default=3, help="seats per game (one person, the rest bots)")
    parser.add_argument("--seed", type=int, default=1, help="the person's choices")
    parser.add_argument("--slugs", default="konamon,marumiere,mamma-mia")
    parser.add_argument("--devices", type=int, default=1,
                        help="pages the person plays from (2: a phone and a desktop, each left as it was loaded)")
    parser.add_argument("--reload", type=float, default=0.5,
                        help="with several pages: how often the other page is reloaded before moving from it")
    parser.add_argument("--out", default="")
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    setup_test_environment()
    connection.creation.create_test_db(verbosity=0, keepdb=True)

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from games.lobby.services import create_game
    from games.models import Game, Seat, SeatView
    from games.play.services import play_bot_turns
    from games.tasks import play_bot_moves

    play_bot_moves.apply_async = lambda *a, **k: None  # the harness runs the bots when a person would be choosing

    def bots_move(game_id: int) -> int:
        played = 0
        for _ in range(1000):
            game = Game.objects.get(pk=game_id)
            if game.status != "active" or not Seat.objects.filter(game=game, awaited=True, is_bot=True).exists():
                break
            moved = play_bot_turns(game_id=game_id, expected_version=None)
            if not moved:
                break
            played += moved
        return played

    def hidden(page: str, name: str) -> str:
        found = re.search(rf'name="{name}" value="([^"]*)"', page)
        return found.group(1) if found else ""

    def load(client: Client, page_url: str, game: Game, seat: Seat) -> dict:
        """What a page the person opens shows: its version, idempotency key and the moves it offers."""
        text = client.get(page_url, secure=True).content.decode()
        offers = 'name="version"' in text
        return {"version": hidden(text, "version"), "key": hidden(text, "idempotency_key"),
                "legal": SeatView.objects.get(game=game, seat_number=seat.number).legal_moves if offers else []}

    rng = random.Random(args.seed)
    user_model = get_user_model()
    results: dict = {}
    for slug in args.slugs.split(","):
        counts: Counter = Counter()
        for _number in range(args.games):
            name = f"sc{uuid.uuid4().hex[:12]}"
            user = user_model.objects.create_user(username=name, email=f"{name}@example.com", password="x")
            client = Client()
            client.force_login(user)
            game = create_game(user=user, engine_slug=slug, players=args.players, bots=args.players - 1)
            seat = Seat.objects.get(game=game, user=user)
            page_url, move_url = reverse("game", args=[game.pk]), reverse("game-move", args=[game.pk])
            pages: list[dict | None] = [None] * args.devices  # what each of the person's pages shows
            for _ in range(3000):
                game.refresh_from_db()
                if game.status != "active":
                    break
                legal_now = SeatView.objects.get(game=game, seat_number=seat.number).legal_moves
                if not legal_now:  # not the person's move: the bots play, the pages update
                    if not bots_move(game.pk):
                        raise SystemExit(f"{slug}: nobody can move in game {game.pk}")
                    continue
                looked = rng.randrange(args.devices)  # where the person opens the game (the e-mail's link)
                page = pages[looked] = load(client, page_url, game, seat)
                device = looked
                if args.devices > 1 and rng.random() < 0.5:  # and answers from the other one
                    device = rng.choice([d for d in range(args.devices) if d != looked])
                    page = pages[device]
                    if page is None or not page["legal"] or rng.random() < args.reload:
                        page = pages[device] = load(client, page_url, game, seat)
                if not page["legal"]:
                    continue
                counts["stale_page"] += page["version"] != str(game.version)
                choice = rng.choice(page["legal"])
                data = {"version": page["version"], "idempotency_key": page["key"], "move": json.dumps(choice)}
                counts["bot_moves_while_choosing"] += bool(bots_move(game.pk))  # they choose; the bots move
                counts["sent"] += 1
                answer = client.post(move_url, data, secure=True)
                pages[device] = None  # the answer is a page of its own; the page sent from reloads
                if answer.status_code in (301, 302, 303):
                    counts["applied"] += 1
                    continue
                if answer.status_code != 409:
                    counts[f"status_{answer.status_code}"] += 1
                    continue
                counts["refused"] += 1
                body = answer.content.decode()
                if "data-stale-confirm" in body:  # "still play Y?": one tap on Send
                    counts["asked"] += 1
                    form = body[body.index('id="stale-answer"'):]
                    form = form[: form.index("</form>")]
                    fields = {name: html.unescape(value) for name, value
                              in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form)}
                    again = client.post(move_url, fields, secure=True)
                    counts["asked_then_applied"] += again.status_code in (301, 302, 303)
                    if again.status_code not in (301, 302, 303):
                        print(f"{slug}: 'Send' on 'still play it?' answered {again.status_code}", file=sys.stderr)
                else:
                    counts["lost"] += 1
            counts["games"] += 1
            counts["finished"] += Game.objects.get(pk=game.pk).status == "finished"
        results[slug] = dict(counts)
        print(slug, dict(counts), flush=True)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as out:
            json.dump({"players": args.players, "games": args.games, "seed": args.seed, "devices": args.devices,
                       "reload": args.reload, "results": results}, out,
                      indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
