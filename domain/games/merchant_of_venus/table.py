"""How merchant_of_venus matches are shown: its texts, board and page wording (domain/engine/contract.py, Table)."""
from __future__ import annotations

from pathlib import Path

from domain.engine import Table

from . import words

from . import drawing

TABLE = Table(
    folder=Path(__file__).resolve().parent,
    words=words,
    board=drawing,
)
