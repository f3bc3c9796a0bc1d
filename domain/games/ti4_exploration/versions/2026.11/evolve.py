"""evolve: applies one event to the state (total and deterministic; never draws)."""
from __future__ import annotations

from .data import CONST, DECK_CARDS, PLANETS, RELIC_ORDER, SYSTEMS

FRAGMENT_ITEMS = ("cultural", "industrial", "hazardous", "unknown")


def initial_state(players: list, options: dict) -> dict:
    """The empty state before `match_started`."""
    return {
        "order": list(players), "rounds": int(options.get("rounds", 4)), "round": 0, "start_player": None,
        "turn_player": None, "step": None, "active_system": None, "to_gain": [], "committed": [],
        "exploration": None, "proposal": None, "proposals_made": [], "activated": {p: [] for p in players},
        "det_due": False, "finished": False, "final": None, "players": {}, "systems": {}, "planets": {},
        "decks": {}, "relic_deck": [], "purged": [], "common_area": [],
    }


def _new_player(seat: int, home: str) -> dict:
    return {
        "seat": seat, "home": home, "trade_goods": CONST["starting_trade_goods"],
        "commodities": CONST["starting_commodities"], "command_tokens": CONST["starting_command_tokens"],
        "passed": False, "fragments": {t: [] for t in FRAGMENT_ITEMS}, "relics": [], "technologies": [],
        "devices": [], "relics_drawn": 0, "vp_tokens": 0,
    }


def _new_planet(system: str) -> dict:
    return {"system": system, "controller": None, "exhausted": False, "ground_forces": {}, "attachments": []}


def _add(counter: dict, key: str, n: int) -> None:
    value = counter.get(key, 0) + n
    if value > 0:
        counter[key] = value
    else:
        counter.pop(key, None)


def _match_started(s, d):
    s["systems"] = {sid: {"frontier_token": False, "wormhole": [], "ships": {}, "space_ground_forces": {}}
                    for sid in SYSTEMS}
    s["planets"] = {pid: _new_planet(p["system"]) for pid, p in PLANETS.items() if p["system"]}
    s["decks"] = {name: {"draw": list(cards), "discard": []} for name, cards in DECK_CARDS.items()}
    s["relic_deck"] = list(RELIC_ORDER)
    s["rounds"] = d["rounds"]
    s["order"] = [p["player"] for p in d["players"]]
    s["activated"] = {p: [] for p in s["order"]}
    for entry in d["players"]:
        pid, home = entry["player"], entry["home"]
        s["players"][pid] = _new_player(entry["seat"], home)
        s["systems"][home]["ships"][pid] = CONST["home_ships"]
        s["systems"][home]["space_ground_forces"][pid] = CONST["home_space_ground_forces"]
        for planet in SYSTEMS[home]["planets"]:
            s["planets"][planet]["controller"] = pid
            s["planets"][planet]["ground_forces"][pid] = CONST["home_planet_ground_forces"]


def _round_started(s, d):
    s["round"] = d["round"]
    s["start_player"] = d["start_player"]


def _turn_started(s, d):
    s.update(turn_player=d["player"], step="choose_action", proposals_made=[], active_system=None, to_gain=[],
             committed=[], det_due=False)


def _turn_ended(s, d):
    s.update(step=None, active_system=None, to_gain=[], committed=[], det_due=False)


def _system_activated(s, d):
    s["players"][d["player"]]["command_tokens"] = d["command_tokens_left"]
    s["activated"].setdefault(d["player"], []).append(d["system"])
    s["active_system"] = d["system"]
    s["step"] = "movement"


def _ships_moved(s, d):
    p, src, dst = d["player"], s["systems"][d["from"]], s["systems"][d["to"]]
    _add(src["ships"], p, -d["ships"])
    _add(dst["ships"], p, d["ships"])
    _add(src["space_ground_forces"], p, -d["ground_forces"])
    _add(dst["space_ground_forces"], p, d["ground_forces"])


def _movement_ended(s, d):
    s["step"] = "invasion"


def _ground_forces_committed(s, d):
    _add(s["systems"][s["planets"][d["planet"]]["system"]]["space_ground_forces"], d["player"], -d["count"])
    _add(s["planets"][d["planet"]]["ground_forces"], d["player"], d["count"])
    if d["planet"] not in s["committed"]:
        s["committed"].append(d["planet"])


def _ground_combat_resolved(s, d):
    forces = s["planets"][d["planet"]]["ground_forces"]
    _add(forces, d["attacker"], -d["attacker_lost"])
    _add(forces, d["defender"], -d["defender_lost"])


def _invasion_ended(s, d):
    s["step"] = "control"
    s["to_gain"] = list(d["to_gain"])


def _step_changed(s, d):
    s["step"] = d["step"]
    if d["step"] == "after_action":
        s["det_due"] = bool(d.get("frontier_due"))


