"""Webhook delivery an attacker cannot turn against the network: public targets only (unless allowed),
redirects never followed, bounded waits, and a slow receiver that delays nothing but its own deliveries."""
from __future__ import annotations

import ipaddress
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from service.store.keys import Keys
from tests.e2e.processes import Api, service
from tests.integration.notifications.receivers import Receiver
from tests.waiting import wait_for
from service.app.webhook_targets import allowed, literal_refusal, parse_allowlist
from workers.webhook_sender import DeliveryFailed, UnsafeTarget, post_json, resolve_allowed

REFUSED = ["127.0.0.1", "127.9.9.9", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "0.0.0.0",
           "224.0.0.1", "255.255.255.255", "100.64.0.1", "::1", "fe80::1", "fc00::1", "ff02::1", "::",
           "::ffff:127.0.0.1", "::ffff:10.0.0.1"]


@pytest.mark.parametrize("address", REFUSED)
def test_loopback_link_local_private_and_multicast_are_refused(address):
    assert not allowed(ipaddress.ip_address(address), ())


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_addresses_are_allowed(address):
    assert allowed(ipaddress.ip_address(address), ())


def test_an_allowlist_names_the_exceptions():
    allow = parse_allowlist("127.0.0.1, 10.0.0.0/8,::1")
    assert allowed(ipaddress.ip_address("127.0.0.1"), allow)
    assert allowed(ipaddress.ip_address("10.200.0.5"), allow)
    assert allowed(ipaddress.ip_address("::1"), allow)
    assert not allowed(ipaddress.ip_address("127.0.0.2"), allow)
    assert not allowed(ipaddress.ip_address("192.168.0.1"), allow)


def fake_resolver(*addresses):
    """A getaddrinfo stand-in answering the given addresses."""
    def resolve(host, port, type=0):
        return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port))
                for a in addresses]
    return resolve


def test_every_address_of_a_name_is_checked():
    """A name with one public and one private address (DNS rebinding) is refused, whatever the order."""
    with pytest.raises(UnsafeTarget):
        resolve_allowed("hooks.example", 443, (), fake_resolver("93.184.216.34", "10.0.0.7"))
    with pytest.raises(UnsafeTarget):
        resolve_allowed("hooks.example", 443, (), fake_resolver("169.254.169.254"))
    assert resolve_allowed("hooks.example", 443, (), fake_resolver("93.184.216.34")) == "93.184.216.34"


def test_a_name_that_does_not_resolve_is_refused():
    def fails(*_a, **_k):
        raise socket.gaierror("no such name")
    with pytest.raises(UnsafeTarget):
        resolve_allowed("nowhere.invalid", 80, (), fails)


def test_delivery_connects_to_the_checked_address_only():
    """The connection goes to the address that was checked, not to a second lookup's answer."""
    receiver = Receiver()
    try:
        port = receiver.server.server_port
        calls = []

        def resolver(host, p, type=0):
            calls.append(host)
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", p))]
        status = post_json(f"http://hooks.example:{port}/hook", b"{}", {"Content-Type": "application/json"},
                           parse_allowlist("127.0.0.1"), resolver=resolver)
        assert status == 200 and calls == ["hooks.example"]
        assert receiver.calls[0]["headers"]["Host"] == f"hooks.example:{port}"
    finally:
        receiver.close()


def test_a_loopback_target_is_refused_without_the_allowlist():
    receiver = Receiver()
    try:
        with pytest.raises(UnsafeTarget):
            post_json(receiver.url, b"{}", {})
        assert receiver.calls == []
    finally:
        receiver.close()


class Redirector:
    """A server that answers every POST with a redirect to `target`."""

    def __init__(self, target: str, status: int = 307):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                self.send_response(status)
                self.send_header("Location", target)
                self.end_headers()

            def log_message(self, *args):
                return
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        """Stop serving."""
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("status", [301, 302, 303, 307, 308])
def test_redirects_are_never_followed(status):
    target = Receiver()
    redirector = Redirector(target.url, status)
    try:
        with pytest.raises(DeliveryFailed) as failed:
            post_json(redirector.url, b"{}", {}, parse_allowlist("127.0.0.1"))
        assert failed.value.status == status
        assert target.calls == [], "the redirect target got nothing (a followed one is called before post_json returns)"
    finally:
        redirector.close()
        target.close()


class Silent:
    """A TCP server that accepts connections and never answers."""

    def __init__(self):
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.held = []
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.held.append(conn)

    def close(self):
        """Stop listening and drop the held connections."""
        for c in self.held:
            c.close()
        self.sock.close()


