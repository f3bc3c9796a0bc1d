"""describe: one readable English sentence per event for the move log (works on redacted events)."""
from __future__ import annotations


def _gains_text(gains: dict) -> str:
    parts = [f"+{gains[k]} {k}" for k in ("vp", "stone", "food", "wisdom", "war") if gains.get(k)]
    parts += [f"+{n} on {t}" for t, n in (gains.get("temples") or {}).items() if n]
    return ", ".join(parts) or "nothing"


def _line(t: str, d: dict, who: str, name) -> str:
    if t == "match_set_up":
        return f"The match was set up for {', '.join(name(p) for p in d.get('seats', []))}; " \
               f"{name(d.get('first_player'))} goes first."
    if t == "round_started":
        return f"Round {d.get('round')} started; {name((d.get('order') or ['?'])[0])} leads."
    if t == "site_visited":
        paid = f", paying {d.get('wisdom_paid')} wisdom" if d.get("wisdom_paid") else ""
        bonus = " (bonus available)" if d.get("bonus_available") else ""
        return f"{who} visited the {d.get('site')} with {d.get('worker')}{paid}{bonus}."
    if t == "temple_advanced":
        return f"{who} advanced on the {d.get('temple')} temple from {d.get('from')} to {d.get('to')}."
    if t == "zodiac_card_taken":
        card = d.get("card")
        what = f"the {card} card" if card else "a card"
        return f"{who} took {what} from the {d.get('temple')} zodiac deck."
    if t == "citizen_die_taken":
        return f"{who} took citizen die {d.get('die')} from slot {d.get('slot')} for {d.get('wisdom_paid')} wisdom."
    if t == "building_bought":
        how = "as a farm" if d.get("as_farm") else "as a building"
        return f"{who} bought {d.get('tile')} {how} and placed it on {d.get('cell')}."
    if t == "market_refilled":
        tile = d.get("tile")
        return f"Market slot {d.get('slot')} was refilled with {tile}." if tile else \
            f"Market slot {d.get('slot')} stays empty."
    if t == "effect_applied":
        return f"{who}'s {d.get('tile')} gave {_gains_text(d.get('gains') or {})}."
    if t == "food_spent":
        return f"{who} spent {d.get('food')} food: +{d.get('to_die')} on the die, +{d.get('to_war')} war."
    if t == "war_advanced":
        return f"{who} advanced on the war track to {d.get('to')}."
    if t == "attack_made":
        reward = ", ".join(f"{v} {k}" for k, v in (d.get("reward") or {}).items() if v) or "nothing"
        return f"{who} attacked from war {d.get('war')}, gaining {reward} and {d.get('vp')} VP."
    if t == "resources_gained":
        got = ", ".join(f"{v} {k}" for k, v in (d.get("gains") or {}).items() if v) or "nothing"
        return f"{who} gained {got}."
    if t == "orator_die_taken":
        return f"{who} took orator die {d.get('die')} from slot {d.get('slot')}."
    if t == "visit_ended":
        lost = d.get("forfeited") or []
        return f"{who} ended the visit" + (f", forfeiting the {' and '.join(lost)}." if lost else ".")
    if t == "district_closed":
        gold = f" and took {d.get('gold')} gold from {d.get('card')}" if d.get("gold") else ""
        return f"{who} closed the {d.get('anchor')} district with {d.get('die')} " \
               f"(value {d.get('die_value')}) for {d.get('vp')} VP{gold}."
    if t == "player_passed":
        return f"{who} passed."
    if t == "turn_ended":
        return f"{name(d.get('next'))} is next."
    if t == "round_ended":
        return f"Round {d.get('round')} ended."
    if t == "game_ended":
        winners = ", ".join(name(p) for p in d.get("winners", []))
        return f"The game ended; winner: {winners}."
    return f"{t} happened."


def describe(ev: dict, name) -> str:
    """One sentence for the move log, using `name(player_id)` for display names; never raises."""
    try:
        d = ev.get("data") or {}
        who = name(d["player"]) if d.get("player") is not None else "someone"
        return _line(ev.get("type", "event"), d, str(who), name)
    except Exception:  # describe must never raise, whatever a redacted or odd event holds
        return f"{ev.get('type', 'An event') if isinstance(ev, dict) else 'An event'} happened."
