"""Ratings growth: the leaderboard and a profile with 100 rated players and 100 rated games, then with
100,000 players and 1,000,000 rated games (issue 22). Same method as ``bench.growth``: Django's test
client in the runner's process, ``CaptureQueriesContext``, the median of ``repeat`` requests.

Seeding is SQL (``INSERT ... SELECT generate_series``): the games are finished, rated, two-seat
Marumiere games between players drawn by arithmetic, each with its two ``RatingChange`` rows; the
ratings are drawn numbers, not OpenSkill replays (the pages read them, they do not compute them).
The profile's player ("rb_star") plays every small game and 10,000 of the large ones. After each seeding
``VACUUM (ANALYZE)`` stands for autovacuum, so the plans are those of a settled table. Pages measured:
the leaderboard's top, a page in the middle and the last page (by their keyset tokens), and the profile.
The plan of the middle page's query at 100,000 players is recorded (``EXPLAIN (ANALYZE, BUFFERS)``).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import time

from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from bench.growth import _client, _measure, _page

SLUG = "marumiere"
SMALL = {"players": 100, "games": 100}
LARGE = {"players": 100_000, "games": 1_000_000}
STAR_GAMES_LARGE = 10_000


def _users(start: int, count: int) -> None:
    """Users rb_<start>..rb_<start + count − 1>, with the model's own defaults (bulk inserts)."""
    from accounts.models import User

    batch = 5000
    for first in range(start, start + count, batch):
        users = [
            User(username=f"rb_{n}", email=f"rb_{n}@example.com", display_name=f"Rated {n}", password="!unusable",
                 notify_mode="never")
            for n in range(first, min(start + count, first + batch))
        ]
        User.objects.bulk_create(users)


def _skip_foreign_key_checks(cursor) -> None:
    """The seeded rows are consistent by construction: without the deferred foreign-key checks (Django's are
    checked at COMMIT, one per row) a million games seed in about half the time. Needs a superuser (the
    bench's embedded server, or postgres); otherwise the checks run."""
    with contextlib.suppress(DatabaseError), transaction.atomic():
        cursor.execute("SET LOCAL session_replication_role = replica")


@transaction.atomic
def _games(first_game: int, count: int, players: int, star_every: int | None) -> None:
    """``count`` finished rated games; game n is between players (n mod P) and (7n + 1 mod P), or the star
    (player 0) and player (7n + 1 mod P) every ``star_every`` games. Each with its two rating changes.
    Player number k is the k-th rb_ user by id (rb_0, the star, first)."""
    now = timezone.now()
    with connection.cursor() as cursor:
        _skip_foreign_key_checks(cursor)
        cursor.execute(
            "CREATE TEMP TABLE bench_players ON COMMIT DROP AS "
            "SELECT (row_number() OVER (ORDER BY id) - 1)::int AS n, id FROM accounts_user "
            "WHERE username LIKE 'rb!_%%' ESCAPE '!'"
        )
        cursor.execute("CREATE INDEX ON bench_players (n)")
        cursor.execute(
            """
            CREATE TEMP TABLE bench_pairs ON COMMIT DROP AS
            SELECT n,
                   CASE WHEN %(every)s > 0 AND n %% %(every)s = 0 THEN 0 ELSE n %% %(p)s END AS a,
                   (7 * n + 1) %% %(p)s AS b
            FROM generate_series(%(first)s, %(last)s) AS n
            """,
            {"every": star_every or 0, "p": players, "first": first_game, "last": first_game + count - 1},
        )
        cursor.execute("UPDATE bench_pairs SET b = (a + 1) %% %s WHERE a = b", [players])
        # Temporary tables are never analysed by autovacuum: without their statistics the planner guesses a
        # few rows and joins a million games to the pairs by nested loops (the seed ran for over 30 minutes).
        cursor.execute("CREATE UNIQUE INDEX ON bench_pairs (n)")
        cursor.execute("ANALYZE bench_players")
        cursor.execute("ANALYZE bench_pairs")
        cursor.execute(
            """
            WITH g AS (
                INSERT INTO games_game (engine_slug, options, players, seed_sha256, revealed_seed, status, visibility,
                    time_limit_hours, clock, rated, version, created_at, started_at, finished_at, outcome,
                    deal_scheme, is_tutorial)
                SELECT %(slug)s, '{}'::jsonb, 2, '', '', 'finished', 'public', 0, 'move', true, 0,
                       %(now)s - make_interval(secs => (%(last)s - n) * 0.5 + 3600),
                       %(now)s - make_interval(secs => (%(last)s - n) * 0.5 + 3600),
                       %(now)s - make_interval(secs => (%(last)s - n) * 0.5),
                       '[{"seat": 0, "rank": 1, "score": 1}, {"seat": 1, "rank": 2, "score": 0}]'::jsonb,
                       'site', false
                FROM bench_pairs ORDER BY n
                RETURNING id, finished_at
            ), numbered AS (
                SELECT id, finished_at, row_number() OVER (ORDER BY id) + %(first)s - 1 AS n FROM g
            )
            INSERT INTO competition_ratingchange (game_id, user_id, engine_slug, rank, mu_before, sigma_before,
                mu, sigma, conservative, at)
            SELECT numbered.id, players.id, %(slug)s, side.rank, 25, 5, side.mu, 4.9, side.mu - 14.7,
                   numbered.finished_at
            FROM numbered JOIN bench_pairs p USING (n)
            CROSS JOIN LATERAL (VALUES (p.a, 1, 25 + (numbered.n %% 97) / 10.0),
                                       (p.b, 2, 25 - (numbered.n %% 89) / 10.0)) AS side(player, rank, mu)
            JOIN bench_players players ON players.n = side.player
            ORDER BY numbered.id, side.rank
            """,
            {"slug": SLUG, "now": now, "last": first_game + count - 1, "first": first_game},
        )


