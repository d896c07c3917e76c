"""POSTing to addresses that users give us (webhook URLs, push endpoints) without letting them reach
our own network (SSRF).

Every request: parse the URL (http or https only, no credentials), resolve the host name, refuse if ANY
address it resolves to is not a public one (private, loopback, link-local, multicast, reserved, shared,
IPv4-mapped forms of those...), then connect to the checked address itself, so a DNS answer that changes
between the check and the connection (rebinding) cannot move us elsewhere; TLS still verifies the
certificate for the host name. Short timeouts, a bounded response, and redirects are never followed (a
3xx is a failure).

``ALLOWED_FOR_TESTS`` is the only way to reach a non-public address: a module attribute (not a setting,
not read from the environment), empty in production; the tests add 127.0.0.1 to talk to their receivers.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass, field
from urllib.parse import urlsplit

ALLOWED_FOR_TESTS: set[ipaddress.IPv4Network | ipaddress.IPv6Network] = set()
TIMEOUT_SECONDS = 5.0
MAX_RESPONSE_BYTES = 64 * 1024


class Refused(Exception):
    """The URL may never be called (bad scheme, credentials, a non-public address): retrying cannot help."""


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


def resolve(host: str, port: int) -> str:
    """The address to connect to: every address of ``host`` must be public; the first one is used."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        raise OSError(f"cannot resolve {host}: {exc}") from exc  # temporary: DNS may come back
    addresses = [info[4][0] for info in infos]
    if not addresses:
        raise OSError(f"{host} has no address")
    for address in addresses:
        if not is_public(address):
            raise Refused(f"{host} resolves to {address}, which is not a public address")
    return addresses[0]


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self._address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self._address = address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)


def post(url: str, *, body: bytes, headers: dict[str, str], timeout: float = TIMEOUT_SECONDS) -> Response:
    """POST ``body`` to ``url`` safely (see the module docstring). ``Refused`` or ``OSError``/``HTTPException``."""
    scheme, host, port, path = check_url(url)
    address = resolve(host, port)
    cls = _PinnedHTTPSConnection if scheme == "https" else _PinnedHTTPConnection
    connection = cls(host, port, address=address, timeout=timeout)
    try:
        connection.request("POST", path, body=body, headers={"Content-Length": str(len(body)), **headers})
        answer = connection.getresponse()
        content = answer.read(MAX_RESPONSE_BYTES)
        return Response(answer.status, answer.reason, dict(answer.getheaders()), content)
    finally:
        connection.close()
