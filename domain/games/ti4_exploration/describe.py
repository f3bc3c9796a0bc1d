"""describe: one readable English sentence per event for the move log (never raises)."""
from __future__ import annotations

from .command_text import OPTION_WORDS, step_words, title


def _lot(lot) -> str:
    if not lot:
        return "nothing"
    return f"{lot.get('count', '?')} {str(lot.get('item', '?')).replace('_', ' ')}"


def _count(n, one: str, many: str | None = None) -> str:
    """`1 ship`, `3 ships`, `? ships`: a number with its noun in the right number."""
    n = "?" if n is None else n
    return f"{n} {one if n == 1 and not isinstance(n, bool) else many or one + 's'}"


def _units(d: dict) -> str:
    parts = []
    if d.get("ships"):
        parts.append(_count(d["ships"], "ship"))
    if d.get("ground_forces"):
        parts.append(_count(d["ground_forces"], "ground force"))
    return " and ".join(parts) or "no units"


def _delta(d: dict, one: str, many: str | None = None) -> str:
    n = d.get("delta", 0)
    verb = "gained" if isinstance(n, int) and n >= 0 else "lost"
    return f"{verb} {_count(abs(n) if isinstance(n, int) else n, one, many)}"


SENTENCES = {
    "match_started": lambda d, n: "The exploration skirmish started with "
                                  + ", ".join(f"{n(p.get('player'))} ({p.get('home')})" for p in d.get("players", []))
                                  + f" for {d.get('rounds')} rounds.",
    "frontier_token_placed": lambda d, n: f"A frontier token was placed in {d.get('system')}.",
    "round_started": lambda d, n: f"Round {d.get('round')} started with {n(d.get('start_player'))}.",
    "turn_started": lambda d, n: f"{n(d.get('player'))}'s turn started.",
    "turn_ended": lambda d, n: f"{n(d.get('player'))}'s turn ended.",
    "system_activated": lambda d, n: f"{n(d.get('player'))} activated {d.get('system')} "
                                     f"({_count(d.get('command_tokens_left'), 'command token')} left).",
    "ships_moved": lambda d, n: f"{n(d.get('player'))} moved {_units(d)} from {d.get('from')} to {d.get('to')}.",
    "movement_ended": lambda d, n: f"{n(d.get('player'))} ended movement.",
    "ground_forces_committed": lambda d, n: f"{n(d.get('player'))} landed {_count(d.get('count'), 'ground force')} "
                                            f"on {d.get('planet')}.",
    "ground_combat_resolved": lambda d, n: f"Ground combat on {d.get('planet')}: {n(d.get('attacker'))} lost "
                                           f"{d.get('attacker_lost')}, {n(d.get('defender'))} lost "
                                           f"{d.get('defender_lost')}.",
    "invasion_ended": lambda d, n: f"{n(d.get('player'))} ended the invasion.",
    "step_changed": lambda d, n: f"{n(d.get('player'))} moved on to {step_words(d.get('step'))}.",
    "planet_control_gained": lambda d, n: f"{n(d.get('player'))} gained control of {d.get('planet')}"
                                          + (f" from {n(d['previous_controller'])}"
                                             if d.get("previous_controller") else "") + ".",
    "exploration_skipped": lambda d, n: f"{d.get('planet')} has no trait and was not explored.",
    "exploration_started": lambda d, n: f"{n(d.get('player'))} began exploring "
                                        f"{d.get('planet') or 'the frontier token in ' + str(d.get('system'))}.",
    "exploration_deck_chosen": lambda d, n: f"{n(d.get('player'))} chose the {d.get('deck')} deck for "
                                            f"{d.get('planet')}.",
    "exploration_deck_reshuffled": lambda d, n: f"The {d.get('deck')} discard pile ({_count(d.get('count'), 'card')}) "
                                                f"became the new deck.",
    "exploration_card_revealed": lambda d, n: f"{n(d.get('player'))} revealed {d.get('card', 'a card')} from the "
                                              f"{d.get('deck')} deck.",
    "exploration_fizzled": lambda d, n: f"The {d.get('deck')} deck and its discard pile were empty: nothing happened.",
    "frontier_token_removed": lambda d, n: f"The frontier token in {d.get('system')} was removed.",
    "exploration_card_resolved": lambda d, n: f"{n(d.get('player'))} resolved {d.get('card')} "
                                              f"and chose to {d.get('option')}.",
    "trade_goods_changed": lambda d, n: f"{n(d.get('player'))} {_delta(d, 'trade good')}.",
    "commodities_changed": lambda d, n: f"{n(d.get('player'))} {_delta(d, 'commodity', 'commodities')}.",
    "command_tokens_changed": lambda d, n: f"{n(d.get('player'))} {_delta(d, 'command token')}.",
    "units_placed": lambda d, n: f"{n(d.get('player'))} placed {_units(d)} in "
                                 f"{d.get('planet') or d.get('system')}.",
    "ground_forces_removed": lambda d, n: f"{d.get('count')} of {n(d.get('player'))}'s ground forces were "
                                          f"removed from {d.get('planet')}.",
    "planet_readied": lambda d, n: f"{d.get('planet')} was readied.",
    "planets_exhausted": lambda d, n: f"{n(d.get('player'))} exhausted all their planets.",
    "wormhole_token_placed": lambda d, n: f"A {d.get('token')} token was placed in {d.get('system')}.",
    "planet_added": lambda d, n: f"The planet {d.get('planet')} appeared in {d.get('system')}.",
    "card_discarded": lambda d, n: f"{d.get('card')} went to the {d.get('deck')} discard pile.",
    "card_attached": lambda d, n: f"{d.get('card')} was attached to {d.get('planet')}.",
    "relic_fragment_gained": lambda d, n: f"{n(d.get('player'))} gained a {d.get('fragment_type')} relic fragment.",
    "card_purged": lambda d, n: f"{d.get('card')} was purged.",
    "card_kept_in_play": lambda d, n: f"{d.get('card')} stays in play"
                                      + (" in the common area." if d.get("area") == "common"
                                         else f" in front of {n(d.get('area'))}."),
    "transaction_proposed": lambda d, n: f"{n(d.get('from'))} offered {n(d.get('to'))} {_lot(d.get('give'))} "
                                         f"for {_lot(d.get('receive'))}.",
    "transaction_accepted": lambda d, n: f"{n(d.get('to'))} accepted {n(d.get('from'))}'s offer.",
    "transaction_declined": lambda d, n: f"{n(d.get('to'))} declined {n(d.get('from'))}'s offer.",
    "relic_fragments_purged": lambda d, n: f"{n(d.get('player'))} purged {d.get('typed')} {d.get('fragment_type')} "
                                           f"and {d.get('unknown')} unknown relic fragments.",
    "relic_drawn": lambda d, n: f"{n(d.get('player'))} drew the relic {d.get('relic')}.",
    "relic_deck_was_empty": lambda d, n: f"The relic deck was empty, so {n(d.get('player'))} drew nothing.",
    "relic_used": lambda d, n: f"{n(d.get('player'))} used {d.get('relic')}"
                               + (f" on {d['planet']}" if d.get("planet") else "") + ".",
    "relic_transferred": lambda d, n: f"{d.get('relic')} passed from {n(d.get('from'))} to {n(d.get('to'))}.",
    "relic_purged": lambda d, n: f"{n(d.get('player'))}'s {d.get('relic')} was purged.",
    "technology_gained": lambda d, n: f"{n(d.get('player'))} gained {d.get('technology')} via {d.get('via')}.",
    "units_produced": lambda d, n: f"{n(d.get('player'))} produced {_units(d)} in {d.get('system')} "
                                   f"for {d.get('cost')} TG.",
    "player_passed": lambda d, n: f"{n(d.get('player'))} passed.",
    "victory_point_gained": lambda d, n: f"{n(d.get('player'))} gained 1 VP ({d.get('reason')}).",
    "status_phase_resolved": lambda d, n: "Status phase: income "
                                          + ", ".join(f"{n(p)} +{tg} TG" for p, tg in (d.get("income") or {}).items())
                                          + ".",
    "match_finished": lambda d, n: "The match ended; winner(s): "
                                   + ", ".join(n(p) for p in d.get("winners", [])) + ".",
}


