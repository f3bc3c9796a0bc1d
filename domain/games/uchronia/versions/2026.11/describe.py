"""One readable English sentence per event for the move log; safe on redacted events."""
from __future__ import annotations

from domain.engine.text import N_, NT, T, Text, joined, name as printed

from .command_text import colour
from .data import DESIGNS

_PLAYER_FIELDS = ("player", "from", "to", "from_player", "copied_from", "first_player")

_TEMPLATES = {
    "match_started": N_("The match started; {first_player} plays first, {vp_target} VP wins."),
    "decks_shuffled": N_("The draw pile and the building deck were shuffled."),
    "great_works_revealed": N_("Great Works revealed: {building_ids}."),
    "card_discarded_to_forum": N_("{player} put a {color} card into the Forum."),
    "turn_started": N_("Round {round}: {player}'s turn began."),
    "residence_cleared": N_("{player}'s Residence ({colors}) went to the Forum."),
    "order_issued": N_("{player} commanded {order} with {colors} ({repetitions}x)."),
    "card_taken_from_forum": N_("{player} took a {color} card from the Forum to their Stock."),
    "card_stocked_from_hand": N_("{player} moved a {color} card from hand to Stock."),
    "cards_revealed": N_("{player} revealed {colors} for Draconias."),
    "card_given": N_("{from} gave a {color} card to {to}."),
    "demand_unmet": N_("{player} had no card of a revealed colour to give."),
    "forum_cards_seized": N_("{player} seized {colors} from the Forum."),
    "resource_raided": N_("{player} raided a {color} resource from {from_player}'s {building_id}."),
    "operation_added": N_("{player} added a {color} operation."),
    "building_started": N_("{player} started {building_id}, discarding a {discarded_color} card."),
    "great_works_refilled": N_("{building_id} joined the Great Works."),
    "resource_placed": N_("{player} placed a {color} resource under {building_id} ({placed} placed)."),
    "building_completed": N_("{player} completed {building_id} for {vp} VP."),
    "turn_ended": N_("{player}'s turn ended."),
}


def _building(bid) -> Text:
    """A building's display name from its instance id, falling back to the id."""
    design = DESIGNS.get(bid.rsplit("_", 1)[0]) if isinstance(bid, str) else None
    return printed(design["name"]) if design else Text(str(bid))


def _order(order) -> Text:
    """An order's published name as the events carry it (`Draconias`)."""
    return printed(order)


def _fields(d: dict, name) -> dict:
    """The event data made printable: player names, building names, joined colour lists."""
    out = {}
    for key, value in d.items():
        if key in _PLAYER_FIELDS and value is not None:
            out[key] = name(value)
        elif key == "building_id":
            out[key] = _building(value)
        elif key == "building_ids":
            out[key] = joined([_building(b) for b in value or []])
        elif key in ("color", "discarded_color"):
            out[key] = colour(value)
        elif key == "order" and isinstance(value, str):
            out[key] = _order(value)
        elif isinstance(value, list):
            out[key] = joined([printed(v, "colour") if key == "colors" else str(v) for v in value], empty=T("nothing"))
        else:
            out[key] = value
    return out


def _known(n):
    """A count as the log shows it: `?` when the event does not say."""
    return "?" if n is None else n


def _special(t: str, d: dict, f: dict) -> str | None:
    """Sentences whose wording depends on the data; None for template events."""
    who = f.get("player", T("someone"))
    if t in ("cards_dealt", "cards_drawn"):
        count = NT("{n} card", "{n} cards", _known(d.get("count")))
        if "colors" in d:
            if t == "cards_dealt":
                return T("{player} was dealt {count} ({colors}).", player=who, count=count, colors=f["colors"])
            return T("{player} drew {count} ({colors}).", player=who, count=count, colors=f["colors"])
        if t == "cards_dealt":
            return T("{player} was dealt {count}.", player=who, count=count)
        return T("{player} drew {count}.", player=who, count=count)
    if t == "order_finished":
        return T("{player}'s {order} ended ({steps} unused).", player=who, order=_order(d.get("order")),
                 steps=NT("{n} step", "{n} steps", _known(d.get("unused"))))
    if t == "plotted":
        if d.get("order"):
            return T("{player} plotted, copying {copied_from}'s {order} ({repetitions}x).", player=f.get("player"),
                     copied_from=f.get("copied_from"), order=_order(d["order"]), repetitions=d.get("repetitions"))
        return T("{player} plotted without copying.", player=who)
    if t == "monopoly_taken":
        if d.get("from_player") is not None:
            return T("{player} took the {color} Monopoly from {source}.", player=f.get("player"),
                     color=colour(d.get("color")), source=f.get("from_player"))
        return T("{player} took the {color} Monopoly from the supply.", player=f.get("player"),
                 color=colour(d.get("color")))
    if t == "monopoly_bonus_resolved":
        if d.get("taken"):
            return T("{player} took the {color} Monopoly bonus card from the Forum.", player=f.get("player"),
                     color=colour(d.get("color")))
        return T("{player} declined the {color} Monopoly bonus card from the Forum.", player=f.get("player"),
                 color=colour(d.get("color")))
    if t == "end_triggered":
        if d.get("reason") == "vp_target":
            return T("{player} reached the VP target: this is the last round.", player=f.get("player"))
        return T("{player} emptied the draw pile: this is the last round.", player=f.get("player"))
    if t == "match_finished":
        return T("The match finished ({reason}); winner(s): {winners}.", reason=_reason(d.get("reason")),
                 winners=f.get("winners") or T("none"))
    return None


REASONS = {"vp_target": N_("vp target"), "draw_pile_empty": N_("draw pile empty"), "round_limit": N_("round limit")}


def _reason(reason) -> Text:
    """Why the match ended, as the log says it (`draw pile empty`)."""
    return T(REASONS[reason]) if reason in REASONS else Text(str(reason).replace("_", " "))


def describe(event: dict, name) -> str:
    """One sentence for the move log; never raises."""
    try:
        t = str(event.get("type"))
        d = event.get("data") if isinstance(event.get("data"), dict) else {}
        f = _fields(d, name)
        if t == "match_finished":
            f["winners"] = joined([name(w) for w in d.get("winners") or []]) if d.get("winners") else ""
        special = _special(t, d, f)
        if special is not None:
            return special
        template = _TEMPLATES.get(t)
        if template is None:
            return Text(f"{t.replace('_', ' ')}.")
        return T(template, **f)
    except Exception:  # the log must never break on an odd or redacted event
        return Text(f"{event.get('type', 'event') if isinstance(event, dict) else 'event'}.")
