"""The load generator: a small asyncio + aiohttp client that plays through the real pages.

Run by the runner as its own process (so its CPU is measured apart from the
server's); reads a plan (JSON) on stdin and prints results (JSON) on stdout.
No Django here: it knows the site only as a browser does, from its HTML.

Players. A plan's ``pool`` lists two-seat games, each with its two users'
cookies (a session made for the user, a CSRF secret, the language). A
simulated player holds one game and both of its users, and plays whichever
seat the game awaits: load that seat's game page, fill in the move form the
page shows (a random button, random radios, the hidden version and key),
POST it, follow the redirect. When its game ends it takes the next one from
the pool.

Modes (every loop is bounded in time and in request count, and stops by itself):

``ceiling``  N users POST the bench-only ``/bench/ceiling/<row>/`` in a closed loop.
``closed``   N players, no think time: moves/s and pages/s.
``open``     Poisson arrivals at a fixed offered load (moves/s and page views/s):
             latency percentiles of the move POST and of the game page GET.

Only ``127.0.0.1`` / ``localhost`` / ``::1`` are accepted as targets.
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import aiohttp

from bench import cpu as cpu_time
from bench.pages import MoveForm, game_over, move_forms

LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def is_loopback(host: str | None) -> bool:
    """``localhost`` or an address of the loopback network (127.0.0.2 and .3 stand for two hosts, issue 33)."""
    import ipaddress

    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host or "").is_loopback
    except ValueError:
        return False
MAX_REQUESTS = 2_000_000  # a hard cap on any one run, whatever the plan says
REQUEST_TIMEOUT = 30.0
MAX_REFUSALS_IN_A_ROW = 8

class BudgetSpent(Exception):
    """The run's deadline or request cap is reached: every loop stops."""


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def pick(q: float) -> float:
        index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
        return round(ordered[index] * 1000, 2)

    return {
        "n": len(ordered),
        "p50_ms": pick(0.50),
        "p95_ms": pick(0.95),
        "p99_ms": pick(0.99),
        "max_ms": round(ordered[-1] * 1000, 2),
        "mean_ms": round(1000 * sum(ordered) / len(ordered), 2),
    }


# Users and stats --------------------------------------------------------------------------


@dataclass
class User:
    cookies: dict[str, str]

    def header(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}

    def update(self, response: aiohttp.ClientResponse) -> None:
        for name, morsel in response.cookies.items():
            if morsel.value:
                self.cookies[name] = morsel.value
            else:
                self.cookies.pop(name, None)


@dataclass
class Stats:
    measuring: bool = False
    moves: int = 0
    pages: int = 0
    posts: int = 0
    requests: int = 0
    refused: int = 0
    errors: Counter = field(default_factory=Counter)
    games_finished: int = 0
    stalls: int = 0
    move_latency: list[float] = field(default_factory=list)
    page_latency: list[float] = field(default_factory=list)
    post_latency: list[float] = field(default_factory=list)


class Client:
    def __init__(self, base: str, session: aiohttp.ClientSession, stats: Stats, deadline: float) -> None:
        self.base, self.session, self.stats, self.deadline = base, session, stats, deadline

    def _check_budget(self) -> None:
        self.stats.requests += 1
        if self.stats.requests > MAX_REQUESTS or time.monotonic() > self.deadline:
            raise BudgetSpent()

    async def get_page(self, user: User, path: str, started: float | None = None) -> str:
        self._check_budget()
        started = started or time.perf_counter()
        async with self.session.get(self.base + path, headers=user.header(), allow_redirects=False) as response:
            body = await response.text()
            user.update(response)
        elapsed = time.perf_counter() - started
        if response.status != 200:
            self.stats.errors[f"GET {response.status}"] += 1
            return ""
        if self.stats.measuring:
            self.stats.pages += 1
            self.stats.page_latency.append(elapsed)
        return body

    async def post(self, user: User, path: str, data, started: float | None = None) -> tuple[int, str, str]:
        """(status, Location, body) of a form POST, the redirect not followed."""
        self._check_budget()
        started = started or time.perf_counter()
        async with self.session.post(self.base + path, data=data, headers=user.header(),
                                     allow_redirects=False) as response:
            body = await response.text()
            user.update(response)
        elapsed = time.perf_counter() - started
        if self.stats.measuring:
            self.stats.posts += 1
            self.stats.post_latency.append(elapsed)
        return response.status, response.headers.get("Location", ""), body


