"""Small shared helpers: player lookup, dice rolling, dials, temples, payload checks, turn order."""
from __future__ import annotations

from domain.engine import RuleViolation

from .data import COLOURS, DIAL, DICE, START, TEMPLE_TOP, TEMPLES

ARCHON = "archon"


def is_int(value) -> bool:
    """True for a real int (not a bool)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require(cond: bool, rule: str, message: str) -> None:
    """Raise RuleViolation(rule, message) unless `cond` holds."""
    if not cond:
        raise RuleViolation(rule, message)


def roll_die(rng, die_id: str, colour: str) -> dict:
    """A new die of `colour` rolled with a reroll of 6: {id, colour, rolls, value}."""
    rolls = []
    while True:
        value = rng.randint(1, DICE["sides"])
        rolls.append(value)
        if value != DICE["reroll"]:
            return {"id": die_id, "colour": colour, "rolls": rolls, "value": value}


def random_colour(rng) -> str:
    """A uniformly random die colour."""
    return rng.choice(COLOURS)


def plain_die(die: dict) -> dict:
    """The stored form of a die: {id, colour, value} (no roll history)."""
    return {"id": die["id"], "colour": die["colour"], "value": die["value"]}


def next_dial(dial: int) -> int:
    """The dial after a visit: +1, and past the top it wraps (visit.dial-advance)."""
    return DIAL["wraps_to"] if dial >= DIAL["max"] else dial + 1


def lowest_temple(temples: dict) -> str | None:
    """Your lowest temple disc (ties: data order), or None when all are at the top."""
    open_ = [t for t in TEMPLES if temples[t] < TEMPLE_TOP]
    if not open_:
        return None
    return min(open_, key=lambda t: (temples[t], TEMPLES.index(t)))


def free_stands(player: dict) -> int:
    """How many of the player's dice stands are empty."""
    return START["stands"] - len(player["dice"])


def citizen_die(player: dict, die_id) -> dict | None:
    """The player's citizen die (in a stand) with this id, or None."""
    return next((d for d in player["dice"] if d["id"] == die_id), None)


def orator_die(player: dict, die_id) -> dict | None:
    """The orator die the player holds with this id, or None."""
    return next((d for d in player["orator_dice"] if d["id"] == die_id), None)


def ready_workers(player: dict) -> list[str]:
    """Worker ids the player may visit with now: ready citizen dice, held orator dice, the unused Archon."""
    ids = [d["id"] for d in player["dice"] if not d["used"]]
    ids += [d["id"] for d in player["orator_dice"]]
    if not player["archon_used"]:
        ids.append(ARCHON)
    return ids


def next_player(state: dict, also_passed: str | None = None) -> str | None:
    """The next player in round order after the current one who has not passed (maybe the same one)."""
    order = state["order"]
    passed = set(state["passed"]) | ({also_passed} if also_passed else set())
    start = order.index(state["current"])
    for k in range(1, len(order) + 1):
        cand = order[(start + k) % len(order)]
        if cand not in passed:
            return cand
    return None


def rotated(seats: list, first: str) -> list:
    """Seat order rotated so that `first` leads."""
    i = seats.index(first)
    return seats[i:] + seats[:i]


def zero_gains() -> dict:
    """An empty gains record as used by effect_applied."""
    return {"vp": 0, "stone": 0, "food": 0, "wisdom": 0, "war": 0, "temples": {}}
