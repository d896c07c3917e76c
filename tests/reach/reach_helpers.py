"""Real peers for the channel tests: a Web Push service that decrypts what it receives (RFC 8291, with
the subscription's own keys) and a webhook receiver that checks signatures, both HTTP servers on 127.0.0.1."""

from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid


def b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Received:
    path: str
    headers: dict
    body: bytes
    plaintext: bytes | None = None
    document: dict | None = None


class _Server(ThreadingHTTPServer):
    daemon_threads = True


@dataclass
class Peer:
    """An HTTP server on 127.0.0.1 answering POSTs with ``answer(path) -> (status, headers)``."""

    handle: callable
    received: list = field(default_factory=list)

    def __post_init__(self) -> None:
        peer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status, headers = peer.handle(self.path, dict(self.headers), body)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class PushService:
    """A push service: one endpoint per browser it knows; decrypts each message with that browser's keys.

    ``/push/<n>`` accepts (201), ``/gone/<n>`` answers 410 (the subscription expired), ``/busy/<n>`` 503.
    It checks the VAPID signature with the public key the request carries and records who sent it.
    """

    def __init__(self) -> None:
        self.browsers: dict[str, tuple] = {}
        self.peer = Peer(self._handle)
        self.received = self.peer.received

    def browser(self, path: str = "push") -> dict:
        """A new subscription as a browser's ``subscription.toJSON()`` gives it (the keys stay here)."""
        private = ec.generate_private_key(ec.SECP256R1())
        auth = os.urandom(16)
        name = f"/{path}/{len(self.browsers) + 1}"
        self.browsers[name] = (private, auth)
        public = private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {"endpoint": self.peer.url(name), "keys": {"p256dh": b64(public), "auth": b64(auth)}}

    def _handle(self, path, headers, body):
        item = Received(path, headers, body)
        self.received.append(item)
        if path.startswith("/gone/"):
            return 410, {}
        if path.startswith("/busy/"):
            return 503, {}
        private, auth = self.browsers[path]
        item.plaintext = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
        item.document = json.loads(item.plaintext)
        headers = {name.lower(): value for name, value in headers.items()}
        item.headers = headers
        authorization = headers.get("authorization", "")
        scheme, _, params = authorization.partition(" ")
        values = dict(part.strip().split("=", 1) for part in params.split(","))
        assert scheme == "vapid" and Vapid.verify(authorization), "bad VAPID signature"
        claims = json.loads(unb64(values["t"].split(".")[1]))
        item.headers["vapid-claims"] = claims
        item.headers["vapid-key"] = values["k"]
        return 201, {"Location": self.peer.url(path + "/msg")}

    def close(self) -> None:
        self.peer.close()


class WebhookReceiver:
    """A webhook receiver: ``/ok`` 204, ``/fail`` 500, ``/redirect`` 302 to ``/ok``, ``/slow`` sleeps."""

    def __init__(self, slow_seconds: float = 3.0) -> None:
        self.slow_seconds = slow_seconds
        self.peer = Peer(self._handle)
        self.received = self.peer.received

    def _handle(self, path, headers, body):
        self.received.append(Received(path, headers, body, document=json.loads(body) if body else None))
        if path.startswith("/fail"):
            return 500, {}
        if path.startswith("/redirect"):
            return 302, {"Location": self.peer.url("/ok-after-redirect")}
        if path.startswith("/slow"):
            time.sleep(self.slow_seconds)
        return 204, {}

    def url(self, path: str) -> str:
        return self.peer.url(path)

    def close(self) -> None:
        self.peer.close()


def play(game, *, index: int = 0):
    """The awaited human seat plays its ``index``-th legal move; returns the seat that moved."""
    from games.play import services
    from tests.games.game_helpers import awaited_human

    game.refresh_from_db()
    seat, view = awaited_human(game)
    assert seat is not None, "no human seat is awaited"
    services.check_play_move(user=seat.user, game_id=game.pk, move=view.legal_moves[index],
                             expected_version=game.version)
    game.refresh_from_db()
    return seat
