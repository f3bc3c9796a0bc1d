"""describe_command: one readable order per legal command for the action buttons ("Activate Kaleth")."""
from __future__ import annotations

_ROMAN = {"i", "ii", "iii", "iv", "v"}
OPTION_WORDS = {
    "attach": "attach it to the planet",
    "take": "take the relic fragment",
    "keep": "keep it in your play area",
    "place": "place it in this system",
    "gain": "gain 2 trade goods",
    "gain_commodity": "gain 1 commodity",
    "gain_commodities": "gain 2 commodities",
    "replenish_commodities": "replenish your commodities",
    "convert_commodities": "convert commodities into trade goods",
    "ready_pay_trade_good": "pay 1 trade good to ready the planet",
    "ready_pay_commodity": "pay 1 commodity to ready the planet",
    "place_pay_trade_good": "pay 1 trade good to place a ground force",
    "place_pay_commodity": "pay 1 commodity to place a ground force",
    "place_ground_force": "place a ground force on the planet",
    "place_ship": "place a ship in this system",
    "buy_ship": "spend 2 trade goods for a ship",
    "remove_ground_force": "remove one of your ground forces",
    "decline": "decline",
}
# A turn's steps by name ("Ann moved on to the production step").
STEP_WORDS = {
    "choose_action": "choosing an action",
    "movement": "the movement step",
    "invasion": "the invasion step",
    "control": "gaining control of planets",
    "production": "the production step",
    "after_action": "the end of the action",
}


def step_words(step) -> str:
    """A turn step id in words (`after_action` -> the end of the action); unknown ids without underscores."""
    return STEP_WORDS.get(step) or str(step or "the next step").replace("_", " ")


_ITEMS = {"trade_goods": "trade good", "commodities": "commodity", "cultural": "cultural fragment",
          "industrial": "industrial fragment", "hazardous": "hazardous fragment", "unknown": "unknown fragment"}


def title(component_id) -> str:
    """A system, planet, card or technology id in words (`kaleth-prime` -> Kaleth Prime, `ysolde-ii` -> Ysolde II)."""
    words = str(component_id).split("#", 1)[0].replace("_", "-").split("-")
    return " ".join(w.upper() if w in _ROMAN else w.capitalize() for w in words if w)


def _count(n, word: str) -> str:
    """`1 ship`, `2 ships` (commodity -> commodities)."""
    if n == 1:
        return f"1 {word}"
    return f"{n} {word[:-1] + 'ies' if word.endswith('y') else word + 's'}"


def _units(ships, forces) -> str:
    parts = [_count(n, w) for n, w in ((ships, "ship"), (forces, "ground force")) if n]
    return " and ".join(parts) or "no units"


def _lot(lot) -> str:
    if not lot:
        return "nothing"
    return _count(lot.get("count", 1), _ITEMS.get(lot.get("item"), title(lot.get("item"))))


def _resolve(state: dict, p: dict) -> str:
    ex = state.get("exploration") or {}
    card = title(ex.get("card")) if ex.get("card") else "the card"
    text = f"{card}: {OPTION_WORDS.get(p.get('option'), title(p.get('option')).lower())}"
    if p.get("system"):
        text += f" and put a frontier token in {title(p['system'])}"
    elif p.get("option") == "gain":
        text += " (no frontier token)"
    return text


def _transaction(p: dict, name) -> str:
    give, receive = p.get("give"), p.get("receive")
    if give and receive:
        return f"Offer {name(p.get('to'))} {_lot(give)} for {_lot(receive)}"
    if give:
        return f"Offer {name(p.get('to'))} {_lot(give)} as a gift"
    return f"Ask {name(p.get('to'))} for {_lot(receive)}"


def describe_command(state: dict, command: dict, name) -> str:
    """The command as an order in words, e.g. "Move 2 ships from Aurel to Kaleth"."""
    t = command.get("type")
    p = command.get("payload") or {}
    simple = {"pass": "Pass for the rest of the round", "end_movement": "End movement",
              "end_invasion": "End the invasion", "skip_production": "Skip production",
              "accept_transaction": "Accept the offer", "decline_transaction": "Decline the offer",
              "explore_frontier": "Explore the frontier token (Dark Energy Tap)", "end_turn": "End your turn"}
    if t in simple:
        return simple[t]
    if t == "activate_system":
        return f"Activate {title(p.get('system'))}"
    if t == "move_ships":
        to = state.get("active_system")
        return f"Move {_units(p.get('ships'), p.get('ground_forces'))} from {title(p.get('from'))}" + \
            (f" to {title(to)}" if to else "")
    if t == "commit_ground_forces":
        return f"Land {_count(p.get('count'), 'ground force')} on {title(p.get('planet'))}"
    if t == "gain_control":
        return f"Take control of {title(p.get('planet'))}"
    if t == "choose_exploration_deck":
        return f"Explore with the {p.get('deck')} deck"
    if t == "resolve_exploration":
        return _resolve(state, p)
    if t == "produce":
        return f"Produce {_units(p.get('ships'), p.get('ground_forces'))}"
    if t == "use_crown_of_emphidia":
        return f"Use the Crown of Emphidia to explore {title(p.get('planet'))}"
    if t == "purge_fragments":
        extra = f" (with {_count(p['unknown'], 'unknown fragment')})" if p.get("unknown") else ""
        return f"Purge {p.get('fragment_type')} fragments for a relic{extra}"
    if t == "research":
        return f"Research {title(p.get('technology'))}"
    if t == "use_enigmatic_device":
        return f"Use the Enigmatic Device to gain {title(p.get('technology'))}"
    if t == "use_nano_forge":
        return f"Attach the Nano-Forge to {title(p.get('planet'))}"
    if t == "use_maw_of_worlds":
        return f"Use the Maw of Worlds to gain {title(p.get('technology'))}"
    if t == "propose_transaction":
        return _transaction(p, name)
    return str(t).replace("_", " ").capitalize()
