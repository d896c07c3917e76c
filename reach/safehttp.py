"""POSTing to addresses that users give us (webhook URLs, push endpoints) without letting them reach
our own network (SSRF).

Every request: parse the URL (http or https only, no credentials), resolve the host name, refuse if ANY
address it resolves to is not a public one (private, loopback, link-local, multicast, reserved, shared,
IPv4-mapped forms of those...), then connect to the checked address itself, so a DNS answer that changes
between the check and the connection (rebinding) cannot move us elsewhere; TLS still verifies the
certificate for the host name. Redirects are never followed (a 3xx is a failure).

One deadline for the whole call (``timeout``, ``TIMEOUT_SECONDS`` by default): the name lookup, the
connection, the TLS handshake, sending the request and reading the whole answer together, whatever the
receiver does (a byte every few seconds keeps each read alive, never the call). The answer is read with
h11, a strict HTTP/1.1 parser, and counts only when it is complete: a status line, a 200 then a closed
connection, or a body shorter than its length is ``IncompleteAnswer``, never a success. Answers are
bounded (``MAX_RESPONSE_BYTES``).

``ALLOWED_FOR_TESTS`` is the only way to reach a non-public address: a module attribute (not a setting,
not read from the environment), empty in production; the tests add 127.0.0.1 to talk to their receivers.
"""

from __future__ import annotations

import ipaddress
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import h11

ALLOWED_FOR_TESTS: set[ipaddress.IPv4Network | ipaddress.IPv6Network] = set()
# The whole call, lookup to last byte: a receiver can never hold a worker longer (see reach.tasks' limits).
TIMEOUT_SECONDS = 10.0
MAX_RESPONSE_BYTES = 64 * 1024


class Refused(Exception):
    """The URL may never be called (bad scheme, credentials, a non-public address): retrying cannot help."""


class IncompleteAnswer(OSError):
    """The receiver closed the connection before its answer was whole, or answered what is not HTTP/1.1:
    nothing says it got the request (a temporary failure, retried)."""


class AnswerTooLarge(OSError):
    """The answer is longer than ``MAX_RESPONSE_BYTES``."""


@dataclass
class Response:
    status: int
    reason: str = ""
    headers: dict = field(default_factory=dict)
    body: bytes = b""


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if any(ip in network for network in ALLOWED_FOR_TESTS):
        return True
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour
        if mapped is not None:
            return is_public(str(mapped))
    return ip.is_global and not ip.is_multicast and not ip.is_reserved


def check_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path with query) of a URL we may call, or ``Refused``."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise Refused(f"not a valid URL: {exc}") from exc
    if parts.scheme not in ("http", "https"):
        raise Refused("only http and https URLs")
    if parts.username or parts.password:
        raise Refused("no credentials in the URL")
    host = parts.hostname
    if not host:
        raise Refused("no host")
    port = port or (443 if parts.scheme == "https" else 80)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return parts.scheme, host, port, path


def remaining(deadline: float) -> float:
    """Seconds left before ``deadline`` (``time.monotonic``); ``TimeoutError`` when none are."""
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError("no complete answer within the deadline")
    return left


def _lookup(host: str, port: int, deadline: float) -> list:
    """``getaddrinfo`` within the deadline. The resolver cannot be interrupted, so it runs in a daemon thread
    that we stop waiting for (it ends on its own at the resolver's timeout)."""
    try:
        ipaddress.ip_address(host)
    except ValueError:
        pass
    else:  # an address literal: no DNS to wait for
        return socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    outcome: dict = {}

    def lookup() -> None:
        try:
            outcome["infos"] = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        except Exception as exc:  # noqa: BLE001 - handed to the caller below
            outcome["error"] = exc

    thread = threading.Thread(target=lookup, name=f"resolve {host}", daemon=True)
    thread.start()
    thread.join(remaining(deadline))
    if thread.is_alive():
        raise TimeoutError(f"no address for {host} within the deadline")
    if "error" in outcome:
        raise outcome["error"]
    return outcome["infos"]


