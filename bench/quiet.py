"""Quiet at the table, heard when away (issue 34): ``make bench BENCH_ARGS="--only quiet"``.

The runner's side (Django, the bench database); the players are ``bench.quiet_load`` in a process of their own,
behaving as the game page's script does (streams open, the live partial fetched on each event, moves through the
pages). Every player here has an e-mail address, the default "once, until I visit", and a browser subscribed to
Web Push (an endpoint that answers nothing: a push *sent* is one the site tried to deliver).

1. **Moves with the hold and without**, in the same run: the site (web servers and Celery workers) is started once
   with ``TURN_NOTIFY_HOLD_SECONDS=0`` (no hold: the behaviour before issue 34, "your move" at once, re-armed by
   every visit) and once with the default; each time the closed loop (8 players) and the open loop (a fixed offered
   load) play over games whose two players are at the table. Per move: "your move" e-mails and pushes sent once
   every one of them has been delivered or dropped, and the stack's CPU (web, streams, workers, PostgreSQL, Redis):
   in the measured window, plus what deciding the held rows cost afterwards beyond the idle stack's own CPU.
2. **A live table**: two players play a whole game of each engine through the pages with their streams open
   (default hold): no "your move" e-mail and no push may go, once the hold of the last one is over.
3. **An away player**: a game of each engine where one player is at the table and the other never looks: that one
   gets exactly one "your move" e-mail for the game, within hold + 60 s of being awaited.
"""

from __future__ import annotations

import base64
import datetime as dt
import time

from bench import cpu
from bench.stack import run_json_module

CLOSED_PLAYERS = 8
OPEN_MOVES_PER_S, OPEN_PAGES_PER_S = 4.0, 8.0
DRAIN_SLACK_S = 90  # after the hold: the countdown tasks, a loaded machine


def run_plan(plan: dict, timeout: float) -> dict:
    return run_json_module("bench.quiet_load", plan, timeout)


def vapid_environment() -> dict[str, str]:
    from reach.push import generate_keys

    public, private = generate_keys()
    return {"VAPID_PUBLIC_KEY": public, "VAPID_PRIVATE_KEY": private}


def subscribe_everyone(users: list, vapid: dict[str, str]) -> None:
    """A browser per user, subscribed through the site's own service (as the settings page's script does)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from django.test import override_settings

    from reach.services import subscribe_browser

    def b64(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()

    with override_settings(**vapid):
        for user in users:
            key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
            subscribe_browser(user=user, data={"endpoint": f"https://push.bench.invalid/{user.pk}",
                                               "keys": {"p256dh": b64(key), "auth": b64(b"0123456789abcdef")}})


def pool_with_push(name: str, games: int, vapid: dict[str, str], *, offset: int = 0) -> list[dict]:
    from accounts.models import User
    from bench import seed

    pool = seed.http_pool(name, games, offset=offset)
    ids = [u["id"] for entry in pool for u in entry["users"]]
    subscribe_everyone(list(User.objects.filter(pk__in=ids)), vapid)
    return pool


def watchers(pool: list[dict], *, away: dict[int, set[int]] | None = None) -> list[dict]:
    """Every pool user's page of its game, at the table (a stream per page), but the seats ``away``."""
    from live.grants import make_grant

    away = away or {}
    return [
        {"game": entry["game"], "cookies": user["cookies"],
         "grant": make_grant(game_id=entry["game"], user_id=user["id"])}
        for entry in pool
        for index, user in enumerate(entry["users"])
        if index not in away.get(entry["game"], set())
    ]


def user_ids(pool: list[dict]) -> list[int]:
    return [u["id"] for entry in pool for u in entry["users"]]


def your_move_rows(ids: list[int], since, until=None):
    """The "your move" e-mails of these users queued in [since, until): turn e-mails and the held game-started
    e-mail of the first players (their "your move")."""
    from django.db.models import Q

    from notifications.models import OutboxEmail

    rows = OutboxEmail.objects.filter(user_id__in=ids, created_at__gte=since).filter(
        Q(kind=OutboxEmail.Kind.TURN) | Q(kind=OutboxEmail.Kind.STARTED, payload__awaited=True)
    )
    return rows.filter(created_at__lt=until) if until is not None else rows


