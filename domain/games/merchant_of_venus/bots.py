"""What bots need of Merchant of Venus (domain/engine/contract.py, Bots): a score for search and how unseen
culture tokens are re-drawn."""
from __future__ import annotations

import json

from domain.engine import Bots
from domain.engine.contract import shuffled

from .data import CULTURES
from .state import net_worth


def score(state: dict, p: str) -> float:
    """Net worth plus the purchase cost of the cargo carried (so buying to sell later is no loss)."""
    cargo = 0
    for item in state["pl"][p]["cargo"]:
        kind, _, culture = item.partition(":")
        if culture in CULTURES and kind in ("good", "factory"):
            cargo += CULTURES[culture]["goods" if kind == "good" else "factory"]["cost"]
    return net_worth(state, p) + cargo


def seats(state: dict) -> list:
    """Every seat, in seating order."""
    return list(state["players"])



def resample(state: dict, player: str, rng) -> dict:
    """The culture tokens of systems neither revealed nor observed by `player`, and the set-aside one."""
    s = json.loads(json.dumps(state))
    if not s.get("placement"):
        return s
    mine = s["pl"].get(player, {}).get("observed", {})
    unknown = sorted(sid for sid in s["placement"] if sid not in s["revealed"] and sid not in mine)
    cultures = [s["placement"][sid] for sid in unknown] + ([s["set_aside"]] if s.get("set_aside") else [])
    pool = shuffled(cultures, rng)
    for sid, culture in zip(unknown, pool):
        s["placement"][sid] = culture
    if s.get("set_aside"):
        s["set_aside"] = pool[-1]
    for pid, p in s["pl"].items():
        if pid != player:
            p["observed"] = {sid: s["placement"][sid] for sid in p["observed"]}
    s.get("options", {}).pop("fixed_cultures", None)
    return s


BOTS = Bots(score=score, seats=seats, scale=300.0, resample=resample)
