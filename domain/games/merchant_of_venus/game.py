"""Declares the Merchant of Venus `GAME`: command dispatch, legal commands, turn control.

Interpretations (where the spec leaves room), see also the package docstring:
- A random playout budget of 3000 commands (the platform's budget) is comfortably enough: 20 rounds of
  ~7 commands per turn for 2 players, roughly twice that for 4.
- Rejections are checked in this order: turn.active-only, turn.payload (unknown command), capacity.free-space
  (in free space), turn.phase, turn.payload (schema), then the command's own rules in the spec's order.
- `legal_commands` lists only commands that `decide` accepts: each candidate runs through the same checks.
"""
from __future__ import annotations

from marshmallow import ValidationError

from domain.engine import Game, command
from domain.engine.versions import rules_fields
from domain.engine.text import T, joined

from . import contact, data, movement, trading, turns
from .bots import BOTS
from .command_text import describe_command
from .describe import describe
from .evolve import evolve, initial_state
from .schemas import COMMAND_SCHEMAS, OPTIONS_SCHEMA
from .state import Sim, net_worth, player, violate
from .views import redact, view
from .words import STEPS
from .table import TABLE

PHASES = {"skip_movement": ("declare",), "declare_direction": ("declare",), "roll_speed": ("roll",),
          "assign_navigation": ("move",), "move": ("move",), "end_move": ("move",), "observe": ("move", "trade"),
          "buy": ("trade",), "sell": ("trade",), "pick_up": ("trade",), "drop_off": ("trade",),
          "jettison": ("trade",), "end_turn": ("trade",)}
_RUNNING = ("declare", "roll", "move", "trade")


def _load(cmd: dict) -> tuple[str, dict]:
    if not isinstance(cmd, dict) or cmd.get("type") not in COMMAND_SCHEMAS:
        violate("turn.payload", T("There is no such move."))
    return cmd["type"], cmd.get("payload", {})


def _handle(sim: Sim, pid: str, kind: str, p: dict, rng) -> None:
    state = sim.state
    if kind == "skip_movement":
        sim.emit("movement_skipped", player=pid)
    elif kind == "declare_direction":
        movement.check_declare(state, pid, p)
        sim.emit("direction_declared", player=pid, to=p["to"], destination=p["destination"], use_drive=p["use_drive"])
    elif kind == "roll_speed":
        movement.check_roll(state, pid, p)
        dice = rng.roll(p["dice"], 6)
        sim.emit("speed_rolled", player=pid, dice=dice, movement_value=sum(dice))
        movement.continue_movement(sim, pid)
    elif kind == "assign_navigation":
        movement.check_assign(state, pid, p)
        sim.emit("navigation_assigned", player=pid, die=p["die"], value=state["turn"]["dice"][p["die"]])
        movement.continue_movement(sim, pid)
    elif kind == "move":
        movement.emit_step(sim, pid, p["to"], auto=False)
        movement.continue_movement(sim, pid)
    elif kind == "observe":
        contact.check_observe(state, pid)
        contact.observe(sim, pid)
        if sim.state["phase"] == "move":
            movement.continue_movement(sim, pid)
    elif kind == "end_move":
        movement.check_end_move(state, pid)
        movement.end_movement(sim, pid, "stopped")
    else:
        _handle_trade(sim, pid, kind, p)


def _handle_trade(sim: Sim, pid: str, kind: str, p: dict) -> None:
    state = sim.state
    if kind == "buy":
        trading.emit_buy(sim, pid, p)
    elif kind == "sell":
        trading.emit_sell(sim, pid, p["item"])
    elif kind == "pick_up":
        trading.check_pick_up(state, pid, p["passenger"])
        sim.emit("passenger_picked_up", player=pid, passenger=p["passenger"])
    elif kind == "drop_off":
        trading.check_drop_off(state, pid, p["passenger"])
        sim.emit("passenger_dropped_off", player=pid, passenger=p["passenger"],
                 fare=data.PASSENGERS[p["passenger"]]["fare"])
    elif kind == "jettison":
        trading.check_jettison(state, pid, p["item"])
        sim.emit("item_jettisoned", player=pid, item=p["item"])
    else:
        turns.end_turn(sim, pid)


def setup(players, options, rng):
    """The opening events."""
    return turns.setup_events(list(players), options, rng)


def decide(state, player_id, cmd, rng):
    """Validate a command and return its events, or raise RuleViolation."""
    if state["phase"] not in _RUNNING or player_id != state["active"]:
        violate("turn.active-only", T("It is not your turn."))
    kind, raw = _load(cmd)
    if state["phase"] == "trade" and state["free_space"] and kind != "jettison":
        violate("capacity.free-space", T("Your ship is over capacity: jettison items first."))
    if state["phase"] not in PHASES[kind]:
        moves = joined([T(STEPS[k][0]) for k in PHASES if state["phase"] in PHASES[k]], T(" or "))
        violate("turn.phase", T("That move does not fit this part of the turn; now you may {moves}.", moves=moves))
    try:
        payload = COMMAND_SCHEMAS[kind].load(raw if isinstance(raw, dict) else {"": raw})
    except ValidationError as exc:
        violate("turn.payload", T("The details of that move are not valid for it."))
    sim = Sim(state, evolve)
    _handle(sim, player_id, kind, payload, rng)
    return sim.events


def legal_commands(state, player_id):
    """Every concrete command the player may send now."""
    if state["phase"] not in _RUNNING or player_id != state["active"]:
        return []
    phase = state["phase"]
    if phase == "declare":
        return movement.declare_commands(state, player_id)
    if phase == "roll":
        return [command("roll_speed", dice=data.SHIPS[player(state, player_id)["ship"]]["speed_dice"])]
    if phase == "move":
        return movement.move_phase_commands(state, player_id)
    if state["free_space"]:
        return trading.jettison_commands(state, player_id)
    out = trading.trade_commands(state, player_id) + trading.jettison_commands(state, player_id)
    if contact.can_observe(state, player_id):
        out.append(command("observe"))
    return out + [command("end_turn")]


def active_players(state):
    """Who must act now."""
    return [state["active"]] if state["phase"] in _RUNNING else []


def result(state):
    """The outcome once finished."""
    if state["phase"] != "finished" or not state["outcome"]:
        return None
    out = dict(state["outcome"])
    out["scores"] = {p: net_worth(state, p) for p in state["players"]}
    return out


def on_timeout(state, player_id, rng):
    """Skip movement, roll, stop or take the first legal step, and end the turn (jettisoning if needed)."""
    legal = legal_commands(state, player_id)
    if not legal:
        return []
    preferred = ("skip_movement", "roll_speed", "end_move", "end_turn")
    choice = next((c for c in legal if c["type"] in preferred), legal[0])
    return decide(state, player_id, choice, rng)


GAME = Game(
    id="merchant-of-venus",
    title="Merchant of Venus",
    min_players=2,
    max_players=len(data.RACES),
    options_schema=OPTIONS_SCHEMA,
    command_schemas=COMMAND_SCHEMAS,
    revealing_events=frozenset({"match_started", "cards_dealt", "speed_rolled", "culture_observed",
                                "first_contact_made", "match_finished"}),
    secret_options=frozenset({"fixed_cultures"}),  # the face-down placement, hidden until the match ends
    initial_state=initial_state,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    redact=redact,
    legal_commands=legal_commands,
    active_players=active_players,
    result=result,
    on_timeout=on_timeout,
    describe=describe,
    describe_command=describe_command,
    bots=BOTS,
    short_options={"max_rounds": 4},  # a short match: golden matches and the bench
    table=TABLE,
    **rules_fields(__package__),
)
