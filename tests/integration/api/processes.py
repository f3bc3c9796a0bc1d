"""Web processes of their own for the API tests: each with its own wiring and limiter on the shared test Redis."""
from __future__ import annotations

import dataclasses

from service import create_app
from service.bootstrap import build


def process(wiring, games, **limits):
    """A Flask test client standing for one web process of its own (own wiring, own limiter) on the
    shared test Redis, with the given settings."""
    w = build(dataclasses.replace(wiring.settings, **limits), redis_client=wiring.redis, games=games)
    return create_app(wiring=w).test_client()
