"""describe: one readable English sentence per event for the move log (never raises)."""
from __future__ import annotations

from domain.engine.text import T, Text, in_order, joined, name as printed

from .command_text import OPTION_WORDS, counted, step_words, title


def _lot(lot) -> Text:
    if not lot:
        return T("nothing")
    return T("{count} {item}", count=lot.get("count", "?"), item=printed(str(lot.get("item", "?")).replace("_", " "), "lot"))


def _count(n, one: str, many: str | None = None) -> Text:
    """`1 ship`, `3 ships`, `? ships`: a number with its noun in the right number (`many` as COUNTED says it)."""
    return counted("?" if n is None else n, one)


def _units(d: dict) -> Text:
    parts = []
    if d.get("ships"):
        parts.append(_count(d["ships"], "ship"))
    if d.get("ground_forces"):
        parts.append(_count(d["ground_forces"], "ground force"))
    return joined(parts, T(" and "), empty=T("no units"))


def _delta(d: dict, one: str, many: str | None = None) -> Text:
    n = d.get("delta", 0)
    what = _count(abs(n) if isinstance(n, int) else n, one, many)
    return T("gained {what}", what=what) if isinstance(n, int) and n >= 0 else T("lost {what}", what=what)


def _started(d, n) -> Text:
    seats = [T("{player} ({home})", player=n(p.get("player")), home=p.get("home")) for p in d.get("players", [])]
    return T("The exploration skirmish started with {players} for {rounds} rounds.", players=joined(seats),
             rounds=d.get("rounds"))


def _control(d, n) -> Text:
    if d.get("previous_controller"):
        return T("{player} gained control of {planet} from {previous}.", player=n(d.get("player")),
                 planet=d.get("planet"), previous=n(d["previous_controller"]))
    return T("{player} gained control of {planet}.", player=n(d.get("player")), planet=d.get("planet"))


def _exploring(d, n) -> Text:
    if d.get("planet"):
        return T("{player} began exploring {planet}.", player=n(d.get("player")), planet=d.get("planet"))
    return T("{player} began exploring the frontier token in {system}.", player=n(d.get("player")),
             system=d.get("system"))


def _kept(d, n) -> Text:
    if d.get("area") == "common":
        return T("{card} stays in play in the common area.", card=d.get("card"))
    return T("{card} stays in play in front of {player}.", card=d.get("card"), player=n(d.get("area")))


def _relic_used(d, n) -> Text:
    if d.get("planet"):
        return T("{player} used {relic} on {planet}.", player=n(d.get("player")), relic=d.get("relic"),
                 planet=d["planet"])
    return T("{player} used {relic}.", player=n(d.get("player")), relic=d.get("relic"))


def _income(d, n) -> Text:
    parts = [T("{player} +{tg} TG", player=n(p), tg=tg) for p, tg in in_order(d.get("income"))]
    return T("Status phase: income {parts}.", parts=joined(parts))


def _vp_reason(reason) -> Text:
    return printed(reason) if isinstance(reason, str) else Text(str(reason))


