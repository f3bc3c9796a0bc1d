"""Setup, the end of a turn, turn order and victory."""
from __future__ import annotations

from domain.engine import RuleViolation, event
from domain.engine.text import T

from . import data
from .state import net_worth


def setup_events(players: list[str], options: dict, rng) -> list[dict]:
    """match_started, cards_dealt and the first turn_started."""
    n = len(players)
    first = players[rng.randint(0, n - 1)]
    races = options.get("races")
    if races is None:
        races = rng.shuffled(data.RACES)[:n]
    elif len(races) != n:
        raise RuleViolation("turn.payload", T("The races option must name one race per seat."))
    fixed = options.get("fixed_cultures")
    if fixed:
        placement = {s: fixed[s] for s in data.SYSTEM_ORDER}
        set_aside = next(c for c in data.CULTURE_ORDER if c not in placement.values())
    else:
        cards = rng.shuffled(data.CULTURE_ORDER)
        placement = dict(zip(data.SYSTEM_ORDER, cards))
        set_aside = cards[len(data.SYSTEM_ORDER)]
    return [
        event("match_started", seats=list(players), races=dict(zip(players, races)), first_player=first,
              cash=options["starting_cash"], options=dict(options)),
        event("cards_dealt", placement=placement, set_aside=set_aside),
        event("turn_started", player=first, round=1),
    ]


def _round_limit_winners(state: dict) -> list[str]:
    """victory.round-limit: highest net worth, then most cash; a remaining tie is shared."""
    best = max((net_worth(state, p), state["pl"][p]["cash"]) for p in state["players"])
    return [p for p in state["players"] if (net_worth(state, p), state["pl"][p]["cash"]) == best]


def end_turn(sim, pid: str) -> None:
    """turn_ended, then either match_finished or the next turn_started."""
    state = sim.state
    sim.emit("turn_ended", player=pid, net_worth=net_worth(state, pid))
    worths = {p: net_worth(sim.state, p) for p in sim.state["players"]}
    finish = dict(net_worths=worths, placement=dict(sim.state["placement"]), set_aside=sim.state["set_aside"])
    if worths[pid] >= sim.state["options"]["target_net_worth"]:
        sim.emit("match_finished", winners=[pid], reason="target", **finish)
        return
    seats = sim.state["players"]
    nxt = seats[(seats.index(pid) + 1) % len(seats)]
    rnd = sim.state["round"] + (1 if nxt == sim.state["first_player"] else 0)
    if rnd > sim.state["options"]["max_rounds"]:
        sim.emit("match_finished", winners=_round_limit_winners(sim.state), reason="round_limit", **finish)
        return
    sim.emit("turn_started", player=nxt, round=rnd)
