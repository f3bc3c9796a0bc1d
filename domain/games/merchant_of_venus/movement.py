"""The Movement phase: declaring, rolling, navigation dice, steps, hazards, auto-continue and the end of a move."""
from __future__ import annotations

from domain.engine import command
from domain.engine.text import T, joined, name as printed

from . import contact, data
from .names import square_name
from .state import is_landing, landing_squares, passes, player, skip_colors, violate

_NAVLIKE = ("nav", "telegate")


def _neighbours(square: str) -> list[str]:
    """Squares one step away: linked squares, and every other telegate from a telegate."""
    out = set(data.LINKS[square])
    if data.SQUARES[square]["kind"] == "telegate":
        out |= {t for t in data.TELEGATES if t != square}
    return [s for s in data.SQUARE_ORDER if s in out]


def declare_targets(square: str) -> list[str]:
    """Squares that may be declared as direction from `square` (movement.declare)."""
    return _neighbours(square)


def check_declare(state: dict, pid: str, payload: dict) -> None:
    """Validate declare_direction (movement.declare, movement.destination, drive.decline)."""
    p = player(state, pid)
    if payload["to"] not in declare_targets(p["square"]):
        violate("movement.declare", T("{to} is not adjacent to {square}.", to=square_name(payload['to']),
                                      square=square_name(p['square'])))
    dest = payload["destination"]
    if dest == p["square"] or not is_landing(state, dest):
        violate("movement.destination", T("{dest} is not a landing square other than the current square.",
                                          dest=square_name(dest)))
    if payload["use_drive"] and not p["drives"]:
        violate("drive.decline", T("You have no drive to use."))


def check_roll(state: dict, pid: str, payload: dict) -> None:
    """Validate roll_speed (movement.max-speed-dice before movement.speed-dice)."""
    dice = payload["dice"]
    if dice > data.DEFAULTS["max_speed_dice"]:
        violate("movement.max-speed-dice", T("A player never rolls more than four speed dice."))
    need = data.SHIPS[player(state, pid)["ship"]]["speed_dice"]
    if dice != need:
        violate("movement.speed-dice", T("Your {ship} rolls exactly {need} speed dice.",
                                         ship=printed(player(state, pid)['ship']), need=need))


def assign_allowed_now(state: dict, pid: str) -> bool:
    """nav.assign-timing: before the first step, or while on a navigation square or telegate."""
    t = state["turn"]
    return t["steps"] == 0 or data.SQUARES[player(state, pid)["square"]]["kind"] in _NAVLIKE


def check_assign(state: dict, pid: str, payload: dict) -> None:
    """Validate assign_navigation (nav.assign-timing, nav.one-die)."""
    t = state["turn"]
    if not 0 <= payload["die"] < len(t["dice"]):
        violate("turn.payload", T("There is no die number {die}.", die=payload['die']))
    if not assign_allowed_now(state, pid):
        violate("nav.assign-timing", T("A die may be assigned only before the first step or on a navigation square or telegate."))
    if t["nav_die"] is not None:
        violate("nav.one-die", T("A navigation die is already assigned this turn."))


def step_info(state: dict, pid: str, to: str, nav_value=None) -> dict:
    """Validate one step to `to` and return its cost, skip, jump and fee facts; raise on a rule break."""
    t = state["turn"]
    p = player(state, pid)
    cur = p["square"]
    nav = t["nav_value"] if nav_value is None else nav_value
    cur_kind = data.SQUARES[cur]["kind"]
    jump = cur_kind == "telegate" and data.SQUARES[to]["kind"] == "telegate" and to not in data.LINKS[cur]
    if to not in data.LINKS[cur] and not jump:
        violate("movement.adjacent", T("{to} is not adjacent to {cur}.", to=square_name(to), cur=square_name(cur)))
    if t["steps"] == 0 and to != t["to"]:
        violate("movement.follow-direction", T("The first step must go to the declared square {to}.",
                                               to=square_name(t['to'])))
    if to == t["prev"]:
        violate("movement.no-backtrack", T("The ship may not return to {to}, which it just left.", to=square_name(to)))
    if cur_kind in _NAVLIKE and nav is None:
        violate("nav.assign-before-leaving", T("Assign a navigation die before leaving this square."))
    if cur_kind == "nav" and nav not in data.NAV_EXITS[cur].get(to, []):
        violate("nav.exit-label", T("The exit to {to} needs pilot numbers {get}.", to=square_name(to),
                                    get=joined(map(str, data.NAV_EXITS[cur].get(to, [])))))
    if jump and nav not in data.TELEGATES[to]:
        violate("telegate.jump", T("{to} has gate numbers {telegates}, not {nav}.", to=square_name(to),
                                   telegates=joined(map(str, data.TELEGATES[to])), nav=nav))
    skipped = t["use_drive"] and data.SQUARES[to]["color"] in skip_colors(p)
    cost = 0 if skipped else (data.DEFAULTS["jump_cost"] if jump else data.LINKS[cur][to])
    if cost > t["mp"]:
        violate("movement.step-cost", T("The step to {to} costs {cost} MP but only {mp} are left.", to=square_name(to), cost=cost,
                                        mp=t['mp']))
    fee = t["hazard_due"]
    paid = max(0, fee - data.DEFAULTS["shield_reduction"] * p["shields"])
    if paid > p["cash"]:
        violate("hazard.fee", T("Leaving this hazard costs c{paid}, more than your cash.", paid=paid))
    return {"cost": cost, "skipped": skipped, "jump": jump, "fee": fee, "paid": paid}