SENTENCES = {
    "match_started": _started,
    "frontier_token_placed": lambda d, n: T("A frontier token was placed in {system}.", system=d.get("system")),
    "round_started": lambda d, n: T("Round {round} started with {player}.", round=d.get("round"),
                                    player=n(d.get("start_player"))),
    "turn_started": lambda d, n: T("{player}'s turn started.", player=n(d.get("player"))),
    "turn_ended": lambda d, n: T("{player}'s turn ended.", player=n(d.get("player"))),
    "system_activated": lambda d, n: T("{player} activated {system} ({tokens} left).", player=n(d.get("player")),
                                       system=d.get("system"),
                                       tokens=_count(d.get("command_tokens_left"), "command token")),
    "ships_moved": lambda d, n: T("{player} moved {units} from {origin} to {to}.", player=n(d.get("player")),
                                  units=_units(d), origin=d.get("from"), to=d.get("to")),
    "movement_ended": lambda d, n: T("{player} ended movement.", player=n(d.get("player"))),
    "ground_forces_committed": lambda d, n: T("{player} landed {forces} on {planet}.", player=n(d.get("player")),
                                              forces=_count(d.get("count"), "ground force"), planet=d.get("planet")),
    "ground_combat_resolved": lambda d, n: T("Ground combat on {planet}: {attacker} lost {attacker_lost}, {defender} "
                                             "lost {defender_lost}.", planet=d.get("planet"),
                                             attacker=n(d.get("attacker")), attacker_lost=d.get("attacker_lost"),
                                             defender=n(d.get("defender")), defender_lost=d.get("defender_lost")),
    "invasion_ended": lambda d, n: T("{player} ended the invasion.", player=n(d.get("player"))),
    "step_changed": lambda d, n: T("{player} moved on to {step}.", player=n(d.get("player")),
                                   step=step_words(d.get("step"))),
    "planet_control_gained": _control,
    "exploration_skipped": lambda d, n: T("{planet} has no trait and was not explored.", planet=d.get("planet")),
    "exploration_started": _exploring,
    "exploration_deck_chosen": lambda d, n: T("{player} chose the {deck} deck for {planet}.",
                                              player=n(d.get("player")), deck=printed(d.get("deck")),
                                              planet=d.get("planet")),
    "exploration_deck_reshuffled": lambda d, n: T("The {deck} discard pile ({cards}) became the new deck.",
                                                  deck=printed(d.get("deck")), cards=_count(d.get("count"), "card")),
    "exploration_card_revealed": lambda d, n: T("{player} revealed {card} from the {deck} deck.",
                                                player=n(d.get("player")), card=d.get("card", T("a card")),
                                                deck=printed(d.get("deck"))),
    "exploration_fizzled": lambda d, n: T("The {deck} deck and its discard pile were empty: nothing happened.",
                                          deck=printed(d.get("deck"))),
    "frontier_token_removed": lambda d, n: T("The frontier token in {system} was removed.", system=d.get("system")),
    "exploration_card_resolved": lambda d, n: T("{player} resolved {card} and chose to {option}.",
                                                player=n(d.get("player")), card=d.get("card"),
                                                option=d.get("option")),
    "trade_goods_changed": lambda d, n: T("{player} {change}.", player=n(d.get("player")),
                                          change=_delta(d, "trade good")),
    "commodities_changed": lambda d, n: T("{player} {change}.", player=n(d.get("player")),
                                          change=_delta(d, "commodity", "commodities")),
    "command_tokens_changed": lambda d, n: T("{player} {change}.", player=n(d.get("player")),
                                             change=_delta(d, "command token")),
    "units_placed": lambda d, n: T("{player} placed {units} in {where}.", player=n(d.get("player")), units=_units(d),
                                   where=d.get("planet") or d.get("system")),
    "ground_forces_removed": lambda d, n: T("{count} of {player}'s ground forces were removed from {planet}.",
                                            count=d.get("count"), player=n(d.get("player")), planet=d.get("planet")),
    "planet_readied": lambda d, n: T("{planet} was readied.", planet=d.get("planet")),
    "planets_exhausted": lambda d, n: T("{player} exhausted all their planets.", player=n(d.get("player"))),
    "wormhole_token_placed": lambda d, n: T("A {token} token was placed in {system}.", token=printed(d.get("token")),
                                            system=d.get("system")),
    "planet_added": lambda d, n: T("The planet {planet} appeared in {system}.", planet=d.get("planet"),
                                   system=d.get("system")),
    "card_discarded": lambda d, n: T("{card} went to the {deck} discard pile.", card=d.get("card"),
                                     deck=printed(d.get("deck"))),
    "card_attached": lambda d, n: T("{card} was attached to {planet}.", card=d.get("card"), planet=d.get("planet")),
    "relic_fragment_gained": lambda d, n: T("{player} gained a {kind} relic fragment.", player=n(d.get("player")),
                                            kind=printed(d.get("fragment_type"))),
    "card_purged": lambda d, n: T("{card} was purged.", card=d.get("card")),
    "card_kept_in_play": _kept,
    "transaction_proposed": lambda d, n: T("{player} offered {other} {give} for {receive}.", player=n(d.get("from")),
                                           other=n(d.get("to")), give=_lot(d.get("give")),
                                           receive=_lot(d.get("receive"))),
    "transaction_accepted": lambda d, n: T("{player} accepted {other}'s offer.", player=n(d.get("to")),
                                           other=n(d.get("from"))),
    "transaction_declined": lambda d, n: T("{player} declined {other}'s offer.", player=n(d.get("to")),
                                           other=n(d.get("from"))),
    "relic_fragments_purged": lambda d, n: T("{player} purged {typed} {kind} and {unknown} unknown relic fragments.",
                                             player=n(d.get("player")), typed=d.get("typed"),
                                             kind=printed(d.get("fragment_type")), unknown=d.get("unknown")),
    "relic_drawn": lambda d, n: T("{player} drew the relic {relic}.", player=n(d.get("player")), relic=d.get("relic")),
    "relic_deck_was_empty": lambda d, n: T("The relic deck was empty, so {player} drew nothing.",
                                           player=n(d.get("player"))),
    "relic_used": _relic_used,
    "relic_transferred": lambda d, n: T("{relic} passed from {player} to {other}.", relic=d.get("relic"),
                                        player=n(d.get("from")), other=n(d.get("to"))),
    "relic_purged": lambda d, n: T("{player}'s {relic} was purged.", player=n(d.get("player")), relic=d.get("relic")),
    "technology_gained": lambda d, n: T("{player} gained {technology} via {via}.", player=n(d.get("player")),
                                        technology=d.get("technology"), via=_vp_reason(d.get("via"))),
    "units_produced": lambda d, n: T("{player} produced {units} in {system} for {cost} TG.",
                                     player=n(d.get("player")), units=_units(d), system=d.get("system"),
                                     cost=d.get("cost")),
    "player_passed": lambda d, n: T("{player} passed.", player=n(d.get("player"))),
    "victory_point_gained": lambda d, n: T("{player} gained 1 VP ({reason}).", player=n(d.get("player")),
                                           reason=_vp_reason(d.get("reason"))),
    "status_phase_resolved": _income,
    "match_finished": lambda d, n: T("The match ended; winner(s): {winners}.",
                                     winners=joined([n(p) for p in d.get("winners", [])])),
}


_COMPONENT_FIELDS = ("system", "planet", "card", "technology", "relic")


def _readable(kind: str, data: dict) -> dict:
    """The event data with component ids as names ("kaleth-prime" -> Kaleth Prime) and options in words."""
    fields = _COMPONENT_FIELDS + (("from", "to") if kind == "ships_moved" else ())
    out = {k: (title(v) if k in fields and isinstance(v, str) else v) for k, v in data.items()}
    if isinstance(out.get("option"), str):
        out["option"] = T(OPTION_WORDS[out["option"]]) if out["option"] in OPTION_WORDS \
            else Text(out["option"].replace("_", " "))
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
        return Text(f"{str(kind).replace('_', ' ').capitalize()}.")
    except Exception:  # noqa: BLE001 - the log must never break on a redacted or malformed event
        return Text(f"{str(event.get('type', 'event') if isinstance(event, dict) else 'event').replace('_', ' ')}.")
