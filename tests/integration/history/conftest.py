"""The history tests' fixtures: a wiring with replay snapshots every 25 versions (`w`), three people, and the cold
wirings a test made closed after it."""
from __future__ import annotations

import pytest

from tests.integration.history.archives import COLD


@pytest.fixture
def w(settings, redis_client, games):
    """The wiring with replay snapshots every 25 versions (so replays before archiving start from them)."""
    from dataclasses import replace

    from service.bootstrap import build
    from workers import context
    made = build(replace(settings, snapshot_every=25), games=games)
    context.use(made)
    yield made
    context.use(None)
    made.live.stop()
    made.users.cache.close()


@pytest.fixture(autouse=True)
def close_cold_wirings():
    """Stop the live readers and token listeners of the cold wirings a test made."""
    yield
    while COLD:
        made = COLD.pop()
        made.live.stop()
        made.users.cache.close()


@pytest.fixture
def people(make_user, w):
    made = [make_user(name) for name in ("ann", "bob", "cy")]
    return [uid for uid, _ in made], {uid: headers for uid, headers in made}
