"""describe: one readable English sentence per event for the move log (works on redacted events)."""
from __future__ import annotations

from .command_text import district_card_name, tile_name, words


def _amounts(values: dict) -> str:
    return ", ".join(f"{v} {k}" for k, v in (values or {}).items() if v) or "nothing"


def _gains(gains: dict) -> str:
    parts = [f"+{gains[k]} {k}" for k in ("vp", "stone", "food", "wisdom", "war") if gains.get(k)]
    parts += [f"+{n} on {t}" for t, n in (gains.get("temples") or {}).items() if n]
    return ", ".join(parts) or "nothing"


def _visited(d, who, name):
    paid = f", paying {d.get('wisdom_paid')} wisdom" if d.get("wisdom_paid") else ""
    bonus = " (bonus available)" if d.get("bonus_available") else ""
    worker = "the Archon" if d.get("worker") == "archon" else "an orator die" if d.get("die_value_to") is None \
        else "a citizen die"
    return f"{who} visited the {words(d.get('site'))} with {worker}{paid}{bonus}."


def _refilled(d, who, name):
    if d.get("tile"):
        return f"Market slot {d.get('slot')} was refilled with the {tile_name(d.get('tile'))}."
    return f"Market slot {d.get('slot')} stays empty."


def _visit_ended(d, who, name):
    lost = d.get("forfeited") or []
    return f"{who} ended the visit" + (f", forfeiting the {' and '.join(lost)}." if lost else ".")


def _closed(d, who, name):
    gold = f" and took {d.get('gold')} gold from {district_card_name(d.get('card'))}" if d.get("gold") else ""
    return (f"{who} closed the {d.get('anchor')} district with a {d.get('die_value')} die "
            f"for {d.get('vp')} VP{gold}.")


SENTENCES = {
    "match_set_up": lambda d, who, name: (f"The match was set up for {', '.join(map(name, d.get('seats', [])))}; "
                                          f"{name(d.get('first_player'))} goes first."),
    "round_started": lambda d, who, name: (f"Round {d.get('round')} started; "
                                           f"{name((d.get('order') or ['?'])[0])} leads."),
    "site_visited": _visited,
    "temple_advanced": lambda d, who, name: (f"{who} advanced on the {d.get('temple')} temple "
                                             f"from {d.get('from')} to {d.get('to')}."),
    "zodiac_card_taken": lambda d, who, name: (f"{who} took "
                                               f"{'the ' + d['card'] + ' card' if d.get('card') else 'a card'}"
                                               f" from the {d.get('temple')} zodiac deck."),
    "citizen_die_taken": lambda d, who, name: (f"{who} took the citizen die from slot {d.get('slot')} "
                                               f"for {d.get('wisdom_paid')} wisdom."),
    "building_bought": lambda d, who, name: (f"{who} bought the {tile_name(d.get('tile'))} "
                                             f"{'as a farm' if d.get('as_farm') else 'as a building'} "
                                             f"and placed it on {d.get('cell')}."),
    "market_refilled": _refilled,
    "effect_applied": lambda d, who, name: f"{who}'s {tile_name(d.get('tile'))} gave {_gains(d.get('gains') or {})}.",
    "food_spent": lambda d, who, name: (f"{who} spent {d.get('food')} food: +{d.get('to_die')} on the die, "
                                        f"+{d.get('to_war')} war."),
    "war_advanced": lambda d, who, name: f"{who} advanced on the war track to {d.get('to')}.",
    "attack_made": lambda d, who, name: (f"{who} attacked from war {d.get('war')}, gaining "
                                         f"{_amounts(d.get('reward'))} and {d.get('vp')} VP."),
    "resources_gained": lambda d, who, name: f"{who} gained {_amounts(d.get('gains'))}.",
    "orator_die_taken": lambda d, who, name: f"{who} took the orator die from slot {d.get('slot')}.",
    "visit_ended": _visit_ended,
    "district_closed": _closed,
    "player_passed": lambda d, who, name: f"{who} passed.",
    "turn_ended": lambda d, who, name: f"{name(d.get('next'))} is next.",
    "round_ended": lambda d, who, name: f"Round {d.get('round')} ended.",
    "game_ended": lambda d, who, name: f"The game ended; winner: {', '.join(map(name, d.get('winners', [])))}.",
}


def describe(ev: dict, name) -> str:
    """One sentence for the move log, using `name(player_id)` for display names; never raises."""
    try:
        d = ev.get("data") or {}
        who = str(name(d["player"])) if d.get("player") is not None else "someone"
        line = SENTENCES.get(ev.get("type"))
        return line(d, who, name) if line else f"{ev.get('type')} happened."
    except Exception:  # describe must never raise, whatever a redacted or odd event holds
        return "An event happened."
