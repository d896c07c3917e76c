"""The production entry point: ``uvicorn mammamia.asgi:application`` (docs/deploying.md).

Two parts behind one address:

- ``/live/stream/``: the Server-Sent Events streams of open pages (``live.stream``), asynchronous,
  thousands per process, holding no database connection;
- everything else: the Django site as a WSGI application, run in a fixed pool of ``WEB_THREADS``
  threads per process (a2wsgi). Views stay synchronous and each thread keeps its database
  connection from request to request (``DB_CONN_MAX_AGE``), as under gunicorn; Django's own ASGI
  handler would open a new one per request.
"""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "mammamia.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from live.stream import STREAM_PATH, stream  # noqa: E402

site = WSGIMiddleware(get_wsgi_application(), workers=settings.WEB_THREADS)


async def application(scope, receive, send):
    if scope["type"] == "http" and scope["path"] == STREAM_PATH:
        await stream(scope, receive, send)
    else:
        await site(scope, receive, send)
