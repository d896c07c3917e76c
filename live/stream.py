"""``/live/stream/``: the Server-Sent Events endpoint, a plain ASGI app beside the Django site.

It never touches the database, the session or Django's middleware: the page's signed grant (``?t=``,
``live.grants``) names the channels, the channel layer (channels_redis' Redis pub/sub layer, one
subscription per group and process whatever the number of streams) delivers what ``live.publish``
sent from any process on any host. An idle stream is a socket, a few small objects and a keep-alive
comment every ``LIVE_KEEPALIVE_SECONDS`` (so proxies do not time it out and a dead client is noticed).

Every (re)connection starts with ``event: ready``: the page then checks its version once (a 204 when
nothing changed), so an update published while it was disconnected is never lost.
"""

from __future__ import annotations

import asyncio
import logging
import time
from urllib.parse import parse_qs, urlsplit

from django.conf import settings

from live import aioredis, presence
from live.grants import REVOKED_EVENT, read_grant, revoked_key

logger = logging.getLogger(__name__)

STREAM_PATH = "/live/stream/"
# The browser waits this long before reconnecting after a clean end of the stream (live.js
# reconnects by itself, with backoff, after errors).
RETRY_MS = 2000

HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-cache, no-store"),
    # nginx: do not buffer this response (docs/live-updates.md's proxy settings say the same).
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


async def _refuse(send, status: int, text: bytes) -> None:
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"), (b"cache-control", b"no-store")]})
    await send({"type": "http.response.body", "body": text})


async def _revoked(user_id: int) -> bool:
    """Whether ``user_id``'s grants were revoked (``live.publish.revoke_user``): one Redis EXISTS on the
    process's shared, bounded pool (``live.aioredis``)."""
    return bool(await aioredis.client().exists(revoked_key(settings.LIVE_CHANNEL_PREFIX, user_id)))


async def _wait_disconnect(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


def sse(event: str, data: str) -> bytes:
    return f"event: {event}\ndata: {data}\n\n".encode()


def _cross_origin(scope) -> list[tuple[bytes, bytes]]:
    """The CORS header letting the site's own pages (``SITE_URL``'s origin) read a stream served from another
    address (``LIVE_STREAM_URL``); none for any other origin, nor when the stream is on the site's address."""
    origin = next((value for name, value in scope.get("headers", []) if name == b"origin"), None)
    if origin is None or not settings.LIVE_STREAM_URL.startswith(("http://", "https://")):
        return []
    site = urlsplit(settings.SITE_URL)
    if origin.decode("latin-1") != f"{site.scheme}://{site.netloc}":
        return []
    return [(b"access-control-allow-origin", origin), (b"vary", b"Origin")]


async def stream(scope, receive, send) -> None:
    """One open page's stream (ASGI ``http`` scope)."""
    if scope["method"] not in ("GET", "HEAD"):
        await _refuse(send, 405, b"GET only\n")
        return
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    grant = read_grant((query.get("t") or [""])[0])
    if grant is None:
        await _refuse(send, 403, b"no valid grant: reload the page\n")
        return
    if grant.user_id is not None:
        try:
            revoked = await _revoked(grant.user_id)
        except Exception:  # noqa: BLE001 - unknown is refused: the page falls back to polling, which checks the session
            logger.warning("live stream: could not check grant of user %s", grant.user_id, exc_info=True)
            await _refuse(send, 503, b"try again later\n")
            return
        if revoked:
            await _refuse(send, 403, b"no valid grant: reload the page\n")
            return
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    channel = await layer.new_channel("live.")
    groups = grant.groups()
    # A game page's stream is evidence that its player is at the table (``live.presence``).
    seat = {"game_id": grant.game_id, "user_id": grant.user_id, "stream_id": channel} \
        if grant.game_id is not None and grant.user_id is not None else None
    receiver = asyncio.ensure_future(layer.receive(channel))
    disconnected = asyncio.ensure_future(_wait_disconnect(receive))
    try:
        for group in groups:
            await layer.group_add(group, channel)
        await send({"type": "http.response.start", "status": 200, "headers": HEADERS + _cross_origin(scope)})
        if seat is not None:
            await presence.stream_seen(**seat)
            renewed = time.monotonic()
        # Subscribed before "ready": anything published from now on reaches this stream.
        await send({"type": "http.response.body", "body": f"retry: {RETRY_MS}\n".encode() + sse("ready", "{}"),
                    "more_body": True})
        keepalive = settings.LIVE_KEEPALIVE_SECONDS
        while True:
            # receive() is never cancelled mid-stream: channels_redis drops the channel when it is.
            done, _ = await asyncio.wait({receiver, disconnected}, timeout=keepalive,
                                         return_when=asyncio.FIRST_COMPLETED)
            if disconnected in done:
                return
            if receiver in done:
                message = receiver.result()
                if message.get("event") == REVOKED_EVENT:  # the account was deleted: this stream ends now
                    await send({"type": "http.response.body", "body": b"", "more_body": False})
                    return
                receiver = asyncio.ensure_future(layer.receive(channel))
                body = sse(message.get("event", "message"), message.get("data", "{}"))
            else:
                body = b": keep-alive\n\n"
            await send({"type": "http.response.body", "body": body, "more_body": True})
            if seat is not None and time.monotonic() - renewed >= keepalive:
                await presence.stream_seen(**seat)
                renewed = time.monotonic()
    finally:
        receiver.cancel()
        disconnected.cancel()
        for group in groups:
            try:
                await layer.group_discard(group, channel)
            except Exception:  # the page is gone either way; never let cleanup raise into the server
                logger.warning("live stream: could not leave %s", group, exc_info=True)
        if seat is not None:
            await presence.stream_closed(**seat)