_COMPONENT_FIELDS = ("system", "planet", "card", "technology", "relic")


def _readable(kind: str, data: dict) -> dict:
    """The event data with component ids as names ("kaleth-prime" -> Kaleth Prime) and options in words."""
    fields = _COMPONENT_FIELDS + (("from", "to") if kind == "ships_moved" else ())
    out = {k: (title(v) if k in fields and isinstance(v, str) else v) for k, v in data.items()}
    if isinstance(out.get("option"), str):
        out["option"] = OPTION_WORDS.get(out["option"], out["option"].replace("_", " "))
    if isinstance(out.get("players"), list):
        out["players"] = [dict(p, home=title(p["home"])) if isinstance(p, dict) and isinstance(p.get("home"), str)
                          else p for p in out["players"]]
    return out


def describe(event: dict, name) -> str:
    """One sentence for the move log; falls back to the event type if the data is unusual."""
    try:
        kind = event.get("type", "event")
        sentence = SENTENCES.get(kind)
        data = _readable(kind, event.get("data") or {})
        if sentence:
            return sentence(data, name)
        return f"{str(kind).replace('_', ' ').capitalize()}."
    except Exception:  # noqa: BLE001 - the log must never break on a redacted or malformed event
        return f"{str(event.get('type', 'event') if isinstance(event, dict) else 'event').replace('_', ' ')}."
