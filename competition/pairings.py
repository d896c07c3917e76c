"""League schedules: who plays whom, as evenly as possible. Pure (no Django, no clock, no global
randomness: the league's own seed), so a schedule is the same every time it is computed.

Two-player games: a round-robin by the circle method (everyone meets everyone exactly once; with an
odd number of players one sits out each round). Games of ``size`` > 2: rounds of tables of ``size``
(players over a multiple of ``size`` sit out in turn, those who played most first), each round's
tables chosen to pair players who have met least so far, until everyone has met everyone; rounds are
then added while the number of games per player is uneven, within a bound.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

SWAPS_PER_ROUND = 1000  # swaps tried per round when improving a schedule
MAX_ROUNDS_FACTOR = 3
RESTARTS = 2
START_TEMPERATURE = 4.0  # improved schedules per number of rounds; the most even is kept
NEVER_MET = 10  # the cost of a pair that never meets, on top of its square


def schedule(players: list[int], *, size: int, seed: int) -> list[list[list[int]]]:
    """Rounds of tables (lists of players) for ``players`` in games of ``size``."""
    if size < 2 or len(players) < size:
        raise ValueError("not enough players for one game")
    players = sorted(players)
    if size == 2:
        return round_robin(players)
    return _groups(players, size=size, rng=random.Random(seed))


def round_robin(players: list[int]) -> list[list[list[int]]]:
    """The circle method: n−1 rounds (n rounds when odd), each pair exactly once."""
    ring: list[int | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    rounds = []
    for r in range(n - 1):
        tables = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is not None and b is not None:
                # Alternate who is listed first, so nobody is always "home".
                tables.append([a, b] if (r + i) % 2 == 0 else [b, a])
        rounds.append(tables)
        ring = [ring[0], ring[-1], *ring[1:-1]]
    return rounds


def meetings(rounds: list[list[list[int]]]) -> Counter:
    """How often each pair (smaller id first) sat at one table."""
    met: Counter = Counter()
    for tables in rounds:
        for table in tables:
            for a, b in itertools.combinations(sorted(table), 2):
                met[(a, b)] += 1
    return met


def games_per_player(rounds: list[list[list[int]]]) -> Counter:
    return Counter(p for tables in rounds for table in tables for p in table)


def _pair_cost(count: int) -> int:
    return count * count + (NEVER_MET if count == 0 else 0)


def _cost(rounds: list[list[list[int]]]) -> int:
    """How uneven a schedule's meetings are: the sum of the pairs' costs (every pair, met or not)."""
    players = sorted({p for tables in rounds for table in tables for p in table})
    met = meetings(rounds)
    return sum(_pair_cost(met[pair]) for pair in itertools.combinations(players, 2))


def _groups(players: list[int], *, size: int, rng: random.Random) -> list[list[list[int]]]:
    """The fewest rounds in which everyone meets everyone and plays as many games as everyone else;
    failing that within ``MAX_ROUNDS_FACTOR`` times the minimum, the first where everyone meets."""
    n = len(players)
    per_round = n // size * size
    at_least = -(-(n - 1) // (size - 1))  # each game meets size − 1 others
    fallback = None
    for rounds_count in range(at_least, MAX_ROUNDS_FACTOR * at_least + 1):
        rounds = min(
            (_improved(players, size=size, rounds_count=rounds_count, rng=rng) for _ in range(RESTARTS)),
            key=_cost,
        )
        met = meetings(rounds)
        everyone_met = len(met) == n * (n - 1) // 2
        if everyone_met and rounds_count * per_round % n == 0:
            return rounds
        if everyone_met and fallback is None:
            fallback = rounds
    return fallback or rounds


def _improved(players: list[int], *, size: int, rounds_count: int, rng: random.Random) -> list[list[list[int]]]:
    """``rounds_count`` rounds: byes in turn, then tables improved by swapping two players of one round
    while the pairs' meeting counts get more even (sum of squares, with a premium on pairs never met)."""
    n = len(players)
    per_round = n // size * size
    order = players[:]
    rng.shuffle(order)
    sitting_out = n - per_round
    rounds: list[list[list[int]]] = []
    for r in range(rounds_count):
        start = (r * sitting_out) % n
        playing = [order[(start + sitting_out + i) % n] for i in range(per_round)]
        rng.shuffle(playing)
        rounds.append([playing[i : i + size] for i in range(0, per_round, size)])
    met = meetings(rounds)

    def pair(a: int, b: int) -> tuple[int, int]:
        return (a, b) if a < b else (b, a)

    tables_per_round = per_round // size
    if tables_per_round < 2:
        return [[sorted(t) for t in tables] for tables in rounds]
    steps = SWAPS_PER_ROUND * rounds_count
    for step in range(steps):
        # Simulated annealing: a worse swap is taken now and then, less and less often, so the search
        # leaves a local minimum (a pair stuck together whom separating would leave another never met).
        temperature = START_TEMPERATURE * (1 - step / steps)
        tables = rounds[rng.randrange(rounds_count)]
        ti, tj = rng.sample(range(tables_per_round), 2)
        pi, pj = rng.randrange(size), rng.randrange(size)
        a, b = tables[ti][pi], tables[tj][pj]
        others_a = [p for p in tables[ti] if p != a]
        others_b = [p for p in tables[tj] if p != b]
        changes: Counter = Counter()
        for p in others_a:
            changes[pair(a, p)] -= 1
            changes[pair(b, p)] += 1
        for p in others_b:
            changes[pair(b, p)] -= 1
            changes[pair(a, p)] += 1
        delta = sum(_pair_cost(met[k] + d) - _pair_cost(met[k]) for k, d in changes.items() if d)
        if delta <= 0 or (temperature > 0.01 and rng.random() < math.exp(-delta / temperature)):
            tables[ti][pi], tables[tj][pj] = b, a
            for k, d in changes.items():
                met[k] += d
    return [[sorted(t) for t in tables] for tables in rounds]