def _ratings(players: int) -> None:
    """Every rb_ player's rating: drawn numbers (two thirds of them past their 10th game), all active."""
    now = timezone.now()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM competition_rating WHERE engine_slug = %s", [SLUG])
        cursor.execute(
            """
            INSERT INTO competition_rating (user_id, engine_slug, mu, sigma, conservative, games, last_game_at)
            SELECT u.id, %(slug)s, m.mu, m.sigma, m.mu - 3 * m.sigma, 1 + (u.id %% 30),
                   %(now)s - make_interval(secs => (u.id %% 86400) * 60)
            FROM accounts_user u
            CROSS JOIN LATERAL (SELECT 15 + ((u.id * 7919) %% 20000) / 1000.0 AS mu,
                                       1 + ((u.id * 104729) %% 6000) / 1000.0 AS sigma) AS m
            WHERE u.username LIKE 'rb!_%%' ESCAPE '!'
            """,
            {"slug": SLUG, "now": now},
        )


def _vacuum() -> None:
    with connection.cursor() as cursor:
        for table in ("competition_rating", "competition_ratingchange", "accounts_user", "games_game"):
            cursor.execute(f"VACUUM (ANALYZE) {table}")


def _token_at(rank: int) -> str:
    """The keyset token of the page starting right after ``rank`` (setup only: an OFFSET, not measured)."""
    from competition.selectors import leaderboard_queryset

    row = (
        leaderboard_queryset(engine_slug=SLUG).order_by("-conservative", "-user_id")
        .values_list("conservative", "user_id")[rank - 1]
    )
    return f"after.{row[0]!r}.{row[1]}.{rank}"


def _plan(token: str) -> str:
    from competition.selectors import LEADERBOARD_PAGE, leaderboard_page_queryset, parse_token

    qs = leaderboard_page_queryset(engine_slug=SLUG, key=parse_token(token), per_page=LEADERBOARD_PAGE)
    return qs.explain(analyze=True, buffers=True)


def _measure_all(repeat: int, players: int) -> dict:
    from accounts.models import User
    from competition.selectors import LEADERBOARD_PAGE

    star = User.objects.get(username="rb_0")
    client = _client(star)
    board = f"/leaderboards/{SLUG}/"
    middle = _token_at(players // 2)
    last = _token_at(max(1, (players - 1) // LEADERBOARD_PAGE * LEADERBOARD_PAGE))
    return {
        "leaderboard_top": _measure(_page(client, board), repeat),
        "leaderboard_middle": _measure(_page(client, f"{board}?page={middle}"), repeat),
        "leaderboard_last": _measure(_page(client, f"{board}?page={last}"), repeat),
        "profile": _measure(_page(client, f"/u/{star.username}/"), repeat),
        "api_leaderboard_middle": _measure(_page(client, f"/api{board}?page={middle}"), repeat),
        "middle_token": middle,
    }


def run(repeat: int = 11, log=print, *, quick: bool = False) -> dict:
    large = {"players": 10_000, "games": 100_000} if quick else LARGE
    star_large = 1_000 if quick else STAR_GAMES_LARGE
    results: dict = {"quick": quick}

    started = time.perf_counter()
    _users(0, SMALL["players"])
    _games(0, SMALL["games"], SMALL["players"], star_every=1)
    _ratings(SMALL["players"])
    _vacuum()
    log(f"ratings: {SMALL['players']} players, {SMALL['games']} rated games in {time.perf_counter() - started:.1f} s")
    results["small"] = {**SMALL, "star_games": SMALL["games"], **_measure_all(repeat, SMALL["players"])}

    started = time.perf_counter()
    _users(SMALL["players"], large["players"] - SMALL["players"])
    more = large["games"] - SMALL["games"]
    _games(SMALL["games"], more, large["players"], star_every=more // star_large)
    _ratings(large["players"])
    _vacuum()
    log(f"ratings: {large['players']} players, {large['games']} rated games in {time.perf_counter() - started:.1f} s")
    results["large"] = {
        **large, "star_games": SMALL["games"] + star_large, **_measure_all(repeat, large["players"])
    }
    results["large"]["plan_middle"] = _plan(results["large"]["middle_token"])
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM competition_ratingchange")
        results["large"]["rating_changes"] = cursor.fetchone()[0]
        cursor.execute("SELECT pg_size_pretty(pg_relation_size('competition_leaderboard_idx'))")
        results["large"]["leaderboard_index_size"] = cursor.fetchone()[0]
    results["seeded_at"] = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    return results
