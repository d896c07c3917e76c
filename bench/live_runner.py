"""Live updates, the runner's side: plans for ``bench.live`` (grants, pages, games) and the memory of the
web processes while 5,000 streams are held. Called by ``bench.__main__`` (``--only live``)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

from bench import cpu
from bench.stack import BASE_DIR

FAR = 10_000_000  # ids of games and users that do not exist: idle pages of "other games"


def run_plan(plan: dict, timeout: float) -> dict:
    done = subprocess.run([sys.executable, "-m", "bench.live"], cwd=BASE_DIR, input=json.dumps(plan),
                          capture_output=True, text=True, timeout=timeout, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"bench.live failed ({done.returncode}):\n{done.stderr[-4000:]}")
    return json.loads(done.stdout)


def rss_bytes(pid: int | None) -> int:
    """Resident memory of ``pid`` and its descendants."""
    total = 0
    for member in cpu.tree_pids(pid):
        try:
            for line in Path(f"/proc/{member}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            continue
    return total


def idle_grants(count: int) -> list[str]:
    from live.grants import make_grant

    return [make_grant(game_id=FAR + n, user_id=FAR + n) for n in range(count)]


def page_tokens(game_ids: list[int]) -> dict[int, str]:
    from games.models import Game, Seat
    from games.play.selectors import page_token

    games = {g.pk: g for g in Game.objects.filter(pk__in=game_ids)}
    seats: dict[int, list] = {}
    for seat in Seat.objects.filter(game_id__in=game_ids):
        seats.setdefault(seat.game_id, []).append(seat)
    return {pk: page_token(game=game, seats=seats.get(pk, [])) for pk, game in games.items()}


def run(*, base: str, roots: dict, web_pid: int | None, pool: list[dict], quick: bool, log,
        stream_base: str | None = None) -> dict:
    """Idle cost (polling vs push), update latency with 1,000 idle streams, 5,000 streams held. ``stream_base``:
    the ASGI server holding the streams when the pages are served apart (``web_pid`` is then its process)."""
    from django.conf import settings

    from live.grants import make_grant

    results: dict = {}
    tokens = page_tokens([entry["game"] for entry in pool[8:]])
    idle_pool = [entry for entry in pool[8:] if entry["game"] in tokens]
    pages = []
    for n in range(1000):
        entry = idle_pool[n % len(idle_pool)]
        user = entry["users"][n % 2]
        pages.append({"game": entry["game"], "token": tokens[entry["game"]], "cookies": user["cookies"],
                      "grant": make_grant(game_id=entry["game"], user_id=user["id"])})
    duration = 8.0 if quick else 30.0
    poll_pages = 60 if quick else 300  # 300 polling pages are 60 requests/s: enough to measure, not a flood
    log("live: idle cost of the stack with no page open ...")
    none = run_plan({"mode": "idle", "kind": "none", "base": base, "pages": [], "duration": duration,
                     "cpu_roots": roots}, timeout=duration + 60)
    baseline = none["server_cpu_s_per_s"]
    log(f"  {baseline} CPU s/s")
    log(f"live: idle cost, {poll_pages} pages polling every {settings.GAME_POLL_SECONDS} s ...")
    poll = run_plan({"mode": "idle", "kind": "poll", "base": base, "pages": pages[:poll_pages],
                     "poll_seconds": settings.GAME_POLL_SECONDS, "duration": duration, "cpu_roots": roots,
                     "baseline_cpu_s_per_s": baseline},
                    timeout=duration + 120)
    log(f"  {poll['server_cpu_ms_per_page_minute']} ms CPU per page per minute "
        f"({poll['net_cpu_ms_per_page_minute']} beyond the idle stack)")
    push_pages = 200 if quick else 1000
    log(f"live: idle cost, {push_pages} pages holding a stream ...")
    push = run_plan({"mode": "idle", "kind": "push", "base": base, "stream_base": stream_base,
                     "pages": pages[:push_pages],
                     "duration": duration, "cpu_roots": roots, "baseline_cpu_s_per_s": baseline},
                    timeout=duration + 180)
    log(f"  {push['server_cpu_ms_per_page_minute']} ms CPU per page per minute "
        f"({push['net_cpu_ms_per_page_minute']} beyond the idle stack)")

    def ratio(key: str) -> float | None:
        return round(poll[key] / push[key], 1) if poll.get(key) and push.get(key) else None

    results["idle"] = {"none": none, "poll": poll, "push": push, "ratio": ratio("server_cpu_ms_per_page_minute"),
                       "net_ratio": ratio("net_cpu_ms_per_page_minute")}

    idle = 200 if quick else 1000
    games = pool[:8]
    plan_games = watched_games(games)
    moves = 40 if quick else 200
    log(f"live: update latency, {moves} moves in {len(games)} games watched by 4 pages each, "
        f"{idle} idle streams ...")
    latency = run_plan({"mode": "latency", "base": base, "stream_base": stream_base, "watch_page_base": base,
                        "games": plan_games, "idle_grants": idle_grants(idle),
                        "moves": moves, "duration": 60 if quick else 150, "cpu_roots": roots,
                        "redis_url": settings.LIVE_REDIS_URL, "prefix": settings.LIVE_CHANNEL_PREFIX},
                       timeout=400)
    log(f"  p50 {latency['from_publish'].get('p50_ms')} ms, p99 {latency['from_publish'].get('p99_ms')} ms "
        f"(from the publish; events delivered p50 {latency['event_delivered'].get('p50_ms')} ms); "
        f"{latency['missed']} missed")
    results["latency"] = latency

    count = 500 if quick else 5000
    hold = 5 if quick else 20
    log(f"live: {count} streams held {hold} s ...")
    before = rss_bytes(web_pid)
    process = subprocess.Popen([sys.executable, "-m", "bench.live"], cwd=BASE_DIR, stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    process.stdin.write(json.dumps({"mode": "streams", "base": base, "stream_base": stream_base,
                                    "grants": idle_grants(count), "hold": hold}))
    process.stdin.close()
    started = time.monotonic()
    line = ""
    while line and not line.startswith('{"up"') or not line:  # {"up": n} once every stream is open
        line = process.stderr.readline()
        if not line and process.poll() is not None:
            break
    during = rss_bytes(web_pid)
    out = process.stdout.read()
    process.wait(timeout=120)
    if process.returncode != 0:
        raise RuntimeError(f"bench.live streams failed: {line} {process.stderr.read()[-3000:]}")
    streams = json.loads(out)
    streams.update({"web_rss_before_mb": round(before / 2**20, 1), "web_rss_held_mb": round(during / 2**20, 1),
                    "kb_per_stream": round((during - before) / 1024 / max(1, streams["ready"]), 1),
                    "seconds": round(time.monotonic() - started, 1)})
    log(f"  {streams['ready']} up, {streams['alive_after_hold']} alive after {hold} s, "
        f"{streams['kb_per_stream']} KB per stream")
    results["streams"] = streams
    return results


def cross_server_latency(*, post_base: str, stream_base: str, pool: list[dict], quick: bool, roots: dict) -> dict:
    """Update latency with the moves posted to one server and the watching pages' streams (and the partials
    they fetch) on another (the scale-out, issue 33), 200 idle streams beside them on that other server."""
    from django.conf import settings

    plan_games = watched_games(pool[:8])
    return run_plan({"mode": "latency", "base": post_base, "stream_base": stream_base,
                     "watch_page_base": stream_base, "games": plan_games,
                     "idle_grants": idle_grants(50 if quick else 200), "moves": 20 if quick else 80,
                     "duration": 40 if quick else 90, "cpu_roots": roots,
                     "redis_url": settings.LIVE_REDIS_URL, "prefix": settings.LIVE_CHANNEL_PREFIX}, timeout=300)


def watched_games(games: list[dict]) -> list[dict]:
    """Each game watched by 4 pages (its two players and two spectators), at the version it is at now."""
    from games.models import Game
    from live.grants import make_grant

    versions = dict(Game.objects.filter(pk__in=[e["game"] for e in games]).values_list("pk", "version"))
    plan_games = []
    for entry in games:
        watchers = [{"cookies": u["cookies"], "grant": make_grant(game_id=entry["game"], user_id=u["id"])}
                    for u in entry["users"]]
        watchers += [{"cookies": None, "grant": make_grant(game_id=entry["game"], user_id=None)} for _ in range(2)]
        for watcher in watchers:
            watcher["expected"] = len(watchers)
        plan_games.append({"entry": entry, "watchers": watchers, "version": versions[entry["game"]]})
    return plan_games