def your_move_pushes(ids: list[int], since, until=None):
    from django.db.models import Q

    from reach.models import Channel, Delivery

    rows = Delivery.objects.filter(channel=Channel.PUSH, user_id__in=ids, created_at__gte=since).filter(
        Q(kind="turn") | Q(kind="started", payload__awaited=True)
    )
    return rows.filter(created_at__lt=until) if until is not None else rows


def tally(ids: list[int], since, until=None) -> dict:
    """E-mails sent / dropped / pending and pushes tried / dropped / pending among the "your move" rows."""
    from notifications.models import OutboxEmail
    from reach.models import Delivery

    mails = your_move_rows(ids, since, until)
    pushes = your_move_pushes(ids, since, until)
    return {
        "emails_queued": mails.count(),
        "emails_sent": mails.filter(status=OutboxEmail.Status.SENT).count(),
        "emails_dropped": mails.filter(status=OutboxEmail.Status.DROPPED).count(),
        "emails_pending": mails.filter(status=OutboxEmail.Status.PENDING).count(),
        "pushes_queued": pushes.count(),
        # Sent: handed to the push service (here it answers nothing, so each ends failed or waiting to retry).
        "pushes_sent": pushes.filter(attempts__gte=1).count(),
        "pushes_dropped": pushes.filter(status=Delivery.Status.DROPPED).count(),
        "pushes_pending": pushes.filter(status=Delivery.Status.PENDING, attempts=0).count(),
    }


def wait_decided(ids: list[int], since, *, hold: int, log) -> float:
    """Wait until every "your move" row since ``since`` is sent or dropped (pushes tried or dropped); seconds."""
    started = time.monotonic()
    deadline = started + hold + DRAIN_SLACK_S
    while time.monotonic() < deadline:
        counts = tally(ids, since)
        if not counts["emails_pending"] and not counts["pushes_pending"]:
            return time.monotonic() - started
        time.sleep(2)
    log(f"  still undecided after {hold + DRAIN_SLACK_S} s: {tally(ids, since)}")
    return time.monotonic() - started


def idle_rate(roots: dict, seconds: float) -> float:
    """The idle stack's CPU seconds per second (keep-alives, Celery's own timers, PostgreSQL's background)."""
    before = cpu.snapshot(roots)
    time.sleep(seconds)
    return round(sum(cpu.delta(before, cpu.snapshot(roots)).values()) / seconds, 4)


def restart_site(stack, hold: int | None, extra_env: dict[str, str], log) -> None:
    """Stop the web servers and the Celery workers; start them again with this hold (None: the default)."""
    for name in [n for n in list(stack.processes) if n != "mail"]:
        stack.stop_process(name)
    stack.env.update(extra_env)
    if hold is None:
        stack.env.pop("TURN_NOTIFY_HOLD_SECONDS", None)
    else:
        stack.env["TURN_NOTIFY_HOLD_SECONDS"] = str(hold)
    stack.start_workers()
    stack.start_web()
    log(f"  site restarted with TURN_NOTIFY_HOLD_SECONDS={'default' if hold is None else hold}")


def stack_roots(stack, base_roots: dict) -> dict:
    return {**base_roots, "web": stack.pid("web"), "live": stack.pid("web-live"), "workers": stack.pid("worker"),
            "workers_outgoing": stack.pid("worker-outgoing")}


