"""Which webhook targets the service may send to: public addresses, or those an operator allowlists."""
from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit


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