def resolve(host: str, port: int, *, deadline: float | None = None) -> str:
    """The address to connect to: every address of ``host`` must be public; the first one is used."""
    try:
        infos = _lookup(host, port, deadline if deadline is not None else time.monotonic() + TIMEOUT_SECONDS)
    except (socket.gaierror, UnicodeError) as exc:
        raise OSError(f"cannot resolve {host}: {exc}") from exc  # temporary: DNS may come back
    addresses = [info[4][0] for info in infos]
    if not addresses:
        raise OSError(f"{host} has no address")
    for address in addresses:
        if not is_public(address):
            raise Refused(f"{host} resolves to {address}, which is not a public address")
    return addresses[0]


def _connect(scheme: str, host: str, address: str, port: int, deadline: float) -> socket.socket:
    sock = socket.create_connection((address, port), remaining(deadline))
    if scheme != "https":
        return sock
    try:
        sock.settimeout(remaining(deadline))  # the handshake as a whole (CPython bounds it by the timeout)
        return ssl.create_default_context().wrap_socket(sock, server_hostname=host)
    except BaseException:
        sock.close()
        raise


def _host_header(host: str, port: int, scheme: str) -> str:
    """What the Host header says: an internationalised name in its ASCII (IDNA) form, as a URL's host is sent."""
    try:
        name = host.encode("ascii").decode()
    except UnicodeEncodeError:
        try:
            name = host.encode("idna").decode("ascii")
        except UnicodeError as exc:
            raise Refused(f"not a valid host name: {exc}") from exc
    name = f"[{name}]" if ":" in name else name
    return name if port == (443 if scheme == "https" else 80) else f"{name}:{port}"


def _exchange(sock: socket.socket, request: h11.Request, body: bytes, deadline: float) -> Response:
    """Send one request and read its whole answer, every socket operation within what is left of the deadline."""
    conn = h11.Connection(h11.CLIENT, max_incomplete_event_size=16 * 1024)
    sock.settimeout(remaining(deadline))
    sock.sendall(conn.send(request) + conn.send(h11.Data(data=body)) + conn.send(h11.EndOfMessage()))
    answer: h11.Response | None = None
    content = bytearray()
    while True:
        try:
            event = conn.next_event()
        except h11.RemoteProtocolError as exc:
            raise IncompleteAnswer(f"incomplete or malformed answer: {exc}") from exc
        if event is h11.NEED_DATA:
            sock.settimeout(remaining(deadline))
            conn.receive_data(sock.recv(16 * 1024))  # b"": the receiver closed (an end, or a cut)
        elif isinstance(event, h11.Response):
            answer = event
        elif isinstance(event, h11.Data):
            content += event.data
            if len(content) > MAX_RESPONSE_BYTES:
                raise AnswerTooLarge(f"answer longer than {MAX_RESPONSE_BYTES} bytes")
        elif isinstance(event, h11.EndOfMessage):
            assert answer is not None  # h11 gives the Response first
            headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in answer.headers}
            return Response(answer.status_code, answer.reason.decode("latin-1"), headers, bytes(content))
        elif isinstance(event, h11.ConnectionClosed):
            raise IncompleteAnswer("the receiver closed the connection without a complete answer")
        # h11.InformationalResponse (100 Continue...): the real answer follows


def post(url: str, *, body: bytes, headers: dict[str, str], timeout: float = TIMEOUT_SECONDS) -> Response:
    """POST ``body`` to ``url`` safely, the whole call within ``timeout`` seconds (see the module docstring).

    ``Refused``, or a temporary ``OSError``: ``TimeoutError``, ``IncompleteAnswer``, ``AnswerTooLarge``, a
    connection error. Header names in the ``Response`` are lower case."""
    deadline = time.monotonic() + timeout
    scheme, host, port, path = check_url(url)
    address = resolve(host, port, deadline=deadline)
    ours = {"host", "content-length", "connection", "transfer-encoding"}
    try:
        request = h11.Request(method="POST", target=path, headers=[
            ("Host", _host_header(host, port, scheme)),
            ("Content-Length", str(len(body))),
            ("Connection", "close"),
            *((name, value) for name, value in headers.items() if name.lower() not in ours),
        ])
    except h11.LocalProtocolError as exc:  # a header value with a line break...: never sendable
        raise Refused(f"cannot send this request: {exc}") from exc
    sock = _connect(scheme, host, address, port, deadline)
    try:
        return _exchange(sock, request, body, deadline)
    finally:
        sock.close()
