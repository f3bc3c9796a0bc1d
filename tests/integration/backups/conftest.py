"""The backup tests' fixtures: wiring on a second, empty Redis server to import into, and a real SMTP server on
loopback (tests/mailbox.py's) for the tests that mail."""
from __future__ import annotations

import pytest

from service.bootstrap import build
from service.config import Settings
from service.server.embedded_redis import EmbeddedRedis
from tests.mailbox import mailbox  # noqa: F401 (the fixture, for this folder's modules)


@pytest.fixture
def fresh_wiring(tmp_path, games):
    """Wiring on a second, empty Redis server."""
    from workers import context
    server = EmbeddedRedis(tmp_path / "fresh", appendfsync="no").start()
    w = build(Settings(redis_url=server.url, rate_limit_per_minute=100000), games=games)
    yield w
    context.use(None)
    server.stop()
