"""Sends one webhook POST safely: public addresses only (unless allowed), no redirects, bounded time."""
from __future__ import annotations

import http.client
import ipaddress
import socket
import time
from urllib.parse import urlsplit


class UnsafeTarget(Exception):
    """The webhook URL resolves to an address the service must not send to (loopback, private...)."""


class DeliveryFailed(Exception):
    """The receiver did not answer with a 2xx status (a redirect counts as a failure: never followed)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def parse_allowlist(text: str) -> tuple:
    """The networks named by a comma-separated setting ("127.0.0.1, 10.0.0.0/8, ::1") as ip_networks."""
    nets = []
    for part in (text or "").split(","):
        part = part.strip()
        if part:
            nets.append(ipaddress.ip_network(part, strict=False))
    return tuple(nets)


def _plain(ip):
    """An IPv4-mapped IPv6 address as the IPv4 address it stands for (so ::ffff:127.0.0.1 is loopback)."""
    mapped = getattr(ip, "ipv4_mapped", None)
    return mapped if mapped is not None else ip


def is_public(ip) -> bool:
    """True for a globally routable unicast address: not loopback, link-local, private, multicast,
    reserved or unspecified."""
    ip = _plain(ip)
    return not (ip.is_loopback or ip.is_link_local or ip.is_private or ip.is_multicast
                or ip.is_reserved or ip.is_unspecified or not ip.is_global)


def allowed(ip, allow: tuple) -> bool:
    """True when `ip` is public or inside one of the allowlisted networks."""
    ip = _plain(ip)
    return is_public(ip) or any(ip.version == net.version and ip in net for net in allow)


def literal_refusal(url: str, allow: tuple = ()) -> str | None:
    """Why a webhook URL can be refused before any lookup (its host is `localhost` or a literal address that is
    not public nor allowlisted), or None. A name is checked when a delivery resolves it."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):  # this machine, whatever a resolver would say
        if any(allowed(ipaddress.ip_address(loopback), allow) for loopback in ("127.0.0.1", "::1")):
            return None
        return f"{host} is this machine: webhooks go to public addresses only"
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        try:  # the other ways to write an IPv4 address that resolvers accept: 2130706433, 0x7f000001, 127.1, 0
            ip = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    if allowed(ip, allow):
        return None
    return f"{host} is not a public address (loopback, private, link-local or reserved): webhooks go to public " \
           f"addresses only"


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
