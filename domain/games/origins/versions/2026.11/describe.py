"""describe: one readable English sentence per event for the move log (works on redacted events)."""
from __future__ import annotations

from domain.engine.text import T, Text, in_order, joined, name as printed

from .command_text import amount, district_card_name, tile_name, words
from .data import RESOURCES, TEMPLES


def _amounts(values: dict) -> Text:
    return joined([amount(v, k) for k, v in in_order(values, RESOURCES) if v], empty=T("nothing"))


def _gains(gains: dict) -> Text:
    parts = [T("+{n} {what}", n=gains[k], what=printed(k)) for k in ("vp", "stone", "food", "wisdom", "war")
             if gains.get(k)]
    parts += [T("+{n} on {temple}", n=n, temple=printed(t)) for t, n in in_order(gains.get("temples"), TEMPLES) if n]
    return joined(parts, empty=T("nothing"))


def _visited(d, who, name) -> Text:
    worker = T("the Archon") if d.get("worker") == "archon" else T("an orator die") \
        if d.get("die_value_to") is None else T("a citizen die")
    what = {"player": who, "site": words(d.get("site")), "worker": worker}
    paid, bonus = d.get("wisdom_paid"), d.get("bonus_available")
    if paid and bonus:
        return T("{player} visited the {site} with {worker}, paying {paid} wisdom (bonus available).", paid=paid,
                 **what)
    if paid:
        return T("{player} visited the {site} with {worker}, paying {paid} wisdom.", paid=paid, **what)
    if bonus:
        return T("{player} visited the {site} with {worker} (bonus available).", **what)
    return T("{player} visited the {site} with {worker}.", **what)


def _refilled(d, who, name) -> Text:
    if d.get("tile"):
        return T("Market slot {slot} was refilled with the {tile}.", slot=d.get("slot"), tile=tile_name(d.get("tile")))
    return T("Market slot {slot} stays empty.", slot=d.get("slot"))


def _visit_ended(d, who, name) -> Text:
    lost = d.get("forfeited") or []
    if lost:
        return T("{player} ended the visit, forfeiting the {lost}.", player=who,
                 lost=joined([printed(x) for x in lost], T(" and ")))
    return T("{player} ended the visit.", player=who)


def _closed(d, who, name) -> Text:
    what = {"player": who, "anchor": d.get("anchor"), "value": d.get("die_value"), "vp": d.get("vp")}
    if d.get("gold"):
        return T("{player} closed the {anchor} district with a {value} die for {vp} VP and took {gold} gold from "
                 "{card}.", gold=d.get("gold"), card=district_card_name(d.get("card")), **what)
    return T("{player} closed the {anchor} district with a {value} die for {vp} VP.", **what)


def _bought(d, who, name) -> Text:
    what = {"player": who, "tile": tile_name(d.get("tile")), "cell": d.get("cell")}
    if d.get("as_farm"):
        return T("{player} bought the {tile} as a farm and placed it on {cell}.", **what)
    return T("{player} bought the {tile} as a building and placed it on {cell}.", **what)


def _zodiac(d, who, name) -> Text:
    if d.get("card"):
        return T("{player} took the {card} card from the {temple} zodiac deck.", player=who,
                 card=words(d["card"]), temple=printed(d.get("temple")))
    return T("{player} took a card from the {temple} zodiac deck.", player=who, temple=printed(d.get("temple")))


SENTENCES = {
    "match_set_up": lambda d, who, name: T("The match was set up for {seats}; {first} goes first.",
                                           seats=joined(list(map(name, d.get("seats", [])))),
                                           first=name(d.get("first_player"))),
    "round_started": lambda d, who, name: T("Round {round} started; {player} leads.", round=d.get("round"),
                                            player=name((d.get("order") or ["?"])[0])),
    "site_visited": _visited,
    "temple_advanced": lambda d, who, name: T("{player} advanced on the {temple} temple from {start} to {to}.",
                                              player=who, temple=printed(d.get("temple")), start=d.get("from"),
                                              to=d.get("to")),
    "zodiac_card_taken": _zodiac,
    "citizen_die_taken": lambda d, who, name: T("{player} took the citizen die from slot {slot} for {paid} wisdom.",
                                                player=who, slot=d.get("slot"), paid=d.get("wisdom_paid")),
    "building_bought": _bought,
    "market_refilled": _refilled,
    "effect_applied": lambda d, who, name: T("{player}'s {tile} gave {gains}.", player=who,
                                             tile=tile_name(d.get("tile")), gains=_gains(d.get("gains") or {})),
    "food_spent": lambda d, who, name: T("{player} spent {food} food: +{die} on the die, +{war} war.", player=who,
                                         food=d.get("food"), die=d.get("to_die"), war=d.get("to_war")),
    "war_advanced": lambda d, who, name: T("{player} advanced on the war track to {to}.", player=who, to=d.get("to")),
    "attack_made": lambda d, who, name: T("{player} attacked from war {war}, gaining {reward} and {vp} VP.",
                                          player=who, war=d.get("war"), reward=_amounts(d.get("reward")),
                                          vp=d.get("vp")),
    "resources_gained": lambda d, who, name: T("{player} gained {gains}.", player=who, gains=_amounts(d.get("gains"))),
    "orator_die_taken": lambda d, who, name: T("{player} took the orator die from slot {slot}.", player=who,
                                               slot=d.get("slot")),
    "visit_ended": _visit_ended,
    "district_closed": _closed,
    "player_passed": lambda d, who, name: T("{player} passed.", player=who),
    "turn_ended": lambda d, who, name: T("{player} is next.", player=name(d.get("next"))),
    "round_ended": lambda d, who, name: T("Round {round} ended.", round=d.get("round")),
    "game_ended": lambda d, who, name: T("The game ended; winner: {winners}.",
                                         winners=joined(list(map(name, d.get("winners", []))))),
}


def describe(ev: dict, name) -> str:
    """One sentence for the move log, using `name(player_id)` for display names; never raises."""
    try:
        d = ev.get("data") or {}
        who = str(name(d["player"])) if d.get("player") is not None else T("someone")
        line = SENTENCES.get(ev.get("type"))
        return line(d, who, name) if line else Text(f"{ev.get('type')} happened.")
    except Exception:  # describe must never raise, whatever a redacted or odd event holds
        return T("An event happened.")
