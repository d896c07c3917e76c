"""Live updates, the load generator's side (``python -m bench.live``, a plan as JSON on stdin, results on stdout).

Like ``bench.load`` it knows the site only as a browser does (no Django here); the runner makes the
pages' grants and cookies. Modes, each bounded in time:

``idle``     ``pages`` open game pages that nothing happens to, for ``duration`` seconds: either each
             polls its live partial every ``poll_seconds`` (``kind: poll``, the site before live
             updates: ``GET /games/<id>/table/?v=<token>`` -> 204) or each holds its stream
             (``kind: push``). Reports the CPU the whole stack spent per page and minute.
``latency``  ``idle`` streams of other games stay connected while moves are played one after another
             in a few two-seat games, each watched by both seats' pages and two spectators' pages
             (streams). A watcher that hears "game N is at version V" fetches its partial, as live.js
             does. Latency of a move = from its publish (the moment a Redis subscriber of the load
             generator hears it, right after the commit) until the last watcher has its new partial;
             also from the moment the move's POST was sent.
``streams``  ``count`` streams opened at once and held for ``hold`` seconds: how many came up, errors.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import resource
import sys
import time
from collections import Counter
from urllib.parse import quote, urlsplit

import aiohttp

from bench import cpu as cpu_time
from bench.load import Client, Stats, Table, is_loopback, percentiles, play_move

STREAM = "/live/stream/"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _session(limit: int = 0) -> aiohttp.ClientSession:
    # limit=0: as many connections as there are streams (a browser holds one per page).
    connector = aiohttp.TCPConnector(limit=limit)
    return aiohttp.ClientSession(connector=connector, cookie_jar=aiohttp.DummyCookieJar(),
                                 timeout=aiohttp.ClientTimeout(total=None, sock_connect=30))


class Stream:
    """One page's stream: parses Server-Sent Events, calls ``on_event(name, data)``."""

    def __init__(self, session: aiohttp.ClientSession, base: str, grant: str, counters: Counter,
                 on_event=None) -> None:
        self.session, self.url, self.counters, self.on_event = session, f"{base}{STREAM}?t={quote(grant)}", counters, \
            on_event
        self.ready = asyncio.Event()

    async def run(self, stop: asyncio.Event) -> None:
        try:
            async with self.session.get(self.url) as response:
                if response.status != 200:
                    self.counters[f"HTTP {response.status}"] += 1
                    return
                name = ""
                async for raw in response.content:
                    line = raw.decode().rstrip("\n")
                    if line.startswith("event: "):
                        name = line[7:]
                    elif line.startswith("data: "):
                        if name == "ready":
                            self.counters["ready"] += 1
                            self.ready.set()
                        elif self.on_event is not None:
                            self.on_event(name, json.loads(line[6:]))
                        else:
                            self.counters[f"event {name}"] += 1
                    elif line.startswith(": keep-alive"):
                        self.counters["keep-alives"] += 1
                    if stop.is_set():
                        return
        except asyncio.CancelledError:
            raise
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            self.counters[f"error {type(exc).__name__}"] += 1
        finally:
            self.ready.set()


async def open_streams(session, base: str, grants: list[str], counters: Counter, stop: asyncio.Event,
                       *, batch: int = 250) -> tuple[list[asyncio.Task], float]:
    """Open a stream per grant (``batch`` connecting at a time); (tasks, seconds until all were ready)."""
    started = time.perf_counter()
    tasks = []
    for start in range(0, len(grants), batch):
        streams = [Stream(session, base, grant, counters) for grant in grants[start:start + batch]]
        tasks += [asyncio.ensure_future(s.run(stop)) for s in streams]
        await asyncio.wait_for(asyncio.gather(*(s.ready.wait() for s in streams)), timeout=120)
    return tasks, time.perf_counter() - started


async def _close(tasks: list[asyncio.Task]) -> None:
    for task in tasks:
        task.cancel()
    if tasks:
        await asyncio.wait(tasks, timeout=10)


# idle ------------------------------------------------------------------------------------------


async def _poller(session, base: str, page: dict, period: float, stop: asyncio.Event, counters: Counter) -> None:
    headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in page["cookies"].items()), "HX-Request": "true"}
    url = f"{base}/games/{page['game']}/table/?v={quote(page['token'])}"
    await asyncio.sleep(random.uniform(0, period))  # pages were opened at different moments
    while not stop.is_set():
        try:
            async with session.get(url, headers=headers, allow_redirects=False) as response:
                await response.read()
                counters[f"HTTP {response.status}"] += 1
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            counters[f"error {type(exc).__name__}"] += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), timeout=period)


