"""The worker process's wiring, built once on first use (never at import time)."""
from __future__ import annotations

from service.bootstrap import build

_WIRING = None


def wiring():
    """The worker's dependencies (store, match loader, read models), built from the environment."""
    global _WIRING
    if _WIRING is None:
        _WIRING = build()
    return _WIRING


def use(w) -> None:
    """Use an already built wiring (tests and the embedded runner)."""
    global _WIRING
    _WIRING = w
