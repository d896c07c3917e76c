"""Web Push: VAPID keys, and sending one encrypted notification (RFC 8291 aes128gcm, via pywebpush).

pywebpush encrypts the payload for the subscription's keys and signs the VAPID header; the HTTP request
itself goes through ``reach.safehttp`` (the endpoint comes from a browser, i.e. from a user, so it gets
the same SSRF protection as a webhook URL).
"""

from __future__ import annotations

import base64
import json
from functools import cache

import requests
from django.conf import settings
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from reach import safehttp

TTL_SECONDS = 24 * 3600  # a push service keeps an undelivered notification this long


def enabled() -> bool:
    return bool(settings.VAPID_PUBLIC_KEY and settings.VAPID_PRIVATE_KEY)


@cache
def _vapid(private_key: str) -> Vapid:
    return Vapid.from_string(private_key=private_key)


def generate_keys() -> tuple[str, str]:
    """A new VAPID key pair as (public, private), both base64url: the public one is the browser's
    ``applicationServerKey``, the private one the raw 32-byte P-256 key."""
    from cryptography.hazmat.primitives import serialization

    vapid = Vapid()
    vapid.generate_keys()
    public = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    private = vapid.private_key.private_numbers().private_value.to_bytes(32, "big")
    return _b64(public), _b64(private)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class _SafeSession:
    """What pywebpush needs of a requests session (``post``), done by ``safehttp``."""

    def post(self, url, *, data=None, headers=None, timeout=None, **kwargs):
        answer = safehttp.post(url, body=data or b"", headers={k: str(v) for k, v in (headers or {}).items()},
                               timeout=min(float(timeout or safehttp.TIMEOUT_SECONDS), safehttp.TIMEOUT_SECONDS))
        response = requests.Response()
        response.status_code = answer.status
        response.reason = answer.reason
        response._content = answer.body
        response.headers.update(answer.headers)
        response.url = url
        return response


class Gone(Exception):
    """The push service says the subscription no longer exists (404/410): forget it."""


class Rejected(Exception):
    """A refusal that retrying will not fix (400, 403, 413...)."""


def send(subscription_info: dict, message: dict) -> None:
    """Push ``message`` (JSON) to one subscription. ``Gone``, ``Rejected``, or a temporary error."""
    try:
        webpush(
            subscription_info,
            data=json.dumps(message, ensure_ascii=False),
            vapid_private_key=_vapid(settings.VAPID_PRIVATE_KEY),
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=TTL_SECONDS,
            timeout=safehttp.TIMEOUT_SECONDS,
            headers={"Urgency": "normal", "Topic": message.get("tag", "")[:32].replace(":", "-")},
            requests_session=_SafeSession(),
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in (404, 410):
            raise Gone(str(exc)) from exc
        if status is not None and status < 500 and status not in (408, 425, 429):
            raise Rejected(str(exc)[:500]) from exc
        raise