def moves_with(stack, *, label: str, hold: int, pools: dict, base_roots: dict, warmup: float, seconds: float,
               open_seconds: float, log) -> dict:
    """The closed and the open loop at the table, then every "your move" of theirs decided: per move figures."""
    from django.utils import timezone

    roots = stack_roots(stack, base_roots)
    idle = idle_rate(roots, 10.0)
    rows = {}
    for mode in ("closed", "open"):
        pool = pools[f"{label}-{mode}"]
        plan = {"mode": mode, "base": stack.base_url, "stream_base": stack.stream_url, "cpu_roots": roots,
                "pool": pool, "watchers": watchers(pool), "warmup": warmup}
        if mode == "closed":
            plan.update(players=CLOSED_PLAYERS, duration=seconds)
        else:
            plan.update(moves_per_s=OPEN_MOVES_PER_S, pages_per_s=OPEN_PAGES_PER_S, games=len(pool),
                        duration=open_seconds)
        log(f"quiet: {mode} loop at the table, hold {hold} s ...")
        since = timezone.now()
        row = run_plan(plan, timeout=warmup + max(seconds, open_seconds) + 240)
        row["since"], row["until"] = since, timezone.now()
        rows[mode] = row
        log(f"  {row['moves']} moves in the window, {row['server_cpu_ms_per_move']} ms stack CPU each; "
            f"streams {row.get('streams')}")
    # Every "your move" of both loops decided (sent or dropped): what that cost beyond the idle stack.
    ids = user_ids(pools[f"{label}-closed"]) + user_ids(pools[f"{label}-open"])
    first = rows["closed"]["since"]
    before = cpu.snapshot(roots)
    waited = wait_decided(ids, first, hold=hold, log=log)
    drain_cpu = sum(cpu.delta(before, cpu.snapshot(roots)).values())
    drain_net = max(0.0, drain_cpu - idle * waited)
    # Every move of both loops (warm-up included) queued the rows just decided: the cost is shared over them all.
    made = {mode: _moves_made(user_ids(pools[f"{label}-{mode}"]), row["since"], row["until"]) or row["moves"]
            for mode, row in rows.items()}
    total_moves = sum(made.values()) or 1
    out = {"hold_s": hold, "idle_cpu_s_per_s": idle, "decided_after_s": round(waited, 1),
           "decide_cpu_s": round(drain_cpu, 3), "decide_cpu_net_s": round(drain_net, 3)}
    for mode, row in rows.items():
        pool_ids = user_ids(pools[f"{label}-{mode}"])
        # Rows of the whole loop (warm-up included), per move of the whole loop: the window's moves are a
        # fraction of them; the count of rows per move is the same either way.
        counts = tally(pool_ids, row["since"], row["until"])
        window_ms = row["server_cpu_ms_per_move"]
        # The held rows' fate, charged to every move of both loops alike.
        decide_ms = round(1000 * drain_net / total_moves, 2)
        out[mode] = {
            "moves": row["moves"], "moves_per_s": row["moves_per_s"], "errors": row["errors"],
            "streams": row.get("streams"), **counts,
            "all_moves": made[mode],
            "server_cpu_ms_per_move_window": window_ms,
            "server_cpu_ms_per_move_deciding": decide_ms,
            "server_cpu_ms_per_move": round((window_ms or 0) + decide_ms, 2),
            "move_post_p50_ms": row["move_post"].get("p50_ms"),
        }
        made = out[mode]["all_moves"] or 1
        out[mode]["emails_per_move"] = round(counts["emails_sent"] / made, 3)
        out[mode]["pushes_per_move"] = round(counts["pushes_sent"] / made, 3)
    return out


def _moves_made(ids: list[int], since, until) -> int:
    """Moves the players of ``ids`` made in [since, until) (warm-up included): what the e-mails are counted by."""
    from games.models import Move

    return Move.objects.filter(game__seats__user_id__in=ids, created_at__gte=since, created_at__lt=until,
                               made_by="player").distinct().count()


