"""Turn flow: the event emitter, automatic steps (flow.auto-advance), gaining planets, starting explorations, status."""
from __future__ import annotations

from . import board
from .board import CROWN, DET, clone
from .data import CONST, PLANETS
from .evolve import evolve


class Emitter:
    """Collects new events while folding them into a scratch copy of the state."""

    def __init__(self, state: dict, rng):
        self.state = clone(state)
        self.events: list = []
        self.rng = rng

    def emit(self, type_: str, **data) -> None:
        """Record one event and apply it to the scratch state."""
        ev = {"type": type_, "data": data}
        self.events.append(ev)
        evolve(self.state, clone(ev))


# --- exploration --------------------------------------------------------------------------------------------

def draw_card(em: Emitter, deck: str) -> None:
    """Draw 1 card uniformly from the deck (explore.draw), reshuffling (73.7a) or fizzling (explore.empty)."""
    s = em.state
    ex = s["exploration"]
    pile = s["decks"][deck]
    if not pile["draw"]:
        if not pile["discard"]:
            em.emit("exploration_fizzled", player=ex["player"], deck=deck)
            finish_exploration(em, ex)
            return
        em.emit("exploration_deck_reshuffled", deck=deck, count=len(pile["discard"]))
        pile = s["decks"][deck]
    card = pile["draw"][em.rng.randint(0, len(pile["draw"]) - 1)]
    em.emit("exploration_card_revealed", player=ex["player"], deck=deck, card=card, planet=ex["planet"],
            system=ex["system"])


def explore_planet(em: Emitter, player: str, planet: str, source: str) -> None:
    """Explore a planet (73.2): skip without a trait (73.2b), wait for a deck choice (73.2c), or draw."""
    traits = PLANETS[planet]["traits"]
    if not traits:
        em.emit("exploration_skipped", player=player, planet=planet, reason="no_trait")
        return
    em.emit("exploration_started", player=player, source=source, planet=planet,
            system=em.state["planets"][planet]["system"], decks=list(traits))
    if len(traits) == 1:
        draw_card(em, traits[0])


def explore_frontier(em: Emitter, player: str, system: str) -> None:
    """Explore the frontier token of a system (73.5)."""
    em.emit("exploration_started", player=player, source="frontier", planet=None, system=system,
            decks=["frontier"])
    draw_card(em, "frontier")


def finish_exploration(em: Emitter, ex: dict) -> None:
    """After the card's fate (or a fizzle): remove an explored frontier token (73.6, explore.empty)."""
    if ex["source"] == "frontier" and em.state["systems"][ex["system"]]["frontier_token"]:
        em.emit("frontier_token_removed", system=ex["system"])


# --- control ------------------------------------------------------------------------------------------------

def gain_planet(em: Emitter, player: str, planet: str, exhausted: bool = True, explore: bool = True) -> None:
    """Gain control (control.gain, control.exhausted, control.shard) and explore an uncontrolled planet (73.1)."""
    s = em.state
    previous = s["planets"][planet]["controller"]
    em.emit("planet_control_gained", player=player, planet=planet, previous_controller=previous,
            exhausted=exhausted)
    if previous and previous != player:
        owner_home = s["players"][previous]["home"]
        if s["planets"][planet]["system"] == owner_home and board.relic_entry(s, previous, board.SHARD):
            em.emit("relic_transferred", relic=board.SHARD, **{"from": previous, "to": player})
    if previous is None and explore:
        explore_planet(em, player, planet, "control")


# --- tactical steps -----------------------------------------------------------------------------------------

def movable_sources(state: dict, player: str) -> list:
    """Systems whose ships may move into the active system now (movement.adjacent, tactical.once-per-round)."""
    active = state["active_system"]
    done = state["activated"].get(player, [])
    return [s for s in board.neighbours(state, active)
            if board.ships(state, s, player) > 0 and s not in done]


def commit_targets(state: dict) -> list:
    """Planets of the active system that can receive ground forces (invasion.commit, invasion.dmz)."""
    return [p for p in board.planets_in(state, state["active_system"]) if not board.has_dmz(state, p)]


def end_invasion(em: Emitter, player: str) -> None:
    """Resolve deterministic ground combat (invasion.combat) and list the planets to gain (control.gain)."""
    s = em.state
    system = s["active_system"]
    for planet in list(s["committed"]):
        forces = s["planets"][planet]["ground_forces"]
        mine = forces.get(player, 0)
        for other, theirs in sorted(forces.items()):
            if other != player and theirs > 0 and mine > 0:
                lost = min(mine, theirs)
                em.emit("ground_combat_resolved", planet=planet, attacker=player, defender=other,
                        attacker_lost=lost, defender_lost=lost)
                mine -= lost
    to_gain = [p for p in board.planets_in(s, system)
               if board.planet_forces(s, p, player) > 0 and s["planets"][p]["controller"] != player]
    em.emit("invasion_ended", player=player, to_gain=to_gain)


