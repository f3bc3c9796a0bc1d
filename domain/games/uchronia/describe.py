"""One readable English sentence per event for the move log; safe on redacted events."""
from __future__ import annotations

import string

from .data import DESIGNS

_PLAYER_FIELDS = ("player", "from", "to", "from_player", "copied_from", "first_player")

_TEMPLATES = {
    "match_started": "The match started; {first_player} plays first, {vp_target} VP wins.",
    "decks_shuffled": "The draw pile and the building deck were shuffled.",
    "great_works_revealed": "Great Works revealed: {building_ids}.",
    "card_discarded_to_forum": "{player} put a {color} card into the Forum.",
    "turn_started": "Round {round}: {player}'s turn began.",
    "residence_cleared": "{player}'s Residence ({colors}) went to the Forum.",
    "order_issued": "{player} commanded {order} with {colors} ({repetitions}x).",
    "card_taken_from_forum": "{player} took a {color} card from the Forum to their Stock.",
    "card_stocked_from_hand": "{player} moved a {color} card from hand to Stock.",
    "cards_revealed": "{player} revealed {colors} for Draconias.",
    "card_given": "{from} gave a {color} card to {to}.",
    "demand_unmet": "{player} had no card of a revealed colour to give.",
    "forum_cards_seized": "{player} seized {colors} from the Forum.",
    "resource_raided": "{player} raided a {color} resource from {from_player}'s {building_id}.",
    "operation_added": "{player} added a {color} operation.",
    "building_started": "{player} started {building_id}, discarding a {discarded_color} card.",
    "great_works_refilled": "{building_id} joined the Great Works.",
    "resource_placed": "{player} placed a {color} resource under {building_id} ({placed} placed).",
    "building_completed": "{player} completed {building_id} for {vp} VP.",
    "turn_ended": "{player}'s turn ended.",
}


def _building(bid) -> str:
    """A building's display name from its instance id, falling back to the id."""
    design = DESIGNS.get(bid.rsplit("_", 1)[0]) if isinstance(bid, str) else None
    return design["name"] if design else str(bid)


def _fields(d: dict, name) -> dict:
    """The event data made printable: player names, building names, joined colour lists."""
    out = {}
    for key, value in d.items():
        if key in _PLAYER_FIELDS and value is not None:
            out[key] = name(value)
        elif key == "building_id":
            out[key] = _building(value)
        elif key == "building_ids":
            out[key] = ", ".join(_building(b) for b in value or [])
        elif isinstance(value, list):
            out[key] = ", ".join(str(v) for v in value) or "nothing"
        else:
            out[key] = value
    return out


class _Lenient(dict):
    """A format mapping that shows a missing field as '?'."""

    def __missing__(self, key):
        return "?"


def _count(n, noun: str) -> str:
    """`1 card`, `3 cards`, `? cards`."""
    n = "?" if n is None else n
    return f"{n} {noun if n == 1 and not isinstance(n, bool) else noun + 's'}"


def _special(t: str, d: dict, f: dict) -> str | None:
    """Sentences whose wording depends on the data; None for template events."""
    if t in ("cards_dealt", "cards_drawn"):
        verb = "was dealt" if t == "cards_dealt" else "drew"
        seen = f" ({f['colors']})" if "colors" in d else ""
        return f"{f.get('player', 'someone')} {verb} {_count(d.get('count'), 'card')}{seen}."
    if t == "order_finished":
        return f"{f.get('player', 'someone')}'s {d.get('order')} ended ({_count(d.get('unused'), 'step')} unused)."
    if t == "plotted":
        if d.get("order"):
            return f"{f.get('player')} plotted, copying {f.get('copied_from')}'s {d['order']} ({d.get('repetitions')}x)."
        return f"{f.get('player', 'someone')} plotted without copying."
    if t == "monopoly_taken":
        source = f.get("from_player") if d.get("from_player") is not None else "the supply"
        return f"{f.get('player')} took the {d.get('color')} Monopoly from {source}."
    if t == "monopoly_bonus_resolved":
        verb = "took" if d.get("taken") else "declined"
        return f"{f.get('player')} {verb} the {d.get('color')} Monopoly bonus card from the Forum."
    if t == "end_triggered":
        why = "reached the VP target" if d.get("reason") == "vp_target" else "emptied the draw pile"
        return f"{f.get('player')} {why}: this is the last round."
    if t == "match_finished":
        return f"The match finished ({str(d.get('reason')).replace('_', ' ')}); winner(s): {f.get('winners') or 'none'}."
    return None


def describe(event: dict, name) -> str:
    """One sentence for the move log; never raises."""
    try:
        t = str(event.get("type"))
        d = event.get("data") if isinstance(event.get("data"), dict) else {}
        f = _fields(d, name)
        if t == "match_finished":
            f["winners"] = ", ".join(name(w) for w in d.get("winners") or [])
        special = _special(t, d, f)
        if special is not None:
            return special
        template = _TEMPLATES.get(t)
        if template is None:
            return f"{t.replace('_', ' ')}."
        return string.Formatter().vformat(template, (), _Lenient(f))
    except Exception:  # the log must never break on an odd or redacted event
        return f"{event.get('type', 'event') if isinstance(event, dict) else 'event'}."
