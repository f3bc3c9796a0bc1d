"""Chat as fast as moves: a message sent from one player's match page shows on the other's (another browser) within
300 ms at the 95th percentile, against the production server (gunicorn, gevent) in headless Chromium."""
from __future__ import annotations

import os

import pytest

from tests.e2e.browser_kit import ARTIFACTS, chromium, indicator_says, session_context
from tests.e2e.live_kit import Server, duel, streams_open
from tests.e2e.processes import spawn, stop
from tests.waiting import wait_for

pytestmark = [pytest.mark.browser, pytest.mark.slow]
MESSAGES = 16  # 8 each way: the chat limit is 20 a minute per player
SEEN = """() => { window.__said = {}; const box = document.querySelector('[data-live="chat"]');
  new MutationObserver(() => { for (const p of box.querySelectorAll('.said')) {
    if (!(p.textContent in window.__said)) { window.__said[p.textContent] = Date.now(); } } })
    .observe(box, {childList: true, subtree: true, characterData: true}); }"""


def test_a_chat_message_reaches_the_other_page_as_fast_as_a_move(redis_url, tmp_path):
    import redis
    r = redis.Redis.from_url(redis_url, decode_responses=True)
    r.flushdb()
    server = Server(redis_url, tmp_path)
    server.start()
    worker = spawn(["worker"], redis_url, tmp_path / "worker.log")
    try:
        ann, bob, _apis, mid = duel(server.base)
        with chromium() as browser:
            pages = []
            for user in (ann, bob):  # two browsers: two people
                page = session_context(browser, server.base, r, user["id"]).new_page()
                page.goto(f"{server.base}/matches/{mid}")
                indicator_says(page, "live")
                page.evaluate(SEEN)
                pages.append(page)
            wait_for(lambda: streams_open(server.base) == 2, 10, "a stream per browser")
            delays = []
            for i in range(MESSAGES):
                sender, reader = pages[i % 2], pages[1 - i % 2]
                text = f"message {i} from {'ann' if i % 2 == 0 else 'bob'}"
                sender.fill("#chat-text", text)
                sent = sender.evaluate("() => Date.now()")
                sender.click("#chat-form button[type=submit]")
                reader.wait_for_function("t => window.__said[t] !== undefined", arg=text, timeout=10000)
                delays.append(reader.evaluate("t => window.__said[t]", text) - sent)
                sender.wait_for_function("t => window.__said[t] !== undefined", arg=text, timeout=10000)
        delays.sort()
        p95 = delays[int(0.95 * (len(delays) - 1))]
        load = os.getloadavg()[0] / (os.cpu_count() or 1)
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / "chat-latency.txt").write_text(
            f"chat click -> other page (load {load:.1f} per core), ms: " + " ".join(f"{d:.0f}" for d in delays) + "\n")
        budget = 300 if load <= 2 else 1000  # two renderers and the server share 2 cores
        assert p95 <= budget, f"chat p95 {p95} ms > {budget} ms (load {load:.1f}/core): {delays}"
    finally:
        stop(worker)
        server.stop()
