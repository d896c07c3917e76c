"""Querysets of a fixed shape compiled to SQL once per process, then run with each request's own values.

The game page's two reads (the seats with their game, users and the features' columns; the viewer's SeatView
with its log's times and platform events) are the same statement on every page but for a game id, a seat
number and a user id. Building and compiling them cost more of Django's CPU than the rest of each query
(issue 33: 3.6 of 4.9 ms for the seats, 2.0 of 3.4 ms for the SeatView). Here a shape is built once with
sentinel values in place of those parameters, compiled, and each call runs the stored SQL with the sentinels
replaced by its values; rows become model instances exactly as Django's own ``ModelIterable`` makes them
(``select_related`` objects and annotations included).

Each value must come out of the compiler as a parameter of its own (found by compiling the shape twice with
different stand-ins); a shape whose SQL holds one any other way (folded into a literal, or absent) is not
stored and runs as an ordinary queryset every time.
"""

from __future__ import annotations

import copy
import logging
import threading
import weakref
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models.query import QuerySet, _get_from_db, get_related_populators

logger = logging.getLogger(__name__)

# Stand-ins for a shape's parameters, inside every integer field's range (Django folds an out-of-range value of
# a lookup into an empty result). A shape is compiled with two sets: a parameter is a slot only where the two
# compilations differ by exactly the stand-ins, so a constant of the query that equals one is never taken for it.
SENTINEL_SETS = ((32_101, 32_102, 32_103, 32_104), (32_201, 32_202, 32_203, 32_204))


@dataclass(frozen=True)
class _Shape:
    compiler: Any
    sql: str
    params: tuple
    slots: tuple[tuple[int, int], ...]  # (position in params, which value)
    fetch_mode: Any
    db: str


_shapes: dict[Hashable, _Shape | None] = {}
_lock = threading.Lock()


def _compile(build: Callable[..., QuerySet], arity: int) -> _Shape | None:
    compiled = []
    for sentinels in SENTINEL_SETS:
        queryset = build(*sentinels[:arity])
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        compiled.append((queryset, compiler, sql, tuple(params)))
    (queryset, compiler, sql, params), (_q, _c, other_sql, other_params) = compiled
    slots = []
    plain = sql == other_sql and len(params) == len(other_params)
    for position, (one, two) in enumerate(zip(params, other_params, strict=False) if plain else ()):
        if one == two:
            continue
        which = SENTINEL_SETS[0].index(one) if one in SENTINEL_SETS[0][:arity] else None
        if which is None or two != SENTINEL_SETS[1][which]:
            plain = False
            break
        slots.append((position, which))
    if not plain or {which for _position, which in slots} != set(range(arity)):
        logger.warning("precompiled query shape not stored: its parameters are not plain (%s)", sql[:200])
        return None
    return _Shape(compiler, sql, params, tuple(slots), queryset._fetch_mode, queryset.db)


def _shape(key: Hashable, build: Callable[..., QuerySet], arity: int) -> _Shape | None:
    if key not in _shapes:
        with _lock:
            if key not in _shapes:
                _shapes[key] = _compile(build, arity)
    return _shapes[key]


def fetch(key: Hashable, build: Callable[..., QuerySet], values: Sequence[int]) -> list:
    """The model instances of ``build(*values)``, from SQL compiled once per ``key``: ``build`` must give the
    same statement for any values (they are only compared, never used to choose joins or columns)."""
    shape = _shape(key, build, len(values))
    if shape is None:
        return list(build(*values))
    return list(_instances(_bound(shape, values), shape))


def fetch_rows(key: Hashable, build: Callable[..., QuerySet], values: Sequence[int]) -> list[tuple]:
    """The rows of ``build(*values)`` (a ``values_list()`` queryset: its columns, converted as Django does),
    from SQL compiled once per ``key``; as ``fetch``."""
    shape = _shape(key, build, len(values))
    if shape is None:
        return [tuple(row) if isinstance(row, (tuple, list)) else (row,) for row in build(*values)]
    compiler = _bound(shape, values)
    return [tuple(row[: compiler.col_count]) for row in compiler.results_iter(compiler.execute_sql())]


def _bound(shape: _Shape, values: Sequence[int]):
    """A copy of the shape's compiler that runs its SQL with ``values``, on this thread's connection."""
    params = list(shape.params)
    for position, which in shape.slots:
        params[position] = values[which]
    compiler = copy.copy(shape.compiler)
    compiler.connection = connections[shape.db]
    compiler.as_sql = lambda *args, **kwargs: (shape.sql, params)
    return compiler


def _instances(compiler, shape: _Shape):
    """Django's ``ModelIterable.__iter__`` on a compiled statement (no known related objects, no peers kept
    beyond what the fetch mode asks)."""
    results = compiler.execute_sql()
    select, klass_info, annotation_col_map = compiler.select, compiler.klass_info, compiler.annotation_col_map
    model_cls = klass_info["model"]
    start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
    init_list = [field[0].target.attname for field in select[start:end]]
    from_db = _get_from_db(model_cls, shape.fetch_mode)
    related_populators = get_related_populators(klass_info, select, shape.db, shape.fetch_mode)
    peers = []
    for row in compiler.results_iter(results):
        obj = from_db(shape.db, init_list, row[start:end])
        if shape.fetch_mode.track_peers:
            peers.append(weakref.ref(obj))
            obj._state.peers = peers
        for populator in related_populators:
            populator.populate(row, obj)
        for name, position in annotation_col_map.items():
            setattr(obj, name, row[position])
        yield obj
