"""decide, legal_commands, active players and timeouts, applying the rejection order of §6."""
from __future__ import annotations

from marshmallow import ValidationError

from domain.engine.errors import RuleViolation
from domain.engine.text import T, joined

from . import board, components, exploring, tactical, transactions
from .board import DET
from .flow import Emitter, advance
from .handler import fail
from .schemas import COMMAND_SCHEMAS
from .words import STEPS

HANDLERS = {**tactical.HANDLERS, **exploring.HANDLERS, **components.HANDLERS, **transactions.HANDLERS}
ORDER = list(COMMAND_SCHEMAS)


def active_players(state: dict) -> list:
    """The proposal's target while a proposal is pending, else the turn player; nobody once finished."""
    if state["finished"] or not state["turn_player"]:
        return []
    if state["proposal"]:
        return [state["proposal"]["to"]]
    return [state["turn_player"]]


def _moves(kinds):
    """Command types as what a player may do, in the words of the page ("activate a system or pass ...")."""
    return joined([T(STEPS[k][0]) for k in sorted(kinds) if k in STEPS], T(" or "), empty=T("nothing"))


def _gate(state: dict, player: str, kind: str) -> None:
    """The rejection order's steps (1)-(5): who may act, pending explorations, Dark Energy Tap, the step."""
    proposal = state["proposal"]
    if proposal and not state["finished"]:
        if player != proposal["to"] or kind not in ("accept_transaction", "decline_transaction"):
            fail("transaction.response", T("The player offered a deal must first accept or decline it."))
        return
    if player not in active_players(state):
        fail("flow.not-your-turn", T("It is not your turn."))
    if kind == "explore_frontier" and not board.owns_tech(state, player, DET):
        fail("73.4", T("Only a player who owns Dark Energy Tap can explore a frontier token."))
    ex = state["exploration"]
    if ex:
        if kind == "gain_control":
            fail("73.comment-4", T("Finish exploring the planet you just gained before gaining the next one."))
        if kind in ("explore_frontier", "use_crown_of_emphidia"):
            fail("73.2d", T("Resolve the pending exploration card completely before starting another exploration."))
        if kind not in exploring.EXPLORATION_STAGE_COMMANDS[ex["stage"]]:
            fail("flow.wrong-step", T("An exploration is pending; now you may {moves}.",
                                      moves=_moves(exploring.EXPLORATION_STAGE_COMMANDS[ex["stage"]])))
    if kind == "explore_frontier" and state["step"] == "after_action" and not state["det_due"]:
        fail("tech.dark-energy-tap", T("No frontier exploration is due after this tactical action."))
    if not HANDLERS[kind].when(state, player):
        if kind == "propose_transaction":
            fail("transaction.windows", T("Proposals are allowed only before your action or while a card is revealed."))
        fail("flow.wrong-step", T("That move does not fit this step of the turn; now you may {moves}.",
                                  moves=_moves(k for k in HANDLERS if HANDLERS[k].when(state, player))))


def _load(command: dict) -> tuple:
    """The command type and its payload loaded through the schema."""
    kind = command.get("type") if isinstance(command, dict) else None
    if kind not in COMMAND_SCHEMAS:
        fail("flow.wrong-step", T("There is no such move in this game."))
    try:
        payload = COMMAND_SCHEMAS[kind].load(command.get("payload") or {})
    except ValidationError as exc:
        fail("flow.wrong-step", T("The details of that move are not valid for it."))
    return kind, payload


def decide(state: dict, player: str, command: dict, rng) -> list:
    """Validate a command in the order of §6 and return its events, including every automatic follow-up."""
    kind, payload = _load(command)
    _gate(state, player, kind)
    handler = HANDLERS[kind]
    handler.check(state, player, payload)
    if handler.direct:
        return handler.direct(state, player, payload)
    em = Emitter(state, rng)
    handler.apply(em, player, payload)
    advance(em)
    return em.events


def legal_commands(state: dict, player: str) -> list:
    """Every concrete command the player may send now."""
    if player not in active_players(state):
        return []
    result = []
    for kind in ORDER:
        try:
            _gate(state, player, kind)
        except RuleViolation:
            continue
        result += [{"type": kind, "payload": payload} for payload in HANDLERS[kind].legal(state, player)]
    return result


def default_command(state: dict, player: str):
    """The most neutral legal command for a passed deadline (decline / pass / end / first choice)."""
    legal = legal_commands(state, player)
    if not legal:
        return None
    for kind in ("decline_transaction", "pass", "end_movement", "end_invasion", "skip_production",
                 "explore_frontier", "end_turn"):
        for cmd in legal:
            if cmd["type"] == kind:
                return cmd
    for cmd in legal:
        if cmd["type"] == "resolve_exploration" and cmd["payload"]["option"] == "decline":
            return cmd
    for cmd in legal:
        if cmd["type"] != "propose_transaction":
            return cmd
    return legal[0]


def on_timeout(state: dict, player: str, rng) -> list:
    """The events of the default command for a player whose deadline passed."""
    cmd = default_command(state, player)
    return decide(state, player, cmd, rng) if cmd else []
