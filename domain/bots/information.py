"""What a bot may know: its seat's view, its legal commands, and determinizations consistent with the view."""
from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable

from domain.engine.contract import no_hidden_information
from domain.engine.rng import Rng


class SimRng(Rng):
    """Seeded randomness for a bot's own choices and simulations (never used for a real match's draws)."""

    def __init__(self, seed):
        super().__init__()
        self._random = random.Random(seed)

    def _next(self, lo: int, hi: int) -> int:
        return self._random.randint(lo, hi)

    def shuffle(self, items: list) -> None:
        """Shuffle a list in place."""
        self._random.shuffle(items)

    def random(self) -> float:
        """A float in [0, 1)."""
        return self._random.random()


def command_key(command: dict) -> str:
    """A canonical text for a command (so choices never depend on the order legal commands come in)."""
    return json.dumps({"type": command["type"], "payload": command.get("payload") or {}}, sort_keys=True)


def canonical(commands: list) -> list:
    """The commands as {"type", "payload"} in canonical order, without duplicates."""
    unique = {command_key(c): {"type": c["type"], "payload": c.get("payload") or {}} for c in commands}
    return [unique[k] for k in sorted(unique)]


@dataclass(frozen=True)
class InformationSet:
    """One seat's knowledge: `view` (game.view for the seat), `legal` (its legal commands, but the offers the
    game declares in `offer_commands`, which a bot does not make) and `sample`,
    which draws a full state consistent with the view (the hidden parts re-drawn from what the seat
    cannot tell apart; like OpenSpiel's resample_from_infostate). A bot never gets the state itself."""

    game: Any
    player: str
    view: dict
    legal: list
    _resample: Callable = field(repr=False, compare=False)

    def sample(self, rng: SimRng) -> dict:
        """A determinization: a state whose view for this seat equals `view`."""
        return self._resample(rng)


def information_set(game, state: dict, player: str) -> InformationSet:
    """The information set of `player` in `state`: the only thing a bot decides from."""
    resample = game.bots.resample if game.bots is not None else no_hidden_information
    snapshot = json.loads(json.dumps(state))  # the caller may go on mutating its state
    legal = canonical(game.legal_commands(snapshot, player))
    offers = getattr(game, "offer_commands", frozenset())  # a bot asks nobody to answer an offer
    legal = [c for c in legal if c["type"] not in offers] or legal
    return InformationSet(game=game, player=player, view=game.view(snapshot, player), legal=legal,
                          _resample=lambda rng: resample(snapshot, player, rng))