def legal_moves(state: dict, pid: str, nav_value=None) -> list[str]:
    """Squares a `move` may go to now."""
    return [s for s in _neighbours(player(state, pid)["square"]) if passes(step_info, state, pid, s, nav_value)]


def check_end_move(state: dict, pid: str) -> None:
    """Validate end_move (movement.voluntary-stop)."""
    t = state["turn"]
    square = player(state, pid)["square"]
    if t["steps"] == 0 or not (is_landing(state, square) or t["hazard_due"] > 0):
        violate("movement.voluntary-stop", T("You may stop only on a landing square or a hazard entered this move, after at least one step."))


def move_phase_commands(state: dict, pid: str) -> list[dict]:
    """Every legal command of the Move step."""
    t = state["turn"]
    out = []
    if t["nav_die"] is None and assign_allowed_now(state, pid):
        out += [command("assign_navigation", die=i) for i in range(len(t["dice"]))]
    out += [command("move", to=s) for s in legal_moves(state, pid)]
    if contact.can_observe(state, pid):
        out.append(command("observe"))
    if passes(check_end_move, state, pid):
        out.append(command("end_move"))
    return out


def declare_commands(state: dict, pid: str) -> list[dict]:
    """Every legal command of the Declare Direction step."""
    p = player(state, pid)
    drives = [False, True] if p["drives"] else [False]
    out = [command("skip_movement")]
    for to in declare_targets(p["square"]):
        for dest in landing_squares(state):
            if dest != p["square"]:
                out += [command("declare_direction", to=to, destination=dest, use_drive=u) for u in drives]
    return out


def _blocked(state: dict, pid: str) -> bool:
    if legal_moves(state, pid):
        return False
    t = state["turn"]
    if t["nav_value"] is None and assign_allowed_now(state, pid):
        return not any(legal_moves(state, pid, v) for v in set(t["dice"]))
    return True


def end_reason(state: dict, pid: str) -> str | None:
    """Why the movement ends now, if it does (movement.end precedence)."""
    t = state["turn"]
    if t["steps"] > 0 and player(state, pid)["square"] == t["destination"]:
        return "destination"
    if t["mp"] == 0:
        return "mp_exhausted"
    if _blocked(state, pid):
        return "blocked"
    return None


def emit_step(sim, pid: str, to: str, auto: bool) -> None:
    """Emit the events of one step (hazard fee first, then ship_moved)."""
    info = step_info(sim.state, pid, to)
    frm = player(sim.state, pid)["square"]
    if info["fee"]:
        sim.emit("hazard_fee_paid", player=pid, square=frm, fee=info["fee"],
                 shields=player(sim.state, pid)["shields"], paid=info["paid"])
    sim.emit("ship_moved", player=pid, **{"from": frm}, to=to, cost=info["cost"],
             mp_left=sim.state["turn"]["mp"] - info["cost"], skipped=info["skipped"], jump=info["jump"], auto=auto)


def end_movement(sim, pid: str, reason: str) -> None:
    """Emit movement_ended and, when due, First Contact (contact.trigger)."""
    t = sim.state["turn"]
    square = player(sim.state, pid)["square"]
    landed = t["steps"] > 0 and is_landing(sim.state, square)
    sim.emit("movement_ended", player=pid, square=square, reason=reason, landed=landed)
    contact.maybe_first_contact(sim, pid)


def continue_movement(sim, pid: str) -> None:
    """Auto-continue forced steps and end the movement when it must end (movement.auto-continue)."""
    while sim.state["phase"] == "move":
        reason = end_reason(sim.state, pid)
        if reason:
            end_movement(sim, pid, reason)
            return
        cmds = move_phase_commands(sim.state, pid)
        square = player(sim.state, pid)["square"]
        if len(cmds) == 1 and cmds[0]["type"] == "move" and data.SQUARES[square]["kind"] not in _NAVLIKE:
            emit_step(sim, pid, cmds[0]["payload"]["to"], auto=True)
            continue
        return
