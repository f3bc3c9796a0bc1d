"""Sends one webhook POST safely: public addresses only (unless allowed), no redirects, bounded time."""
from __future__ import annotations

import http.client
import ipaddress
import socket
import time
from urllib.parse import urlsplit

from service.app.webhook_targets import allowed


class UnsafeTarget(Exception):
    """The webhook URL resolves to an address the service must not send to (loopback, private...)."""


class DeliveryFailed(Exception):
    """The receiver did not answer with a 2xx status (a redirect counts as a failure: never followed)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def resolve_allowed(host: str, port: int, allow: tuple = (), resolver=socket.getaddrinfo) -> str:
    """Resolve `host` and check EVERY address it has; return the one to connect to, or raise UnsafeTarget.
    Checking all of them (and connecting to the checked one) leaves no room for a DNS answer that
    changes between the check and the connection."""
    try:
        infos = resolver(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise UnsafeTarget(f"{host} does not resolve: {exc}") from None
    addresses = list(dict.fromkeys(info[4][0] for info in infos))
    if not addresses:
        raise UnsafeTarget(f"{host} has no address")
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if not allowed(ip, allow):
            raise UnsafeTarget(f"{host} resolves to {ip}, a non-public address (allow it with "
                               "TURNSTREAM_WEBHOOK_ALLOW)")
    return addresses[0]


def post_json(url: str, body: bytes, headers: dict, allow: tuple = (), connect_timeout: float = 3.0,
              read_timeout: float = 5.0, resolver=socket.getaddrinfo) -> int:
    """POST `body` to `url` on a checked address; return the 2xx status or raise DeliveryFailed/UnsafeTarget.
    Redirects are never followed; connecting and each read are bounded by their timeouts."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise UnsafeTarget(f"not an http(s) URL: {url!r}")
    port = parts.port or (443 if parts.scheme == "https" else 80)
    address = resolve_allowed(parts.hostname, port, allow, resolver)
    cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = cls(parts.hostname, port, timeout=read_timeout)  # the name stays for Host and TLS (SNI, cert)

    def connect_checked(_address, _timeout=None, source_address=None):
        sock = socket.create_connection((address, port), connect_timeout, source_address)
        sock.settimeout(read_timeout)
        return sock

    conn._create_connection = connect_checked
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    started = time.monotonic()
    try:
        conn.request("POST", path, body=body, headers={**headers, "Content-Length": str(len(body))})
        response = conn.getresponse()
        response.read(64 * 1024)  # a bounded read of the answer; the body is not used
    except (OSError, http.client.HTTPException) as exc:
        raise DeliveryFailed(0, f"{type(exc).__name__}: {exc} after {time.monotonic() - started:.1f} s") from None
    finally:
        conn.close()
    if not 200 <= response.status < 300:
        kind = "redirect (not followed)" if 300 <= response.status < 400 else "status"
        raise DeliveryFailed(response.status, f"HTTP {response.status}: {kind}")
    return response.status
