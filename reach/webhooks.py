"""Webhook calls: the JSON body, its signature, and what a failure does to the hook.

Signature (documented in docs/notifications.md with a verification example): headers
``X-Mammamia-Timestamp: <unix seconds>`` and ``X-Mammamia-Signature: v1=<hex>`` where ``<hex>`` is
HMAC-SHA256 with the hook's secret over ``"<timestamp>." + body`` (the raw bytes). A receiver recomputes
it, compares in constant time, and refuses timestamps more than 5 minutes away from its clock (replays).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time

from reach import safehttp

USER_AGENT = "mammamia-webhooks/1"
# Failed attempts in a row (across deliveries) after which a hook is turned off and its owner told.
MAX_CONSECUTIVE_FAILURES = 8


def signature(*, secret: str, timestamp: int, body: bytes) -> str:
    mac = hmac.new(secret.encode(), f"{timestamp}.".encode() + body, hashlib.sha256).hexdigest()
    return f"v1={mac}"


def verify(*, secret: str, timestamp: str, signature_header: str, body: bytes, now: float | None = None,
           tolerance: int = 300) -> bool:
    """What a receiver does (also used by our tests): True if the call is authentic and fresh."""
    try:
        stamp = int(timestamp)
    except (TypeError, ValueError):
        return False
    if abs((now if now is not None else time.time()) - stamp) > tolerance:
        return False
    expected = signature(secret=secret, timestamp=stamp, body=body)
    return hmac.compare_digest(expected, signature_header or "")


class Rejected(Exception):
    """The receiver answered, but not with 2xx."""


def call(*, url: str, secret: str, event: str, delivery_id: int, document: dict) -> None:
    """POST one event. Returns on 2xx; ``safehttp.Refused`` (never retried), ``Rejected`` or a network error."""
    body = json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode()
    stamp = int(time.time())
    answer = safehttp.post(url, body=body, headers={
        "Content-Type": "application/json; charset=utf-8",
        "User-Agent": USER_AGENT,
        "X-Mammamia-Event": event,
        "X-Mammamia-Delivery": str(delivery_id),
        "X-Mammamia-Timestamp": str(stamp),
        "X-Mammamia-Signature": signature(secret=secret, timestamp=stamp, body=body),
    })
    if not 200 <= answer.status < 300:
        raise Rejected(f"HTTP {answer.status} {answer.reason}".strip())


def document(*, delivery_id: int, message: dict, created_at) -> dict:
    """The JSON a hook receives. ``text`` (Slack, Mattermost) and ``content`` (Discord) carry a one-line summary,
    so their incoming webhooks show it as a message without any glue; it holds words players typed (chat, names),
    so no mention in it may ping anyone (``for_slack``, ``for_discord``, and Discord's ``allowed_mentions``).
    The structured fields (``body``, ``chat``...) keep the exact words, for programs."""
    summary = f"{message['title']}: {message['body']} {message['url']}"
    return {
        "id": delivery_id,
        "event": message["kind"],
        "created_at": created_at.isoformat(),
        "text": for_slack(summary),
        "content": for_discord(summary),
        "allowed_mentions": {"parse": []},
        **{k: v for k, v in message.items() if k not in ("tag", "kind")},
    }


# An invisible break after "@" or "<" stops chat services from reading a mention (@everyone, @here, @channel,
# @name, <@id>, <#id>, <!channel>...) while the text reads the same.
_ZWSP = "\u200b"
_AT_MENTION = re.compile(r"@(?=\w)")
_TAG_MENTION = re.compile(r"<(?=[@#!/:&])")


def for_discord(text: str) -> str:
    """``text`` that Discord (and any client ignoring ``allowed_mentions``) shows as typed, pinging nobody."""
    return _TAG_MENTION.sub("<" + _ZWSP, _AT_MENTION.sub("@" + _ZWSP, text))


def for_slack(text: str) -> str:
    """``text`` for Slack's mrkdwn: ``&``, ``<``, ``>`` escaped as Slack asks (so ``<!channel>`` is plain text),
    and plain ``@channel``/``@name`` broken for Slack-compatible services that link them."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _AT_MENTION.sub("@" + _ZWSP, escaped)