def _planet_control_gained(s, d):
    planet = s["planets"][d["planet"]]
    planet["controller"] = d["player"]
    planet["exhausted"] = bool(d["exhausted"])
    if d["planet"] in s["to_gain"]:
        s["to_gain"].remove(d["planet"])


def _exploration_started(s, d):
    s["exploration"] = {"player": d["player"], "source": d["source"], "planet": d["planet"], "system": d["system"],
                        "decks": list(d["decks"]), "stage": "choose_deck", "deck": None, "card": None}
    if d["source"] == "frontier":
        s["det_due"] = False


def _exploration_deck_chosen(s, d):
    if s["exploration"]:
        s["exploration"]["deck"] = d["deck"]


def _exploration_deck_reshuffled(s, d):
    deck = s["decks"][d["deck"]]
    deck["draw"] = deck["draw"] + deck["discard"]
    deck["discard"] = []


def _exploration_card_revealed(s, d):
    draw = s["decks"][d["deck"]]["draw"]
    if d["card"] in draw:
        draw.remove(d["card"])
    if s["exploration"]:
        s["exploration"].update(stage="revealed", deck=d["deck"], card=d["card"])


def _clear_exploration(s, d):
    s["exploration"] = None


def _frontier_token_placed(s, d):
    s["systems"][d["system"]]["frontier_token"] = True


def _frontier_token_removed(s, d):
    s["systems"][d["system"]]["frontier_token"] = False


def _trade_goods_changed(s, d):
    s["players"][d["player"]]["trade_goods"] += d["delta"]


def _commodities_changed(s, d):
    s["players"][d["player"]]["commodities"] += d["delta"]


def _command_tokens_changed(s, d):
    s["players"][d["player"]]["command_tokens"] += d["delta"]


def _units_placed(s, d):
    system = s["systems"][d["system"]]
    _add(system["ships"], d["player"], d.get("ships", 0))
    if d.get("planet"):
        _add(s["planets"][d["planet"]]["ground_forces"], d["player"], d.get("ground_forces", 0))
    else:
        _add(system["space_ground_forces"], d["player"], d.get("ground_forces", 0))


def _ground_forces_removed(s, d):
    _add(s["planets"][d["planet"]]["ground_forces"], d["player"], -d["count"])


def _planet_readied(s, d):
    s["planets"][d["planet"]]["exhausted"] = False


def _planets_exhausted(s, d):
    for planet in d["planets"]:
        s["planets"][planet]["exhausted"] = True


def _wormhole_token_placed(s, d):
    s["systems"][d["system"]]["wormhole"].append(d["token"])


def _planet_added(s, d):
    s["planets"][d["planet"]] = _new_planet(d["system"])


def _card_discarded(s, d):
    s["decks"][d["deck"]]["discard"].append(d["card"])


def _card_attached(s, d):
    s["planets"][d["planet"]]["attachments"].append(d["card"])


def _relic_fragment_gained(s, d):
    s["players"][d["player"]]["fragments"][d["fragment_type"]].append(d["card"])


def _card_purged(s, d):
    s["purged"].append(d["card"])
    for p in s["players"].values():
        if d["card"] in p["devices"]:
            p["devices"].remove(d["card"])


def _card_kept_in_play(s, d):
    if d["area"] == "common":
        s["common_area"].append(d["card"])
    else:
        s["players"][d["area"]]["devices"].append(d["card"])


def _transaction_proposed(s, d):
    s["proposal"] = {"from": d["from"], "to": d["to"], "give": d["give"], "receive": d["receive"]}
    s["proposals_made"].append(d["to"])


def _transfer(s, giver: str, taker: str, lot) -> None:
    """Move one lot; commodities arrive as trade goods (transaction.commodities)."""
    if not lot:
        return
    src, dst, item, n = s["players"][giver], s["players"][taker], lot["item"], lot["count"]
    if item == "trade_goods":
        src["trade_goods"] -= n
        dst["trade_goods"] += n
    elif item == "commodities":
        src["commodities"] -= n
        dst["trade_goods"] += n
    else:
        moved = src["fragments"][item][-n:]
        del src["fragments"][item][-n:]
        dst["fragments"][item].extend(moved)


def _transaction_accepted(s, d):
    _transfer(s, d["from"], d["to"], d["give"])
    _transfer(s, d["to"], d["from"], d["receive"])
    s["proposal"] = None


def _transaction_declined(s, d):
    s["proposal"] = None


def _relic_fragments_purged(s, d):
    frags = s["players"][d["player"]]["fragments"]
    for card in d["cards"]:
        for pile in frags.values():
            if card in pile:
                pile.remove(card)
                break
        s["purged"].append(card)