async def run_idle(plan: dict) -> dict:
    base, pages, duration, roots = plan["base"], plan["pages"], plan["duration"], plan.get("cpu_roots") or {}
    counters: Counter = Counter()
    stop = asyncio.Event()
    async with _session() as session:
        tasks = []
        if plan["kind"] == "none":  # the stack with no page open: its own idle cost (workers, beat, database)
            pass
        elif plan["kind"] == "poll":
            tasks = [asyncio.ensure_future(_poller(session, base, p, plan["poll_seconds"], stop, counters))
                     for p in pages]
            await asyncio.sleep(plan.get("warmup", 3.0) + plan["poll_seconds"])
        else:
            streams = plan.get("stream_base") or base
            tasks, _ = await open_streams(session, streams, [p["grant"] for p in pages], counters, stop)
            await asyncio.sleep(plan.get("warmup", 3.0))
        server0, cpu0, wall0 = cpu_time.snapshot(roots), _cpu(), time.perf_counter()
        before = dict(counters)
        await asyncio.sleep(duration)
        server = cpu_time.delta(server0, cpu_time.snapshot(roots))
        wall, client = time.perf_counter() - wall0, _cpu() - cpu0
        during = {k: v - before.get(k, 0) for k, v in counters.items()}
        stop.set()
        await _close(tasks)
    total = sum(server.values())
    baseline = plan.get("baseline_cpu_s_per_s")
    net = max(0.0, total - baseline * wall) if baseline is not None else None
    return {
        "kind": plan["kind"], "pages": len(pages), "wall_s": round(wall, 2), "server_cpu_s": server,
        "client_cpu_s": round(client, 3),
        "server_cpu_s_per_s": round(total / wall, 4),
        "server_cpu_ms_per_page_minute": round(1000 * total / len(pages) / (wall / 60), 3) if pages else None,
        # Less the stack's own idle cost (measured with no page open just before).
        "net_cpu_ms_per_page_minute": round(1000 * net / len(pages) / (wall / 60), 3)
        if pages and net is not None else None,
        "during": during, "errors": {k: v for k, v in counters.items() if k.startswith(("error", "HTTP 5"))},
    }


# latency ---------------------------------------------------------------------------------------


class Watched:
    """A game under test: its watchers' current tokens, and when each move's event and partials arrived."""

    def __init__(self, entry: dict) -> None:
        self.table = Table(entry)
        self.game = entry["game"]
        self.published: dict[int, float] = {}  # version -> when the load generator's subscriber heard it
        self.fetched: dict[int, list[float]] = {}  # version -> when each watcher had its partial
        self.heard: dict[int, list[float]] = {}  # version -> when each watcher's stream delivered the event
        self.waiting: dict[int, asyncio.Event] = {}


async def _watch(session, base: str, watched: Watched, watcher: dict, counters: Counter, stop: asyncio.Event,
                 ready: asyncio.Event, stream_base: str | None = None) -> None:
    headers = {"HX-Request": "true"}
    if watcher.get("cookies"):
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in watcher["cookies"].items())
    token = {"value": "none"}
    pending: set[asyncio.Task] = set()

    async def fetch(data: dict) -> None:
        url = f"{base}/games/{watched.game}/table/?v={quote(token['value'])}"
        try:
            async with session.get(url, headers=headers, allow_redirects=False) as response:
                await response.read()
                status = response.status
        except (TimeoutError, aiohttp.ClientError, OSError) as exc:
            counters[f"error {type(exc).__name__}"] += 1
            return
        counters[f"partial {status}"] += 1
        if status == 200:
            token["value"] = data["token"]
            watched.fetched.setdefault(data["version"], []).append(time.perf_counter())
            event = watched.waiting.get(data["version"])
            if event is not None and len(watched.fetched[data["version"]]) >= watcher["expected"]:
                event.set()

    def on_event(name: str, data: dict) -> None:
        if name == "game":
            watched.heard.setdefault(data["version"], []).append(time.perf_counter())
        if name == "game" and data["token"] != token["value"]:
            task = asyncio.ensure_future(fetch(data))
            pending.add(task)
            task.add_done_callback(pending.discard)

    stream = Stream(session, stream_base or base, watcher["grant"], counters, on_event)
    runner = asyncio.ensure_future(stream.run(stop))
    await stream.ready.wait()
    ready.set()
    await runner