# A game played by one simulated player -----------------------------------------------------


class Table:
    """One two-seat game and its two users; cached pages per seat."""

    def __init__(self, entry: dict) -> None:
        self.game = entry["game"]
        self.path = f"/games/{self.game}/"
        self.users = [User(dict(u["cookies"])) for u in entry["users"]]
        self.pages: list[str | None] = [None, None]
        self.busy = False
        self.over = False

    def form_of(self, seat: int) -> list[MoveForm]:
        page = self.pages[seat]
        return move_forms(page) if page else []

    def seat_with_form(self) -> int | None:
        for seat in (0, 1):
            if self.form_of(seat):
                return seat
        return None


async def play_move(client: Client, table: Table, rng: random.Random, *, started: float | None = None) -> bool:
    """One move of ``table``: load pages until a seat has a form, POST it, follow the redirect.

    False when the game turned out to be over (or unplayable).
    """
    seat = table.seat_with_form()
    if seat is None:
        for candidate in (0, 1):
            table.pages[candidate] = await client.get_page(table.users[candidate], table.path)
            if table.form_of(candidate):
                seat = candidate
                break
        if seat is None:
            if any(game_over(page or "") for page in table.pages):
                table.over = True
                client.stats.games_finished += 1
            else:
                client.stats.stalls += 1
            return False
    user = table.users[seat]
    for _attempt in range(MAX_REFUSALS_IN_A_ROW):
        forms = table.form_of(seat)
        if not forms:
            return True  # the refusal page shows no form: try the other seat next time
        form = rng.choice(forms)
        move_started = started or time.perf_counter()
        status, location, body = await client.post(user, form.action, form.fill(rng), started=move_started)
        started = None
        if status in (301, 302, 303):
            page = await client.get_page(user, urlsplit(location).path or table.path)
            table.pages[seat] = page
            other = 1 - seat
            table.pages[other] = None  # the other seat must load its page again
            if client.stats.measuring:
                client.stats.moves += 1
                client.stats.move_latency.append(time.perf_counter() - move_started)
            return True
        client.stats.refused += 1
        client.stats.errors[f"POST {status}"] += 1
        table.pages[seat] = body if status < 500 else None
        if status >= 500 or status == 404:
            return True
    return True


class Pool:
    def __init__(self, entries: list[dict]) -> None:
        self.entries = list(entries)
        self.next = 0

    def take(self) -> Table | None:
        if self.next >= len(self.entries):
            return None
        self.next += 1
        return Table(self.entries[self.next - 1])


async def closed_player(client: Client, pool: Pool, rng: random.Random, stop: asyncio.Event) -> None:
    table = pool.take()
    while table is not None and not stop.is_set():
        try:
            await play_move(client, table, rng)
        except BudgetSpent:
            return
        except (TimeoutError, aiohttp.ClientError) as exc:
            client.stats.errors[type(exc).__name__] += 1
            await asyncio.sleep(0.05)
        if table.over:
            table = pool.take()


async def ceiling_user(client: Client, user: User, row: int, stop: asyncio.Event) -> None:
    path = f"/bench/ceiling/{row}/"
    token = user.cookies["csrftoken"]
    while not stop.is_set():
        try:
            status, _location, _body = await client.post(user, path, {"csrfmiddlewaretoken": token})
        except BudgetSpent:
            return
        except (TimeoutError, aiohttp.ClientError) as exc:
            client.stats.errors[type(exc).__name__] += 1
            await asyncio.sleep(0.05)
            continue
        if status == 302:
            if client.stats.measuring:
                client.stats.moves += 1
        else:
            client.stats.errors[f"POST {status}"] += 1


async def page_viewer(client: Client, user: User, path: str, stop: asyncio.Event) -> None:
    """The same game page again and again (its board cached after the first): the server's share of a page."""
    while not stop.is_set():
        try:
            page = await client.get_page(user, path)
        except BudgetSpent:
            return
        except (TimeoutError, aiohttp.ClientError) as exc:
            client.stats.errors[type(exc).__name__] += 1
            await asyncio.sleep(0.05)
            continue
        if page and client.stats.measuring:
            client.stats.moves += 1  # counted as the run's unit, like the ceiling's requests


