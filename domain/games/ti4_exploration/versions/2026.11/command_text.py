"""describe_command: one readable order per legal command for the action buttons ("Activate Kaleth")."""
from __future__ import annotations

from domain.engine.text import N_, NP_, NT, T, Text, joined, name as printed

_ROMAN = {"i", "ii", "iii", "iv", "v"}
OPTION_WORDS = {
    "attach": N_("attach it to the planet"),
    "take": N_("take the relic fragment"),
    "keep": N_("keep it in your play area"),
    "place": N_("place it in this system"),
    "gain": N_("gain 2 trade goods"),
    "gain_commodity": N_("gain 1 commodity"),
    "gain_commodities": N_("gain 2 commodities"),
    "replenish_commodities": N_("replenish your commodities"),
    "convert_commodities": N_("convert commodities into trade goods"),
    "ready_pay_trade_good": N_("pay 1 trade good to ready the planet"),
    "ready_pay_commodity": N_("pay 1 commodity to ready the planet"),
    "place_pay_trade_good": N_("pay 1 trade good to place a ground force"),
    "place_pay_commodity": N_("pay 1 commodity to place a ground force"),
    "place_ground_force": N_("place a ground force on the planet"),
    "place_ship": N_("place a ship in this system"),
    "buy_ship": N_("spend 2 trade goods for a ship"),
    "remove_ground_force": N_("remove one of your ground forces"),
    "decline": N_("decline"),
}
# A turn's steps by name ("Ann moved on to the production step").
STEP_WORDS = {
    "choose_action": N_("choosing an action"),
    "movement": N_("the movement step"),
    "invasion": N_("the invasion step"),
    "control": N_("gaining control of planets"),
    "production": N_("the production step"),
    "after_action": N_("the end of the action"),
}


def step_words(step) -> str:
    """A turn step id in words (`after_action` -> the end of the action); unknown ids without underscores."""
    return T(STEP_WORDS[step]) if step in STEP_WORDS else Text(str(step or "the next step").replace("_", " "))


def option_words(option) -> Text:
    """An exploration card's option in words (`gain` -> gain 2 trade goods)."""
    return T(OPTION_WORDS[option]) if option in OPTION_WORDS else Text(str(option).replace("_", " "))


# Counted things: (singular, plural) templates (`1 ship`, `2 ships`).
COUNTED = {"ship": NP_("{n} ship", "{n} ships"), "ground force": NP_("{n} ground force", "{n} ground forces"),
           "trade good": NP_("{n} trade good", "{n} trade goods"),
           "commodity": NP_("{n} commodity", "{n} commodities"),
           "cultural fragment": NP_("{n} cultural fragment", "{n} cultural fragments"),
           "industrial fragment": NP_("{n} industrial fragment", "{n} industrial fragments"),
           "hazardous fragment": NP_("{n} hazardous fragment", "{n} hazardous fragments"),
           "unknown fragment": NP_("{n} unknown fragment", "{n} unknown fragments"),
           "command token": NP_("{n} command token", "{n} command tokens"),
           "card": NP_("{n} card", "{n} cards")}
_ITEMS = {"trade_goods": "trade good", "commodities": "commodity", "cultural": "cultural fragment",
          "industrial": "industrial fragment", "hazardous": "hazardous fragment", "unknown": "unknown fragment"}


def title(component_id) -> Text:
    """A system, planet, card or technology id in words (`kaleth-prime` -> Kaleth Prime, `ysolde-ii` -> Ysolde II)."""
    words = str(component_id).split("#", 1)[0].replace("_", "-").split("-")
    return printed(" ".join(w.upper() if w in _ROMAN else w.capitalize() for w in words if w))


def lot_item(item) -> Text:
    """A tradeable item in words (`trade_goods` -> trade goods, `cultural` -> a cultural fragment in Russian)."""
    return printed(str(item).replace("_", " "), "lot")


def counted(n, word: str) -> Text:
    """`1 ship`, `2 ships` (commodity -> commodities); a word without a known plural: `2 Kalethes`."""
    if word in COUNTED:
        return NT(*COUNTED[word], n)
    if n == 1:
        return T("1 {word}", word=printed(word))
    return T("{n} {words}", n=n, words=printed(word[:-1] + "ies" if word.endswith("y") else word + "s"))


