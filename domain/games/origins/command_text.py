"""describe_command: one readable order per legal command for the action buttons ("Build the Shrine on D4")."""
from __future__ import annotations

from domain.engine.text import T, Text, joined, name as printed

from .common import ARCHON
from .data import DATA, tile_kind_name
from .mains import attack_event  # what an attack would emit, worked out by the rules themselves
from .names import tile_name, words

_CITIZEN_COSTS = DATA["citizen_row"]["costs"]
_DISTRICT_NEEDS = {c["id"]: c["needs"] for c in DATA["district_cards"]}
_RESOURCES = ("stone", "food", "wisdom")


def district_card_name(card_id) -> Text:
    """A district card by what it needs: "the blue + red district card"."""
    needs = _DISTRICT_NEEDS.get(card_id)
    if not needs:
        return T("a district card")
    return T("the {needs} district card", needs=joined([printed(c) for c in needs], " + "))


def amount(n, resource) -> Text:
    """`2 food`, `1 wisdom`: a count of a resource (or of VP, war) as the game words it."""
    return T("{n} {resource}", n=n, resource=printed(resource))


def _die_text(die: dict, pool: list, kind: str) -> Text:
    """"your blue 3 die", with its stand number when another die looks the same."""
    colour, value = printed(die["colour"]), die["value"]
    twins = [d for d in pool if d.get("colour") == die.get("colour") and d.get("value") == die.get("value")]
    if kind == "die":
        if len(twins) > 1:
            return T("your {colour} {value} die (stand {stand})", colour=colour, value=value,
                     stand=pool.index(die) + 1)
        return T("your {colour} {value} die", colour=colour, value=value)
    if len(twins) > 1:
        return T("your {colour} {value} orator die (#{number})", colour=colour, value=value,
                 number=pool.index(die) + 1)
    return T("your {colour} {value} orator die", colour=colour, value=value)


def worker_name(state: dict, pid, worker) -> Text:
    """A worker in words: a citizen die by colour and value, an orator die, or the Archon."""
    if worker == ARCHON:
        return T("the Archon")
    me = (state.get("players") or {}).get(pid) or {}
    for pool, kind in ((me.get("dice") or [], "die"), (me.get("orator_dice") or [], "orator die")):
        for die in pool:
            if die.get("id") == worker:
                return _die_text(die, pool, kind)
    return T("a die")


def _the(*parts) -> Text:
    """`the Workshop` / `slot 2` held together by no-break spaces: one line, and one word for the grouping."""
    if parts and parts[0] == "slot":
        return T("slot\u00a0{slot}", slot=parts[1] if len(parts) > 1 else "")
    return T("the\u00a0{place}", place=joined(parts, "\u00a0"))


def _attack_gain(state: dict, pid) -> Text:
    """`: gain 2 food and 1 VP` — what an attack from the player's war position brings (attack.reward)."""
    try:
        data = attack_event(state, pid, 0, "words")["data"]
    except Exception:  # words never fail a page: the bare verb then
        return Text("")
    gains = [_amounts(data.get("reward") or {})] if any((data.get("reward") or {}).values()) else []
    if data.get("vp"):
        gains.append(amount(data["vp"], "VP"))
    if gains:
        return T(": gain {gains}", gains=joined(gains, T(" and ")))
    return T(": gains nothing yet (move up the war track first)")


def _amounts(p: dict) -> Text:
    parts = [amount(p[r], r) for r in _RESOURCES if p.get(r)]
    return joined(parts, T(" and "), empty=T("nothing"))


def _row_die(row: list, slot) -> Text:
    die = row[slot - 1] if isinstance(slot, int) and 0 < slot <= len(row) else None
    die = (die or {}).get("die", die) if isinstance(die, dict) else None
    if isinstance(die, dict) and "colour" in die:
        return T("the {colour} {value} die", colour=printed(die["colour"]), value=die["value"])
    return T("the die")