async def _subscribe(redis_url: str, channels: dict[str, Watched], stop: asyncio.Event,
                     subscribed: asyncio.Event) -> None:
    """The load generator's own Redis subscriber: when each move was published (right after its commit)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis_url)
    pubsub = client.pubsub(ignore_subscribe_messages=True)
    await pubsub.subscribe(*channels)
    subscribed.set()
    try:
        while not stop.is_set():
            message = await pubsub.get_message(timeout=0.2)
            if message is None:
                continue
            at = time.perf_counter()
            watched = channels[message["channel"].decode()]
            version = max(watched.published, default=0) + 1
            watched.published.setdefault(version, at)
    finally:
        await pubsub.aclose()
        await client.aclose()


async def run_latency(plan: dict) -> dict:
    """Moves posted to ``base``; the pages watching them (streams and partials) on ``stream_base``, another
    server of the same site in the scale-out (issue 33), else the same."""
    base, roots = plan["base"], plan.get("cpu_roots") or {}
    # Where the watching pages hold their streams and fetch their partials: the ASGI side and the pages' server
    # when they are split (issue 33's server tax), another host in the scale-out.
    watch_base = plan.get("stream_base") or base
    watch_pages = plan.get("watch_page_base") or base
    counters: Counter = Counter()
    stop = asyncio.Event()
    rng = random.Random(plan.get("seed", 1))
    games = [Watched(g["entry"]) for g in plan["games"]]
    for watched, spec in zip(games, plan["games"], strict=True):
        watched.published[spec["version"]] = 0.0  # the version the game is at now
    async with _session() as session:
        idle_tasks, idle_seconds = await open_streams(session, watch_base, plan["idle_grants"], counters, stop)
        channels = {f"{plan['prefix']}__group__game.{w.game}": w for w in games}
        subscribed = asyncio.Event()
        subscriber = asyncio.ensure_future(_subscribe(plan["redis_url"], channels, stop, subscribed))
        await subscribed.wait()
        watcher_tasks = []
        for watched, spec in zip(games, plan["games"], strict=True):
            for watcher in spec["watchers"]:
                ready = asyncio.Event()
                watcher_tasks.append(asyncio.ensure_future(
                    _watch(session, watch_pages, watched, watcher, counters, stop, ready, stream_base=watch_base)))
                await asyncio.wait_for(ready.wait(), timeout=30)
        await asyncio.sleep(1.0)
        stats = Stats(measuring=False)
        client = Client(base, session, stats, time.monotonic() + plan["duration"] + 60)
        from_publish, from_post, delivered, missed = [], [], [], 0
        server0, cpu0 = cpu_time.snapshot(roots), _cpu()
        started = time.perf_counter()
        for _ in range(plan["moves"]):
            if time.perf_counter() - started > plan["duration"]:
                break
            watched = rng.choice([w for w in games if not w.table.over] or games)
            version = max(watched.published)
            watched.waiting[version + 1] = done = asyncio.Event()
            posted = time.perf_counter()
            moved = await play_move(client, watched.table, rng)
            if not moved:
                watched.waiting.pop(version + 1, None)
                continue
            try:
                await asyncio.wait_for(done.wait(), timeout=5)
            except TimeoutError:
                missed += 1
                continue
            last = max(watched.fetched[version + 1])
            published = watched.published.get(version + 1)
            if published:
                from_publish.append(last - published)
                delivered.append(max(watched.heard.get(version + 1, [published])) - published)
            from_post.append(last - posted)
            await asyncio.sleep(rng.uniform(0.05, 0.25))  # moves one after another, not a throughput test
        wall = time.perf_counter() - started
        server = cpu_time.delta(server0, cpu_time.snapshot(roots))
        client_cpu = _cpu() - cpu0
        stop.set()
        await _close(idle_tasks + watcher_tasks + [subscriber])
    return {
        "idle_streams": len(plan["idle_grants"]), "idle_connect_s": round(idle_seconds, 2),
        "watchers_per_game": len(plan["games"][0]["watchers"]) if plan["games"] else 0, "games": len(games),
        "moves": len(from_publish), "missed": missed, "wall_s": round(wall, 2), "server_cpu_s": server,
        "client_cpu_s": round(client_cpu, 3),
        "from_publish": percentiles(from_publish), "from_post": percentiles(from_post),
        # The part of it until the last watcher's stream delivered the event (the rest: fetching partials).
        "event_delivered": percentiles(delivered),
        "counters": dict(counters), "move_errors": dict(stats.errors),
    }


# streams ---------------------------------------------------------------------------------------


async def run_streams(plan: dict) -> dict:
    counters: Counter = Counter()
    stop = asyncio.Event()
    async with _session() as session:
        tasks, seconds = await open_streams(session, plan.get("stream_base") or plan["base"], plan["grants"],
                                            counters, stop)
        up = counters["ready"]
        # The runner reads the web processes' memory now (it waits for this line on stderr).
        print(json.dumps({"up": up}), file=sys.stderr, flush=True)
        await asyncio.sleep(plan["hold"])
        alive = sum(1 for t in tasks if not t.done())
        stop.set()
        await _close(tasks)
    return {"opened": len(plan["grants"]), "ready": up, "alive_after_hold": alive, "connect_s": round(seconds, 2),
            "hold_s": plan["hold"], "errors": {k: v for k, v in counters.items() if k.startswith(("error", "HTTP"))}}


def main() -> int:
    plan = json.load(sys.stdin)
    targets = (plan["base"], plan.get("stream_base") or plan["base"])
    host = next((h for h in (urlsplit(t).hostname for t in targets) if not is_loopback(h)), None)
    if host is not None:
        print(f"refusing to load {host!r}: loopback only", file=sys.stderr)
        return 2
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    runner = {"idle": run_idle, "latency": run_latency, "streams": run_streams}[plan["mode"]]
    result = asyncio.run(runner(plan))
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
