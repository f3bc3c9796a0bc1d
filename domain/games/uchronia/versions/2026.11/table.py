"""How uchronia matches are shown: its texts, board and page wording (domain/engine/contract.py, Table)."""
from __future__ import annotations

from pathlib import Path

from domain.engine import Table

from . import drawing
from . import words

TABLE = Table(
    folder=Path(__file__).resolve().parent,
    board=drawing,
    words=words,
)
