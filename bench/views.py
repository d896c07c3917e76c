"""The framework ceiling: a move's database work and nothing else.

Same server, same middleware (session, CSRF, authentication, locale...), a
logged-in POST like a move; the view locks one row, inserts one row, updates
the locked row and commits. No engine, no template, no signals. What the site
does per move beyond this is the price of the game itself.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db import connection, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.views.decorators.http import require_POST

# Created by the runner (bench/ceilings.py) in the bench database only.
LOCK = "SELECT n FROM bench_counter WHERE id = %s FOR UPDATE"
INSERT = "INSERT INTO bench_log (counter_id) VALUES (%s)"
UPDATE = "UPDATE bench_counter SET n = n + 1 WHERE id = %s"


@login_required
@require_POST
def ceiling(request: HttpRequest, row: int) -> HttpResponse:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(LOCK, [row])
        if cursor.fetchone() is None:
            return HttpResponse(status=404)
        cursor.execute(INSERT, [row])
        cursor.execute(UPDATE, [row])
    # A move answers with a redirect; so does this (the client does not follow it).
    return HttpResponseRedirect("/")