def _relic_drawn(s, d):
    if d["relic"] in s["relic_deck"]:
        s["relic_deck"].remove(d["relic"])
    me = s["players"][d["player"]]
    me["relics"].append({"id": d["relic"], "exhausted": False})
    me["relics_drawn"] += 1


def _relic_used(s, d):
    me = s["players"][d["player"]]
    for entry in me["relics"]:
        if entry["id"] == d["relic"]:
            entry["exhausted"] = True
    if d.get("planet") and d["relic"] == "nano-forge":
        me["relics"] = [e for e in me["relics"] if e["id"] != d["relic"]]
        s["planets"][d["planet"]]["attachments"].append(d["relic"])


def _relic_transferred(s, d):
    src = s["players"][d["from"]]
    entries = [e for e in src["relics"] if e["id"] == d["relic"]]
    src["relics"] = [e for e in src["relics"] if e["id"] != d["relic"]]
    s["players"][d["to"]]["relics"].extend(entries)


def _relic_purged(s, d):
    me = s["players"][d["player"]]
    me["relics"] = [e for e in me["relics"] if e["id"] != d["relic"]]
    s["purged"].append(d["relic"])


def _technology_gained(s, d):
    s["players"][d["player"]]["technologies"].append(d["technology"])


def _units_produced(s, d):
    p = d["player"]
    s["players"][p]["trade_goods"] -= d["cost"]
    system = s["systems"][d["system"]]
    _add(system["ships"], p, d["ships"])
    _add(system["space_ground_forces"], p, d["ground_forces"])


def _player_passed(s, d):
    s["players"][d["player"]]["passed"] = True


def _victory_point_gained(s, d):
    s["players"][d["player"]]["vp_tokens"] += 1


def _status_phase_resolved(s, d):
    for pid, tg in d["income"].items():
        s["players"][pid]["trade_goods"] += tg
    for pid, n in d["command_tokens"].items():
        s["players"][pid]["command_tokens"] += n
    for planet in s["planets"].values():
        planet["exhausted"] = False
    for p in s["players"].values():
        p["passed"] = False
        for entry in p["relics"]:
            entry["exhausted"] = False
    s["activated"] = {p: [] for p in s["order"]}
    s["turn_player"] = None
    s["step"] = None


def _match_finished(s, d):
    s.update(finished=True, final={"scores": d["scores"], "winners": d["winners"], "ranking": d["ranking"]},
             step=None, turn_player=None, proposal=None, exploration=None)


def _no_change(s, d):
    return None


HANDLERS = {
    "match_started": _match_started, "frontier_token_placed": _frontier_token_placed,
    "round_started": _round_started, "turn_started": _turn_started, "turn_ended": _turn_ended,
    "system_activated": _system_activated, "ships_moved": _ships_moved, "movement_ended": _movement_ended,
    "ground_forces_committed": _ground_forces_committed, "ground_combat_resolved": _ground_combat_resolved,
    "invasion_ended": _invasion_ended, "step_changed": _step_changed,
    "planet_control_gained": _planet_control_gained, "exploration_skipped": _no_change,
    "exploration_started": _exploration_started, "exploration_deck_chosen": _exploration_deck_chosen,
    "exploration_deck_reshuffled": _exploration_deck_reshuffled,
    "exploration_card_revealed": _exploration_card_revealed, "exploration_fizzled": _clear_exploration,
    "frontier_token_removed": _frontier_token_removed, "exploration_card_resolved": _clear_exploration,
    "trade_goods_changed": _trade_goods_changed, "commodities_changed": _commodities_changed,
    "units_placed": _units_placed, "ground_forces_removed": _ground_forces_removed,
    "planet_readied": _planet_readied, "planets_exhausted": _planets_exhausted,
    "command_tokens_changed": _command_tokens_changed, "wormhole_token_placed": _wormhole_token_placed,
    "planet_added": _planet_added, "card_discarded": _card_discarded, "card_attached": _card_attached,
    "relic_fragment_gained": _relic_fragment_gained, "card_purged": _card_purged,
    "card_kept_in_play": _card_kept_in_play, "transaction_proposed": _transaction_proposed,
    "transaction_accepted": _transaction_accepted, "transaction_declined": _transaction_declined,
    "relic_fragments_purged": _relic_fragments_purged, "relic_drawn": _relic_drawn,
    "relic_deck_was_empty": _no_change, "relic_used": _relic_used, "relic_transferred": _relic_transferred,
    "relic_purged": _relic_purged, "technology_gained": _technology_gained, "units_produced": _units_produced,
    "player_passed": _player_passed, "victory_point_gained": _victory_point_gained,
    "status_phase_resolved": _status_phase_resolved, "match_finished": _match_finished,
}


def evolve(state: dict, event: dict) -> dict:
    """Apply one event to `state` (mutating it) and return it; unknown event types change nothing."""
    handler = HANDLERS.get(event.get("type"))
    if handler:
        handler(state, event.get("data", {}))
    return state

