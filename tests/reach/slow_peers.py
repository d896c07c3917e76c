"""Misbehaving HTTP receivers on 127.0.0.1, written at the socket level (a real HTTP server library would not
misbehave on purpose): one that answers a byte at a time, one that stops in the middle of its answer."""

from __future__ import annotations

import socket
import threading
import time


class RawPeer:
    """Accepts connections, reads the request, then plays ``script(connection)``: what a bad receiver sends.

    ``calls`` counts the requests seen; ``holding`` is set while a request is being answered (a delivery in
    flight); ``release`` ends every script early (the test is done)."""

    def __init__(self, script) -> None:
        self.script = script
        self.calls = 0
        self.holding = threading.Event()
        self.release = threading.Event()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self.server.accept()
            except OSError:
                return
            threading.Thread(target=self._answer, args=(connection,), daemon=True).start()

    def _answer(self, connection: socket.socket) -> None:
        with connection:
            connection.settimeout(5)
            request = b""
            try:
                while b"\r\n\r\n" not in request:
                    request += connection.recv(65536)
                head, _, body = request.partition(b"\r\n\r\n")
                length = next((int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                               if line.lower().startswith(b"content-length:")), 0)
                while len(body) < length:
                    body += connection.recv(65536)
                self.calls += 1
                self.holding.set()
                self.script(self, connection)
            except OSError:
                pass  # the caller hung up: what a deadline does

    def close(self) -> None:
        self.release.set()
        self.server.close()


def drip(answer: bytes, every: float):
    """Send ``answer`` one byte every ``every`` seconds (each read of the caller gets something in time)."""
    def script(peer: RawPeer, connection: socket.socket) -> None:
        for byte in answer:
            if peer.release.wait(every):
                return
            connection.sendall(bytes([byte]))
    return script


def send_then_close(answer: bytes):
    def script(peer: RawPeer, connection: socket.socket) -> None:
        connection.sendall(answer)
    return script


def hold(seconds: float, answer: bytes = b"HTTP/1.1 204 No Content\r\n\r\n"):
    """Keep the request ``seconds`` (or until released), then answer properly."""
    def script(peer: RawPeer, connection: socket.socket) -> None:
        started = time.monotonic()
        peer.release.wait(seconds)
        if time.monotonic() - started < seconds:
            return
        connection.sendall(answer)
    return script