def production_cost(state: dict, player: str, ships: int, forces: int) -> int:
    """What a production of `ships` and `forces` costs (production.home, sarween-tools)."""
    cost = ships * CONST["ship_cost"] + forces * CONST["ground_force_cost"]
    if board.owns_tech(state, player, board.SARWEEN):
        cost -= CONST["sarween_discount"]
    return max(0, cost)


def production_options(state: dict, player: str) -> list:
    """Every affordable (ships, ground_forces) production that respects movement.capacity."""
    home = board.home_of(state, player)
    have_s, have_g = board.ships(state, home, player), board.space_forces(state, home, player)
    tg = state["players"][player]["trade_goods"]
    result = []
    for total in range(1, CONST["max_units_per_production"] + 1):
        for n_ships in range(total, -1, -1):
            n_forces = total - n_ships
            if have_g + n_forces > CONST["ship_capacity"] * (have_s + n_ships):
                continue
            if production_cost(state, player, n_ships, n_forces) <= tg:
                result.append({"ships": n_ships, "ground_forces": n_forces})
    return result


def leave_control(em: Emitter, player: str) -> None:
    """Enter production if possible at home (production.home), otherwise the after-action step."""
    s = em.state
    if s["active_system"] == board.home_of(s, player) and production_options(s, player):
        em.emit("step_changed", player=player, step="production")
    else:
        enter_after_action(em, player)


def enter_after_action(em: Emitter, player: str) -> None:
    """Enter after_action, noting whether Dark Energy Tap's frontier exploration is due (tech.dark-energy-tap)."""
    s = em.state
    active = s["active_system"]
    due = (board.owns_tech(s, player, DET) and s["systems"][active]["frontier_token"]
           and board.ships(s, active, player) > 0)
    em.emit("step_changed", player=player, step="after_action", frontier_due=bool(due))


# --- turns, rounds, status ----------------------------------------------------------------------------------

def end_turn(em: Emitter, player: str) -> None:
    """End the turn and start the next player's, or resolve the status phase when everyone has passed."""
    em.emit("turn_ended", player=player)
    s = em.state
    order = board.seat_order_from(s, player)
    for nxt in order[1:] + order[:1]:
        if not s["players"][nxt]["passed"]:
            em.emit("turn_started", player=nxt)
            return
    status_phase(em)


def status_phase(em: Emitter) -> None:
    """The automatic status phase (status.steps, relics.crown-vp), then the next round or the end."""
    s = em.state
    crown_vp = []
    for p in s["order"]:
        if board.relic_entry(s, p, CROWN) and any(
                s["planets"][pid]["controller"] == p and any(a.startswith("tomb-of-emphidia#")
                                                             for a in s["planets"][pid]["attachments"])
                for pid in s["planets"]):
            em.emit("relic_purged", player=p, relic=CROWN)
            em.emit("victory_point_gained", player=p, reason="crown-of-emphidia")
            crown_vp.append(p)
    income = {p: sum(board.planet_value(s, pid, "resources") for pid in board.controlled(s, p)
                     if not s["planets"][pid]["exhausted"]) for p in s["order"]}
    tokens = {p: CONST["command_tokens_per_status"] for p in s["order"]}
    em.emit("status_phase_resolved", crown_vp=crown_vp, income=income, command_tokens=tokens)
    if s["round"] >= s["rounds"]:
        ranked = board.ranking(s)
        em.emit("match_finished", scores={p: board.score(s, p) for p in s["order"]}, winners=board.winners(s),
                ranking=ranked)
        return
    start = s["order"][s["round"] % len(s["order"])]
    em.emit("round_started", round=s["round"] + 1, order=board.seat_order_from(s, start), start_player=start)
    em.emit("turn_started", player=start)


def advance(em: Emitter) -> None:
    """Run every automatic step until a player has a real choice (flow.auto-advance, flow.exploration-overlay)."""
    while True:
        s = em.state
        if s["finished"] or s["proposal"] or s["exploration"]:
            return
        player, step = s["turn_player"], s["step"]
        if step == "movement" and not movable_sources(s, player):
            em.emit("movement_ended", player=player)
        elif step == "invasion" and not (board.space_forces(s, s["active_system"], player) > 0
                                         and commit_targets(s)):
            end_invasion(em, player)
        elif step == "control" and len(s["to_gain"]) <= 1:
            if s["to_gain"]:
                gain_planet(em, player, s["to_gain"][0])
            else:
                leave_control(em, player)
        elif step == "production" and not production_options(s, player):
            enter_after_action(em, player)
        elif step == "after_action" and not board.crown_usable(s, player):
            if s["det_due"]:
                explore_frontier(em, player, s["active_system"])
            else:
                end_turn(em, player)
        else:
            return