def live_and_away(stack, *, vapid: dict, hold: int, log) -> dict:
    """The live table (every engine, two players at the table to the end) and the away player (every engine)."""
    from django.test import override_settings
    from django.utils import timezone

    from bench import seed
    from games.models import Seat

    engines = seed.bench_engines()
    # Seeded just before they are played, with the site's hold: the first players' "game started" is their
    # "your move" (held, and dropped once they are at the table), so it counts too.
    since = timezone.now()
    with override_settings(TURN_NOTIFY_HOLD_SECONDS=hold):
        live_pool = pool_with_push("quiet_live", len(engines), vapid)
        away_pool = pool_with_push("quiet_away", len(engines), vapid)
    # The away player: seat 1 of each game (drawn seats: sometimes the first to play, sometimes not).
    away = {entry["game"]: {1} for entry in away_pool}
    tables = [*live_pool, *[{**entry, "away": [1]} for entry in away_pool]]
    log(f"quiet: a live table of each engine played to the end, and an away player in each ({hold} s hold) ...")
    played = run_plan({"mode": "whole", "base": stack.base_url, "stream_base": stack.stream_url,
                       "tables": tables, "watchers": watchers(live_pool) + watchers(away_pool, away=away),
                       "budget_s": 1200}, timeout=1500)
    log(f"  played: {[(g['game'], g['moves'], g['over']) for g in played['games']]}; streams {played['streams']}")
    ids = user_ids(live_pool) + user_ids(away_pool)
    waited = wait_decided(ids, since, hold=hold, log=log)
    by_game = {g["game"]: g for g in played["games"]}
    live = []
    for entry in live_pool:
        counts = tally(user_ids([entry]), since)
        live.append({"engine": entry["engine"], "game": entry["game"], "moves": by_game[entry["game"]]["moves"],
                     "finished": by_game[entry["game"]]["over"], **counts})
    away_rows = []
    from notifications.models import OutboxEmail

    for entry in away_pool:
        absent = entry["users"][1]["id"]
        seat = Seat.objects.get(game_id=entry["game"], user_id=absent)
        sent = list(your_move_rows([absent], since).filter(status=OutboxEmail.Status.SENT).order_by("sent_at"))
        # When the away player became awaited: the game's start, or the at-table player's move before theirs.
        awaited_at = seat.awaited_since
        after = [round((row.sent_at - awaited_at).total_seconds(), 1) for row in sent if awaited_at and row.sent_at]
        away_rows.append({"engine": entry["engine"], "game": entry["game"],
                          "moves_before_stop": by_game[entry["game"]]["moves"], "emails_to_away_player": len(sent),
                          "sent_s_after_awaited": after,
                          "at_table_player": tally([entry["users"][0]["id"]], since)})
    return {"hold_s": hold, "decided_after_s": round(waited, 1), "live_table": live, "away": away_rows,
            "played_s": played["seconds"], "errors": played["errors"]}


def run(*, stack, roots: dict, warmup: float, seconds: float, open_seconds: float, quick: bool, log) -> dict:
    from django.conf import settings

    # The runner's settings: the site's default (180 s). --quick (a smoke test of the part, not figures): 20 s.
    default_hold = 20 if quick else settings.TURN_NOTIFY_HOLD_SECONDS
    vapid = vapid_environment()
    offset = 0
    pools = {}
    games = {"closed": CLOSED_PLAYERS + 9, "open": 24 if quick else 48}
    for label in ("off", "on"):
        for mode, size in games.items():
            pools[f"{label}-{mode}"] = pool_with_push(f"quiet_{label}_{mode}", size, vapid, offset=offset)
            offset += 1
    log(f"quiet: seeded {sum(len(p) for p in pools.values())} games, every player with a push subscription")
    results: dict = {"closed_players": CLOSED_PLAYERS, "open_offered": [OPEN_MOVES_PER_S, OPEN_PAGES_PER_S]}
    try:
        # Before issue 34 first (no hold), then the default: the same stack, restarted with the one setting changed.
        restart_site(stack, 0, vapid, log)
        results["off"] = moves_with(stack, label="off", hold=0, pools=pools, base_roots=roots, warmup=warmup,
                                    seconds=seconds, open_seconds=open_seconds, log=log)
        restart_site(stack, None if default_hold == settings.TURN_NOTIFY_HOLD_SECONDS else default_hold, vapid, log)
        results["on"] = moves_with(stack, label="on", hold=default_hold, pools=pools, base_roots=roots,
                                   warmup=warmup, seconds=seconds, open_seconds=open_seconds, log=log)
        results.update(live_and_away(stack, vapid=vapid, hold=default_hold, log=log))
    finally:
        for key in vapid:
            stack.env.pop(key, None)
    return _plain(results)