def _units(ships, forces) -> Text:
    parts = [counted(n, w) for n, w in ((ships, "ship"), (forces, "ground force")) if n]
    return joined(parts, T(" and "), empty=T("no units"))


def _lot(lot) -> Text:
    if not lot:
        return T("nothing")
    return counted(lot.get("count", 1), _ITEMS.get(lot.get("item"), title(lot.get("item"))))


def _resolve(state: dict, p: dict) -> Text:
    ex = state.get("exploration") or {}
    card = title(ex.get("card")) if ex.get("card") else T("the card")
    option = p.get("option")
    words = T(OPTION_WORDS[option]) if option in OPTION_WORDS else printed(title(option).lower())
    if p.get("system"):
        return T("{card}: {option} and put a frontier token in {system}", card=card, option=words,
                 system=title(p["system"]))
    if option == "gain":
        return T("{card}: {option} (no frontier token)", card=card, option=words)
    return T("{card}: {option}", card=card, option=words)


def _transaction(p: dict, name) -> Text:
    give, receive = p.get("give"), p.get("receive")
    if give and receive:
        return T("Offer {player} {give} for {receive}", player=name(p.get("to")), give=_lot(give),
                 receive=_lot(receive))
    if give:
        return T("Offer {player} {give} as a gift", player=name(p.get("to")), give=_lot(give))
    return T("Ask {player} for {receive}", player=name(p.get("to")), receive=_lot(receive))


def describe_command(state: dict, command: dict, name) -> str:
    """The command as an order in words, e.g. "Move 2 ships from Aurel to Kaleth"."""
    t = command.get("type")
    p = command.get("payload") or {}
    simple = {"pass": N_("Pass for the rest of the round"), "end_movement": N_("End movement"),
              "end_invasion": N_("End the invasion"), "skip_production": N_("Skip production"),
              "accept_transaction": N_("Accept the offer"), "decline_transaction": N_("Decline the offer"),
              "explore_frontier": N_("Explore the frontier token (Dark Energy Tap)"), "end_turn": N_("End your turn")}
    if t in simple:
        return T(simple[t])
    if t == "activate_system":
        return T("Activate {system}", system=title(p.get("system")))
    if t == "move_ships":
        to = state.get("active_system")
        units, origin = _units(p.get("ships"), p.get("ground_forces")), title(p.get("from"))
        if to:
            return T("Move {units} from {origin} to {to}", units=units, origin=origin, to=title(to))
        return T("Move {units} from {origin}", units=units, origin=origin)
    if t == "commit_ground_forces":
        return T("Land {forces} on {planet}", forces=counted(p.get("count"), "ground force"),
                 planet=title(p.get("planet")))
    if t == "gain_control":
        return T("Take control of {planet}", planet=title(p.get("planet")))
    if t == "choose_exploration_deck":
        return T("Explore with the {deck} deck", deck=printed(p.get("deck")))
    if t == "resolve_exploration":
        return _resolve(state, p)
    if t == "produce":
        return T("Produce {units}", units=_units(p.get("ships"), p.get("ground_forces")))
    if t == "use_crown_of_emphidia":
        return T("Use the Crown of Emphidia to explore {planet}", planet=title(p.get("planet")))
    if t == "purge_fragments":
        kind = printed(p.get("fragment_type"))
        if p.get("unknown"):
            return T("Purge {kind} fragments for a relic (with {unknown})", kind=kind,
                     unknown=counted(p["unknown"], "unknown fragment"))
        return T("Purge {kind} fragments for a relic", kind=kind)
    if t == "research":
        return T("Research {technology}", technology=title(p.get("technology")))
    if t == "use_enigmatic_device":
        return T("Use the Enigmatic Device to gain {technology}", technology=title(p.get("technology")))
    if t == "use_nano_forge":
        return T("Attach the Nano-Forge to {planet}", planet=title(p.get("planet")))
    if t == "use_maw_of_worlds":
        return T("Use the Maw of Worlds to gain {technology}", technology=title(p.get("technology")))
    if t == "propose_transaction":
        return _transaction(p, name)
    return Text(str(t).replace("_", " ").capitalize())