def market_tile_name(state: dict, tile) -> Text:
    """A market tile's name, with its market slot when the other copy lies in the market too."""
    market = [t for t in state.get("market") or []]
    text = tile_name(tile)
    twins = [t for t in market if isinstance(t, str) and tile_kind_name(t) == tile_kind_name(str(tile))]
    if len(twins) > 1 and tile in market:
        return T("{tile} from market slot {slot}", tile=text, slot=market.index(tile) + 1)
    return text


def _build(state: dict, p: dict, bonus: bool) -> Text:
    what = {"tile": market_tile_name(state, p.get("tile")), "cell": p.get("cell")}
    if p.get("as_farm"):
        return T("Build the {tile} as a farm on {cell} (bonus)", **what) if bonus \
            else T("Build the {tile} as a farm on {cell}", **what)
    return T("Build the {tile} on {cell} (bonus)", **what) if bonus else T("Build the {tile} on {cell}", **what)


def _close(state: dict, pid, p: dict) -> Text:
    what = {"anchor": p.get("anchor"), "worker": worker_name(state, pid, p.get("die"))}
    if p.get("card"):
        return T("Close the district at {anchor} with {worker}, taking {card}", card=district_card_name(p["card"]),
                 **what)
    return T("Close the district at {anchor} with {worker}", **what)


def describe_command(state: dict, command: dict, name) -> str:
    """The command as an order in words for the player to act (`state["current"]`)."""
    t = command.get("type")
    p = command.get("payload") or {}
    pid = state.get("current")
    # The page groups the buttons of one kind (the sites one worker may visit, the slots of a row) under their
    # common leading words: the shared part comes first, and a choice's name is bound to its article (`_the`)
    # so that the common words end before it ("Send your blue 3 die" | "to the Workshop").
    if t == "visit":
        return T("Send {worker} to {site}", worker=worker_name(state, pid, p.get("worker")),
                 site=_the(words(p.get("site"))))
    if t == "pass":
        return T("Pass for the rest of the round")
    if t == "end_visit":
        return T("End the visit")
    if t == "attack":
        return T("Attack{gain}", gain=_attack_gain(state, pid))
    if t == "spend_food":
        die, war = p.get("to_die", 0), p.get("to_war", 0)
        gains = [g for g in (T("+{die} on the die", die=die) if die else "", T("+{war} war", war=war) if war else "")
                 if g]
        return T("Spend {food} food: {gains}", food=die + war, gains=joined(gains, T(" and ")))
    if t == "take_citizen_die":
        slot = p.get("slot")
        cost = _CITIZEN_COSTS[slot - 1] if isinstance(slot, int) and 0 < slot <= len(_CITIZEN_COSTS) else "?"
        return T("Take a citizen die from {slot}: {die} for {cost} wisdom", slot=_the("slot", slot),
                 die=_row_die(state.get("citizen_row") or [], slot), cost=cost)
    if t == "gather":
        return T("Gather {amounts}", amounts=_amounts(p))
    if t == "advance_temple":
        return T("Advance 2 on {temple} temple", temple=_the(words(p.get("temple"))))
    if t in ("build", "bonus_build"):
        return _build(state, p, t == "bonus_build")
    if t == "close_district":
        return _close(state, pid, p)
    if t == "bonus_temple":
        return T("Advance 1 on {temple} temple (bonus)", temple=_the(words(p.get("temple"))))
    if t == "bonus_war":
        return (T("Attack{gain} (bonus)", gain=_attack_gain(state, pid)) if p.get("choice") == "attack"
                else T("Advance 1 on the war track (bonus)"))
    if t == "bonus_orator":
        return T("Take an orator die from {slot} (bonus): {die}", slot=_the("slot", p.get("slot")),
                 die=_row_die(state.get("orator_row") or [], p.get("slot")))
    if t == "bonus_resource":
        return T("Take 1 {resource} (bonus)", resource=printed(p.get("resource")))
    return Text(str(t).replace("_", " ").capitalize())