def _plain(value):
    """JSON-ready: datetimes as ISO text."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items() if k not in ("since", "until")}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.datetime):
        return value.isoformat()
    return value


def markdown(results: dict) -> list[str]:
    """The part's section of docs/benchmarks.md."""
    quiet = results.get("quiet")
    if not quiet:
        return []
    if quiet.get("failed"):
        return ["## Quiet at the table (issue 34)", "", f"Failed: `{quiet['failed'][:500]}`", ""]
    off, on = quiet["off"], quiet["on"]
    lines = [
        "## Quiet at the table, heard when away (issue 34)",
        "",
        "`bench/quiet.py`, players as the page's script behaves (each page's stream open, the live partial fetched "
        "on every event, moves through the pages), every player with e-mail (\"once, until I visit\") and a Web Push "
        "subscription. The site restarted between the two rows with only `TURN_NOTIFY_HOLD_SECONDS` changed "
        f"(0: no hold, the behaviour before issue 34; then the default, {on['hold_s']} s). Counts wait until every "
        "\"your move\" row is sent or dropped; *deciding* is the stack's CPU for that beyond the idle stack's, "
        "shared over the moves of both loops.",
        "",
        "| loop | hold | moves (window) | e-mails sent / move | pushes sent / move | e-mails dropped | "
        "stack CPU / move: window + deciding = total (ms) |",
        "|---|---|---|---|---|---|---|",
    ]
    for mode in ("closed", "open"):
        for label, row in (("none (before)", off), (f"{on['hold_s']} s (after)", on)):
            r = row[mode]
            lines.append(
                f"| {mode} | {label} | {r['moves']} | {r['emails_per_move']} ({r['emails_sent']} of "
                f"{r['all_moves']} moves) | {r['pushes_per_move']} ({r['pushes_sent']}) | {r['emails_dropped']} | "
                f"{r['server_cpu_ms_per_move_window']} + {r['server_cpu_ms_per_move_deciding']} = "
                f"{r['server_cpu_ms_per_move']} |"
            )
        if off[mode]["server_cpu_ms_per_move"] and on[mode]["server_cpu_ms_per_move"]:
            lines.append(f"| {mode} | after/before | | | | | "
                         f"{round(on[mode]['server_cpu_ms_per_move'] / off[mode]['server_cpu_ms_per_move'], 2)}× |")
    lines += [
        "",
        f"A live table (hold {quiet['hold_s']} s; counted {quiet['decided_after_s']} s after the last move, once "
        "every held row was decided):",
        "",
        "| game | moves | finished | \"your move\" e-mails sent | pushes sent | dropped (e-mail, push) |",
        "|---|---|---|---|---|---|",
    ]
    for row in quiet["live_table"]:
        lines.append(f"| {row['engine']} | {row['moves']} | {row['finished']} | {row['emails_sent']} | "
                     f"{row['pushes_sent']} | {row['emails_dropped']}, {row['pushes_dropped']} |")
    lines += [
        "",
        "An away player (never opens the game; the other player at the table plays until the game waits on them):",
        "",
        "| game | moves before it waited | e-mails to the away player | sent after being awaited (s) | limit |",
        "|---|---|---|---|---|",
    ]
    for row in quiet["away"]:
        lines.append(f"| {row['engine']} | {row['moves_before_stop']} | {row['emails_to_away_player']} | "
                     f"{', '.join(str(s) for s in row['sent_s_after_awaited']) or '—'} | {quiet['hold_s'] + 60} |")
    return [*lines, ""]