def test_a_receiver_that_never_answers_costs_one_read_timeout():
    silent = Silent()
    try:
        started = time.monotonic()
        with pytest.raises(DeliveryFailed):
            post_json(silent.url, b"{}", {}, parse_allowlist("127.0.0.1"), connect_timeout=1, read_timeout=0.5)
        assert time.monotonic() - started < 3
    finally:
        silent.close()


@pytest.mark.slow
def test_a_silent_receiver_delays_no_projection(redis_url, tmp_path):
    """Deliveries run in their own worker: while every delivery hangs on a silent receiver, the
    projections of other matches keep their pace (the lobby lists a new match within a second)."""
    import redis
    redis.Redis.from_url(redis_url).flushdb()
    silent = Silent()
    try:
        env = {"TURNSTREAM_WEBHOOK_READ_SECONDS": "30"}
        with service(redis_url, tmp_path, extra_env=env) as base:
            _, ann = Api(base).post("/api/users", {"name": "ann"})
            _, bob = Api(base).post("/api/users", {"name": "bob"})
            ann_api, bob_api = Api(base, ann["token"]), Api(base, bob["token"])
            for api in (ann_api, bob_api):
                assert api.call("PUT", "/api/users/me/webhook", {"url": silent.url})[0] == 200
            for _ in range(3):  # each started match's "your turn" delivery hangs on the silent receiver
                status, m = ann_api.post("/api/matches", {"game": "uchronia", "seats": 2})
                assert status == 201
                assert bob_api.post(f"/api/matches/{m['id']}/join")[0] == 200
            wait_for(lambda: len(silent.held) >= 1, 10, "a delivery hanging on the silent receiver", interval=0.05)
            status, other = bob_api.post("/api/matches", {"game": "uchronia", "seats": 2})
            assert status == 201
            started = time.monotonic()
            wait_for(lambda: any(m["id"] == other["id"] for m in Api(base).get("/api/matches?status=open")[1]["matches"]),
                     5, "the new match in the lobby", interval=0.05)
            assert time.monotonic() - started < 1.5
    finally:
        silent.close()


def bracketed(address: str) -> str:
    """The host part of a URL for `address` (IPv6 in brackets)."""
    return f"[{address}]" if ":" in address else address


@pytest.mark.parametrize("address", REFUSED)
def test_registering_a_literal_private_address_is_refused_at_once(client, make_user, redis_client, address):
    """PUT /api/users/me/webhook says at once that a loopback, private or link-local address is refused (400,
    naming the field), rather than accepting it and failing every delivery later; nothing is stored."""
    user_id, headers = make_user("ann")
    answer = client.put("/api/users/me/webhook", json={"url": f"http://{bracketed(address)}:8080/hook"},
                        headers=headers)
    assert answer.status_code == 400, (address, answer.get_json())
    error = answer.get_json()["error"]
    # marshmallow's URL check already refuses some spellings (an IPv4-mapped IPv6 literal)
    assert error["code"] in ("webhook_address_refused", "invalid_body") and "url" in error["fields"]
    assert redis_client.hget(Keys.user(user_id), "webhook") is None
    assert literal_refusal(f"http://{bracketed(address)}/", ()) is not None


@pytest.mark.parametrize("host", ["0", "2130706433", "0x7f000001", "0177.0.0.1", "127.1", "10.1", "0xa9fea9fe"])
def test_other_spellings_of_a_private_ipv4_address_are_refused_at_once(client, make_user, redis_client, host):
    """Resolvers read 2130706433, 0x7f000001 and 127.1 as 127.0.0.1 (and 0 as 0.0.0.0): refused like it."""
    user_id, headers = make_user("ann")
    answer = client.put("/api/users/me/webhook", json={"url": f"http://{host}:8080/hook"}, headers=headers)
    assert answer.status_code == 400, (host, answer.get_json())
    assert redis_client.hget(Keys.user(user_id), "webhook") is None


@pytest.mark.parametrize("url", ["http://localhost:9000/hook", "https://app.localhost/x", "http://LOCALHOST./"])
def test_localhost_names_are_refused_at_once_unless_loopback_is_allowed(url):
    assert "this machine" in literal_refusal(url, ())
    assert "this machine" in literal_refusal(url, parse_allowlist("10.0.0.0/8"))
    assert literal_refusal(url, parse_allowlist("127.0.0.1")) is None  # the delivery would reach it too


def test_public_addresses_names_and_the_allowlist_register(client, make_user):
    _, headers = make_user("ann")
    for url in ("https://93.184.216.34/hook", "https://hooks.example.com/turnstream", "http://[2606:4700::1111]/h"):
        assert client.put("/api/users/me/webhook", json={"url": url}, headers=headers).status_code == 200, url
    assert literal_refusal("http://10.1.2.3/hook", parse_allowlist("10.0.0.0/8")) is None
