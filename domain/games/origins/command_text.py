"""describe_command: one readable order per legal command for the action buttons ("Build the Shrine on D4")."""
from __future__ import annotations

from .common import ARCHON
from .data import DATA, tile_kind_name

_CITIZEN_COSTS = DATA["citizen_row"]["costs"]
_DISTRICT_NEEDS = {c["id"]: c["needs"] for c in DATA["district_cards"]}
_RESOURCES = ("stone", "food", "wisdom")


def words(raw_id) -> str:
    """An id in words: `war_camp` -> War Camp, `harvest_hall` -> Harvest Hall."""
    return " ".join(w.capitalize() for w in str(raw_id).replace("-", "_").split("_") if w)


def tile_name(tile) -> str:
    """A building tile's full name (`harvest_hall-2` -> Harvest Hall)."""
    return words(tile_kind_name(str(tile)))


def district_card_name(card_id) -> str:
    """A district card by what it needs: "the blue + red district card"."""
    needs = _DISTRICT_NEEDS.get(card_id)
    return f"the {' + '.join(needs)} district card" if needs else "a district card"


def _die_text(die: dict, pool: list, kind: str) -> str:
    """"your blue 3 die", with its stand number when another die looks the same."""
    text = f"your {die['colour']} {die['value']} {kind}"
    twins = [d for d in pool if d.get("colour") == die.get("colour") and d.get("value") == die.get("value")]
    if len(twins) > 1:
        text += f" (stand {pool.index(die) + 1})" if kind == "die" else f" (#{pool.index(die) + 1})"
    return text


def worker_name(state: dict, pid, worker) -> str:
    """A worker in words: a citizen die by colour and value, an orator die, or the Archon."""
    if worker == ARCHON:
        return "the Archon"
    me = (state.get("players") or {}).get(pid) or {}
    for pool, kind in ((me.get("dice") or [], "die"), (me.get("orator_dice") or [], "orator die")):
        for die in pool:
            if die.get("id") == worker:
                return _die_text(die, pool, kind)
    return "a die"


def _the(*parts) -> str:
    """`the Workshop` / `slot 2` held together by no-break spaces: one line, and one word for the grouping."""
    name = "\u00a0".join(str(x) for x in parts)
    return name if parts and parts[0] == "slot" else "the\u00a0" + name


def _attack_gain(state: dict, pid) -> str:
    """`: gain 2 food and 1 VP` — what an attack from the player's war position brings (attack.reward)."""
    from .mains import attack_event  # what the attack would emit, worked out by the rules themselves
    try:
        data = attack_event(state, pid, 0, "words")["data"]
    except Exception:  # words never fail a page: the bare verb then
        return ""
    gains = [_amounts(data.get("reward") or {})] if any((data.get("reward") or {}).values()) else []
    if data.get("vp"):
        gains.append(f"{data['vp']} VP")
    return f": gain {' and '.join(gains)}" if gains else ": gains nothing yet (move up the war track first)"


def _amounts(p: dict) -> str:
    parts = [f"{p[r]} {r}" for r in _RESOURCES if p.get(r)]
    return " and ".join(parts) or "nothing"


def _row_die(row: list, slot) -> str:
    die = row[slot - 1] if isinstance(slot, int) and 0 < slot <= len(row) else None
    die = (die or {}).get("die", die) if isinstance(die, dict) else None
    return f"the {die['colour']} {die['value']} die" if isinstance(die, dict) and "colour" in die else "the die"


def market_tile_name(state: dict, tile) -> str:
    """A market tile's name, with its market slot when the other copy lies in the market too."""
    market = [t for t in state.get("market") or []]
    text = tile_name(tile)
    twins = [t for t in market if isinstance(t, str) and tile_kind_name(t) == tile_kind_name(str(tile))]
    if len(twins) > 1 and tile in market:
        text += f" from market slot {market.index(tile) + 1}"
    return text


def _build(state: dict, p: dict, bonus: bool) -> str:
    how = " as a farm" if p.get("as_farm") else ""
    return f"Build the {market_tile_name(state, p.get('tile'))}{how} on {p.get('cell')}" + \
        (" (bonus)" if bonus else "")


def _close(state: dict, pid, p: dict) -> str:
    text = f"Close the district at {p.get('anchor')} with {worker_name(state, pid, p.get('die'))}"
    return text + (f", taking {district_card_name(p['card'])}" if p.get("card") else "")


def describe_command(state: dict, command: dict, name) -> str:
    """The command as an order in words for the player to act (`state["current"]`)."""
    t = command.get("type")
    p = command.get("payload") or {}
    pid = state.get("current")
    # The page groups the buttons of one kind (the sites one worker may visit, the slots of a row) under their
    # common leading words: the shared part comes first, and a choice's name is bound to its article (`_the`)
    # so that the common words end before it ("Send your blue 3 die" | "to the Workshop").
    if t == "visit":
        return f"Send {worker_name(state, pid, p.get('worker'))} to {_the(words(p.get('site')))}"
    if t == "pass":
        return "Pass for the rest of the round"
    if t == "end_visit":
        return "End the visit"
    if t == "attack":
        return f"Attack{_attack_gain(state, pid)}"
    if t == "spend_food":
        die, war = p.get("to_die", 0), p.get("to_war", 0)
        gains = [g for g in (f"+{die} on the die" if die else "", f"+{war} war" if war else "") if g]
        return f"Spend {die + war} food: {' and '.join(gains)}"
    if t == "take_citizen_die":
        slot = p.get("slot")
        cost = _CITIZEN_COSTS[slot - 1] if isinstance(slot, int) and 0 < slot <= len(_CITIZEN_COSTS) else "?"
        return (f"Take a citizen die from {_the('slot', slot)}: {_row_die(state.get('citizen_row') or [], slot)} "
                f"for {cost} wisdom")
    if t == "gather":
        return f"Gather {_amounts(p)}"
    if t == "advance_temple":
        return f"Advance 2 on {_the(words(p.get('temple')))} temple"
    if t in ("build", "bonus_build"):
        return _build(state, p, t == "bonus_build")
    if t == "close_district":
        return _close(state, pid, p)
    if t == "bonus_temple":
        return f"Advance 1 on {_the(words(p.get('temple')))} temple (bonus)"
    if t == "bonus_war":
        return (f"Attack{_attack_gain(state, pid)} (bonus)" if p.get("choice") == "attack"
                else "Advance 1 on the war track (bonus)")
    if t == "bonus_orator":
        return (f"Take an orator die from {_the('slot', p.get('slot'))} (bonus): "
                f"{_row_die(state.get('orator_row') or [], p.get('slot'))}")
    if t == "bonus_resource":
        return f"Take 1 {p.get('resource')} (bonus)"
    return str(t).replace("_", " ").capitalize()
