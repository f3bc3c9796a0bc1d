"""`turnstream bench --versus`: its phases interleave the servers, the peer's moves follow its stateIDs from phase to
phase, the peer's process is found by its port, and the ratios pair each round's own phases."""
from __future__ import annotations

import json
import os
import socket
import threading
from argparse import Namespace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from service.cli.bench.versus import VersusLoad, _flip, listening_pids, plan, ratios_over


def test_each_phase_group_runs_every_server_and_flipped_rounds_swap_their_order():
    """Every client count and kind runs on turnstream, the baseline and (notes only) the peer; a flipped round runs
    the same phases with each group's servers in the opposite order."""
    phases = plan(Namespace(kinds="note,state", baseline="/tmp/b", peer="http://127.0.0.1:1"))
    assert phases[:5] == [("turnstream", "note", 1), ("baseline", "note", 1), ("peer", "note", 1),
                          ("turnstream", "state", 1), ("baseline", "state", 1)]
    assert len(phases) == 3 * 5
    flipped = _flip(phases)
    assert flipped[:5] == [("peer", "note", 1), ("baseline", "note", 1), ("turnstream", "note", 1),
                           ("baseline", "state", 1), ("turnstream", "state", 1)]
    assert sorted(flipped) == sorted(phases)


def test_the_peers_process_is_found_by_the_port_it_listens_on():
    """A socket this process listens on names this process; a port nobody listens on names none."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    port = listener.getsockname()[1]
    assert os.getpid() in listening_pids(port)
    listener.close()
    assert listening_pids(port) == []


def test_ratios_pair_the_phases_of_one_round():
    """Turnstream's server CPU and rate over the peer's, round by round (a round without the peer's phase: none)."""
    def row(rnd, target, cpu, rate):
        return {"round": rnd, "kind": "note", "clients": 8, "target": target, "server_cpu_ms": cpu, "per_s": rate}
    rows = [row(1, "turnstream", 1.0, 500), row(1, "peer", 0.5, 1000), row(2, "turnstream", 0.6, 900),
            row(2, "peer", 0.4, 1200), row(3, "turnstream", 2.0, 100)]
    cpu, rate = ratios_over(rows, "peer")[("note", 8)]
    assert cpu == pytest.approx([2.0, 1.5]) and rate == pytest.approx([0.5, 0.75])


class _Peer(BaseHTTPRequestHandler):
    """A peer that accepts a note only at the match's next stateID (as boardgame.io's master does)."""

    protocol_version = "HTTP/1.1"
    seen: list = []

    def do_POST(self):  # noqa: N802 (http.server's name)
        sent = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        ok = sent["stateID"] == len(self.seen) and sent["move"] == "note" and sent["credentials"] == "secret"
        if ok:
            self.seen.append(sent["stateID"])
        body = json.dumps({"stateID": len(self.seen)} if ok else {"error": "stale"}).encode()
        self.send_response(200 if ok else 409)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass  # the fake peer stays quiet: the test reads its answers, not its log


def test_peer_moves_follow_the_matchs_state_from_phase_to_phase():
    """Two peer phases on one match send stateIDs 0, 1, 2, ... without a gap or a refusal."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Peer)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    data = {"plans": [], "tokens": {}, "notes": [], "state_targets": []}
    gen = VersusLoad({"turnstream": port, "peer": port}, {"turnstream": data}, [("m1", "0", "secret")], {})
    try:
        gen.target("peer")
        first = gen.phase("peer", 1, 0.1)
        second = gen.phase("peer", 1, 0.1)
    finally:
        server.shutdown()
    assert first["latencies"] and second["latencies"]
    assert _Peer.seen == list(range(len(_Peer.seen))) and gen.peer_state == [len(_Peer.seen)]
