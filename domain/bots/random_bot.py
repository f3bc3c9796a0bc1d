"""The random bot: a uniformly chosen legal command."""
from __future__ import annotations

from .information import InformationSet, SimRng


def choose(info: InformationSet, seed: int) -> dict:
    """One of the seat's legal commands, uniformly at random (seeded)."""
    return SimRng(seed).choice(info.legal)
