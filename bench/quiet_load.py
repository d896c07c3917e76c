"""Players who behave as the game page's script does, for ``bench.quiet`` (issue 34): the client side.

Run by the runner as its own process (its CPU apart from the stack's); a plan (JSON) on stdin, results (JSON) on
stdout. No Django here. A player *at the table* holds the live stream of each of its game pages open (as the page
does, ``bench.live.Stream``) and, on each "game" event, fetches the page's live partial (``/games/<id>/table/``),
which is what tells the site the position was shown; it plays through the pages (``bench.load.play_move``: load
the page, fill in its move form, POST, follow the redirect). A player *away* does nothing at all: no stream, no page.

Modes:

``closed`` / ``open``  ``bench.load``'s closed and open loops over ``pool``, with the streams of ``watchers``
                        (pool users at the table) held open meanwhile.
``whole``              each game of ``tables`` played to its end by its players at the table; a seat listed in
                        ``away`` never moves nor looks (the game stops when it awaits that seat).
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import time
from collections import Counter
from urllib.parse import quote

import aiohttp

from bench import live as live_client
from bench import load
from bench.pages import game_over, move_forms


class Watcher:
    """One user's page of one game at the table: its stream open, its partial fetched on every event."""

    def __init__(self, session: aiohttp.ClientSession, *, base: str, stream_base: str, game: int, grant: str,
                 cookies: dict, counters: Counter) -> None:
        self.session, self.base, self.game, self.counters = session, base, game, counters
        self.headers = {"HX-Request": "true", "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())}
        self.token = "none"
        self.pending: set[asyncio.Task] = set()
        self.stream = live_client.Stream(session, stream_base, grant, counters, self.on_event)

    def on_event(self, name: str, data: dict) -> None:
        if name == "game" and data.get("token") != self.token:
            task = asyncio.ensure_future(self.fetch(data))
            self.pending.add(task)
            task.add_done_callback(self.pending.discard)

    async def fetch(self, data: dict) -> None:
        url = f"{self.base}/games/{self.game}/table/?v={quote(self.token)}"
        try:
            async with self.session.get(url, headers=self.headers, allow_redirects=False) as response:
                await response.read()
                status = response.status
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            self.counters[f"partial error {type(exc).__name__}"] += 1
            return
        self.counters[f"partial {status}"] += 1
        if status == 200:
            self.token = data["token"]


async def hold_streams(plan: dict, stop: asyncio.Event) -> tuple[list[asyncio.Task], Counter, aiohttp.ClientSession]:
    """Open every watcher's stream (all ready before play starts); their tasks run until ``stop``."""
    counters: Counter = Counter()
    session = live_client._session()
    watchers = [
        Watcher(session, base=plan["base"], stream_base=plan.get("stream_base") or plan["base"], game=w["game"],
                grant=w["grant"], cookies=w["cookies"], counters=counters)
        for w in plan.get("watchers", [])
    ]
    tasks = [asyncio.ensure_future(w.stream.run(stop)) for w in watchers]
    if watchers:
        await asyncio.wait_for(asyncio.gather(*(w.stream.ready.wait() for w in watchers)), timeout=120)
    return tasks, counters, session


async def play_to_the_end(client: load.Client, entry: dict, away: set[int], rng: random.Random,
                          timeline: dict) -> dict:
    """Play one game by its seats at the table (seat 0 and 1 of ``entry``), never as a seat in ``away``."""
    table = load.Table(entry)
    moves = stalls = 0
    while True:
        seat = None
        for candidate in (0, 1):
            if candidate in away:
                continue
            table.pages[candidate] = await client.get_page(table.users[candidate], table.path)
            if move_forms(table.pages[candidate] or ""):
                seat = candidate
                break
        if seat is None:
            if any(game_over(page or "") for page in table.pages if page):
                return {"game": entry["game"], "moves": moves, "over": True, "stalls": stalls}
            if away:
                # Waiting on the away seat (or on a bot's answer a moment): look again briefly, then stop.
                stalls += 1
                if stalls > 20:
                    return {"game": entry["game"], "moves": moves, "over": False, "stalls": stalls,
                            "stopped_at": time.time()}
                await asyncio.sleep(0.5)
                continue
            stalls += 1
            if stalls > 200:
                return {"game": entry["game"], "moves": moves, "over": False, "stalls": stalls}
            await asyncio.sleep(0.2)
            continue
        stalls = 0
        form = rng.choice(move_forms(table.pages[seat]))
        status, _location, _body = await client.post(table.users[seat], form.action, form.fill(rng))
        if status in (301, 302, 303):
            moves += 1
            timeline.setdefault(entry["game"], []).append(time.time())
        else:
            client.stats.errors[f"POST {status}"] += 1
        await asyncio.sleep(0.05)  # a person's hand, not a script's: the streams hear the move first


async def run(plan: dict) -> dict:
    stop = asyncio.Event()
    tasks, counters, session = await hold_streams(plan, stop)
    started = time.perf_counter()
    try:
        if plan["mode"] in ("closed", "open"):
            runner = load.run_closed if plan["mode"] == "closed" else load.run_open
            result = await runner(plan)
        else:
            stats = load.Stats()
            timeline: dict = {}
            async with load._session(8) as http:
                client = load.Client(plan["base"], http, stats, time.monotonic() + plan.get("budget_s", 900))
                games = await asyncio.gather(*(
                    play_to_the_end(client, entry, set(entry.get("away", [])), random.Random(n), timeline)
                    for n, entry in enumerate(plan["tables"])
                ))
            result = {"mode": "whole", "games": games, "errors": dict(stats.errors),
                      "seconds": round(time.perf_counter() - started, 1)}
        # The streams stay open a moment after the last move, as a page stays open after a player's move.
        await asyncio.sleep(plan.get("linger_s", 2.0))
    finally:
        stop.set()
        await live_client._close(tasks)
        await session.close()
    result["streams"] = {k: v for k, v in counters.items() if k != "keep-alives"}
    return result


def main() -> int:
    plan = json.load(sys.stdin)
    if not load.is_loopback(plan["base"].split("//", 1)[-1].split(":", 1)[0]):
        print("loopback only", file=sys.stderr)
        return 2
    json.dump(asyncio.run(run(plan)), sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
