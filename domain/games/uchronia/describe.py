"""One readable English sentence per event for the move log; safe on redacted events."""
from __future__ import annotations

from .data import DESIGNS


def _building(bid) -> str:
    """A building's display name from its instance id, falling back to the id."""
    if isinstance(bid, str):
        design = DESIGNS.get(bid.rsplit("_", 1)[0])
        if design:
            return design["name"]
    return str(bid)


def _colors(colors) -> str:
    """A list of colours as readable text."""
    if not isinstance(colors, list) or not colors:
        return "nothing"
    return ", ".join(str(c) for c in colors)


def _sentence(t: str, d: dict, n) -> str:
    """The sentence for event type `t` with data `d`; `n` names a player."""
    who = n(d.get("player")) if d.get("player") is not None else "someone"
    if t == "match_started":
        return f"The match started; {n(d.get('first_player'))} plays first, {d.get('vp_target')} VP wins."
    if t == "decks_shuffled":
        return "The draw pile and the building deck were shuffled."
    if t == "great_works_revealed":
        return "Great Works revealed: " + ", ".join(_building(b) for b in d.get("building_ids", []) or []) + "."
    if t in ("cards_dealt", "cards_drawn"):
        verb = "was dealt" if t == "cards_dealt" else "drew"
        seen = f" ({_colors(d['colors'])})" if "colors" in d else ""
        return f"{who} {verb} {d.get('count', '?')} card(s){seen}."
    if t == "card_discarded_to_forum":
        return f"{who} put a {d.get('color')} card into the Forum."
    if t == "turn_started":
        return f"Round {d.get('round')}: {who}'s turn began."
    if t == "residence_cleared":
        return f"{who}'s Residence ({_colors(d.get('colors'))}) went to the Forum."
    if t == "order_issued":
        return f"{who} commanded {d.get('order')} with {_colors(d.get('colors'))} ({d.get('repetitions')}x)."
    if t == "plotted":
        if d.get("order"):
            return f"{who} plotted, copying {n(d.get('copied_from'))}'s {d.get('order')} ({d.get('repetitions')}x)."
        return f"{who} plotted without copying."
    if t == "card_taken_from_forum":
        return f"{who} took a {d.get('color')} card from the Forum to their Stock."
    if t == "card_stocked_from_hand":
        return f"{who} moved a {d.get('color')} card from hand to Stock."
    if t == "cards_revealed":
        return f"{who} revealed {_colors(d.get('colors'))} for Draconias."
    if t == "card_given":
        return f"{n(d.get('from'))} gave a {d.get('color')} card to {n(d.get('to'))}."
    if t == "demand_unmet":
        return f"{who} had no card of a revealed colour to give."
    if t == "forum_cards_seized":
        return f"{who} seized {_colors(d.get('colors'))} from the Forum."
    if t == "resource_raided":
        return f"{who} raided a {d.get('color')} resource from {n(d.get('from_player'))}'s " \
               f"{_building(d.get('building_id'))}."
    if t == "operation_added":
        return f"{who} added a {d.get('color')} operation."
    if t == "monopoly_taken":
        source = "the supply" if d.get("from_player") is None else n(d.get("from_player"))
        return f"{who} took the {d.get('color')} Monopoly from {source}."
    if t == "building_started":
        return f"{who} started {_building(d.get('building_id'))}, discarding a {d.get('discarded_color')} card."
    if t == "great_works_refilled":
        return f"{_building(d.get('building_id'))} joined the Great Works."
    if t == "resource_placed":
        return f"{who} placed a {d.get('color')} resource under {_building(d.get('building_id'))} " \
               f"({d.get('placed')} placed)."
    if t == "building_completed":
        return f"{who} completed {_building(d.get('building_id'))} for {d.get('vp')} VP."
    if t == "monopoly_bonus_resolved":
        verb = "took" if d.get("taken") else "declined"
        return f"{who} {verb} the {d.get('color')} Monopoly bonus card from the Forum."
    if t == "order_finished":
        return f"{who}'s {d.get('order')} ended ({d.get('unused')} step(s) unused)."
    if t == "end_triggered":
        why = "reached the VP target" if d.get("reason") == "vp_target" else "emptied the draw pile"
        return f"{who} {why}: this is the last round."
    if t == "turn_ended":
        return f"{who}'s turn ended."
    if t == "match_finished":
        winners = d.get("winners") or []
        return f"The match finished ({d.get('reason')}); winner(s): {', '.join(n(w) for w in winners) or 'none'}."
    return f"{t.replace('_', ' ')}."


def describe(event: dict, name) -> str:
    """One sentence for the move log; never raises."""
    try:
        data = event.get("data") or {}
        return _sentence(str(event.get("type")), data if isinstance(data, dict) else {}, name)
    except Exception:  # the log must never break on an odd or redacted event
        return f"{event.get('type', 'event') if isinstance(event, dict) else 'event'}."
