"""The worker process's wiring, built once on first use (never at import time)."""
from __future__ import annotations

from service.bootstrap import Wiring, build

_WIRING = None


def wiring() -> Wiring:
    """The worker's dependencies (store, match loader, read models), built from the environment."""
    global _WIRING
    if _WIRING is None:
        _WIRING = build()
    return _WIRING


def use(built: Wiring | None) -> None:
    """Use an already built wiring (tests and the embedded runner); None: build it again on first use."""
    global _WIRING
    _WIRING = built