# Runs -------------------------------------------------------------------------------------------


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def _measure(stats: Stats, warmup: float, duration: float, stop: asyncio.Event,
                   roots: dict | None = None) -> dict:
    """The measured window: wall time, this process's CPU, and the CPU of the stack's process trees."""
    roots = roots or {}
    await asyncio.sleep(warmup)
    stats.measuring = True
    server0 = cpu_time.snapshot(roots)
    cpu0, wall0 = _cpu(), time.perf_counter()
    await asyncio.sleep(duration)
    stats.measuring = False
    cpu, wall = _cpu() - cpu0, time.perf_counter() - wall0
    server = cpu_time.delta(server0, cpu_time.snapshot(roots))
    stop.set()
    return {"wall_s": round(wall, 3), "client_cpu_s": round(cpu, 3), "client_cpu_share": round(cpu / wall, 3),
            "server_cpu_s": server, "server_cpu_share": round(sum(server.values()) / wall, 3)}


def _summary(stats: Stats, window: dict) -> dict:
    wall = window["wall_s"]
    server_cpu = sum(window.get("server_cpu_s", {}).values())
    return {
        # What one move (its POST and the page loads around it) costs the whole stack in CPU time.
        "server_cpu_ms_per_move": round(1000 * server_cpu / stats.moves, 2) if stats.moves and server_cpu else None,
        **window,
        "moves": stats.moves,
        "pages": stats.pages,
        "posts": stats.posts,
        "moves_per_s": round(stats.moves / wall, 1),
        "pages_per_s": round(stats.pages / wall, 1),
        "refused": stats.refused,
        "errors": dict(stats.errors),
        "games_finished": stats.games_finished,
        "stalls": stats.stalls,
        "move_flow": percentiles(stats.move_latency),
        "move_post": percentiles(stats.post_latency),
        "game_page": percentiles(stats.page_latency),
    }


def _session(concurrency: int) -> aiohttp.ClientSession:
    connector = aiohttp.TCPConnector(limit=max(16, concurrency * 2), force_close=True)
    timeout = aiohttp.ClientTimeout(total=REQUEST_TIMEOUT)
    return aiohttp.ClientSession(connector=connector, timeout=timeout, cookie_jar=aiohttp.DummyCookieJar())


async def run_closed(plan: dict) -> dict:
    players, warmup, duration = plan["players"], plan["warmup"], plan["duration"]
    stats, stop = Stats(), asyncio.Event()
    deadline = time.monotonic() + warmup + duration + 30
    pool = Pool(plan["pool"])
    async with _session(players) as session:
        # Several servers (the scale-out, issue 33): the players take them in turn.
        clients = [Client(base, session, stats, deadline) for base in plan.get("bases") or [plan["base"]]]
        tasks = [
            asyncio.create_task(closed_player(clients[i % len(clients)], pool, random.Random(i), stop))
            for i in range(players)
        ]
        window = await _measure(stats, warmup, duration, stop, plan.get("cpu_roots"))
        await _finish(tasks)
    return {"mode": "closed", "players": players, "games_used": pool.next, **_summary(stats, window)}


async def run_ceiling(plan: dict) -> dict:
    users = plan["users"][: plan["players"]]
    stats, stop = Stats(), asyncio.Event()
    deadline = time.monotonic() + plan["warmup"] + plan["duration"] + 30
    async with _session(len(users)) as session:
        client = Client(plan["base"], session, stats, deadline)
        tasks = [
            asyncio.create_task(ceiling_user(client, User(dict(u["cookies"])), u["row"], stop)) for u in users
        ]
        window = await _measure(stats, plan["warmup"], plan["duration"], stop, plan.get("cpu_roots"))
        await _finish(tasks)
    summary = _summary(stats, window)
    return {"mode": "ceiling", "players": len(users), **summary, "requests_per_s": summary["moves_per_s"]}


async def run_pages(plan: dict) -> dict:
    """N users, each loading one game page of theirs in a closed loop: pages/s and stack CPU per page."""
    entries = plan["pool"][: plan["players"]]
    stats, stop = Stats(), asyncio.Event()
    deadline = time.monotonic() + plan["warmup"] + plan["duration"] + 30
    async with _session(len(entries)) as session:
        client = Client(plan["base"], session, stats, deadline)
        tasks = [
            asyncio.create_task(page_viewer(client, User(dict(entry["users"][0]["cookies"])),
                                            f"/games/{entry['game']}/", stop))
            for entry in entries
        ]
        window = await _measure(stats, plan["warmup"], plan["duration"], stop, plan.get("cpu_roots"))
        await _finish(tasks)
    summary = _summary(stats, window)
    return {"mode": "pages", "players": len(entries), **summary, "pages_per_s": summary["moves_per_s"],
            "server_cpu_ms_per_page": summary["server_cpu_ms_per_move"]}


async def run_open(plan: dict) -> dict:
    """Poisson arrivals of moves and page views at fixed rates, whatever the server's pace."""
    move_rate, page_rate = plan["moves_per_s"], plan["pages_per_s"]
    warmup, duration = plan["warmup"], plan["duration"]
    rng = random.Random(plan.get("seed", 1))
    stats, stop = Stats(), asyncio.Event()
    deadline = time.monotonic() + warmup + duration + 30
    pool = Pool(plan["pool"])
    tables = [t for t in (pool.take() for _ in range(plan["games"])) if t is not None]
    skipped = Counter()
    inflight: set[asyncio.Task] = set()
    async with _session(64) as session:
        client = Client(plan["base"], session, stats, deadline)
        # Every seat's page once, before the clock starts.
        pages = await asyncio.gather(*(client.get_page(t.users[s], t.path) for t in tables for s in (0, 1)))
        for index, table in enumerate(tables):
            table.pages = [pages[2 * index], pages[2 * index + 1]]

        async def page_view(scheduled: float) -> None:
            stale = [(t, s) for t in tables for s in (0, 1) if t.pages[s] is None and not t.busy and not t.over]
            table, seat = rng.choice(stale) if stale else (rng.choice(tables), rng.randrange(2))
            try:
                page = await client.get_page(table.users[seat], table.path, started=scheduled)
            except (aiohttp.ClientError, TimeoutError, BudgetSpent) as exc:
                stats.errors[type(exc).__name__] += 1
                return
            if not table.busy:
                table.pages[seat] = page

        async def move(scheduled: float) -> None:
            ready = [t for t in tables if not t.busy and not t.over and t.seat_with_form() is not None]
            if not ready:
                skipped["no game ready"] += 1
                return
            table = rng.choice(ready)
            table.busy = True
            try:
                await play_move(client, table, rng, started=scheduled)
            except (aiohttp.ClientError, TimeoutError, BudgetSpent) as exc:
                stats.errors[type(exc).__name__] += 1
            finally:
                table.busy = False
            if table.over:
                replacement = pool.take()
                if replacement is not None:
                    tables[tables.index(table)] = replacement

        async def arrivals(rate: float, action) -> None:
            at = time.perf_counter()
            while not stop.is_set():
                at += rng.expovariate(rate)
                delay = at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                if stop.is_set():
                    break
                task = asyncio.create_task(action(at))
                inflight.add(task)
                task.add_done_callback(inflight.discard)

        # Each move's redirect is a page view too: the other views arrive on their own.
        producers = [
            asyncio.create_task(arrivals(move_rate, move)),
            asyncio.create_task(arrivals(max(0.1, page_rate - move_rate), page_view)),
        ]
        window = await _measure(stats, warmup, duration, stop, plan.get("cpu_roots"))
        await _finish(producers + list(inflight))
    return {
        "mode": "open",
        "offered_moves_per_s": move_rate,
        "offered_pages_per_s": page_rate,
        "games": len(tables),
        "moves_skipped": dict(skipped),
        **_summary(stats, window),
    }


async def _finish(tasks: list[asyncio.Task], grace: float = 15.0) -> None:
    done, pending = await asyncio.wait(tasks, timeout=grace) if tasks else (set(), set())
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=5)


def main() -> int:
    plan = json.load(sys.stdin)
    hosts = [urlsplit(base).hostname for base in [plan["base"], *plan.get("bases", [])]]
    host = next((h for h in hosts if not is_loopback(h)), None)
    if host is not None:
        print(f"refusing to load {host!r}: loopback only", file=sys.stderr)
        return 2
    runner = {"closed": run_closed, "open": run_open, "ceiling": run_ceiling, "pages": run_pages}[plan["mode"]]
    result = asyncio.run(runner(plan))
    json.dump(result, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
