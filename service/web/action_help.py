"""What each kind of action does, in a line: the match header's "what to do now" and the explanation beside each
group of buttons. The phrase is the page's (gettext); the explanation is the rule's own text on the game's rules
page (service/web/rules_text/<game>.<lang>.json), so both languages say what the rules page says."""
from __future__ import annotations

import json

from flask_babel import gettext as _, lazy_gettext as _l

# {game id: {command type: (what a player does, a phrase after "Your move:" and "Waiting for Ann to", the rule
# that explains it)}}
STEPS = {
    "uchronia": {
        "discard_to_forum": (_l("put 1 card from hand into the Forum"), "setup.forum-discard"),
        "issue_order": (_l("play cards to issue an order"), "command.single"),
        "plot": (_l("plot (draw cards)"), "plot.copy"),
        "reveal": (_l("reveal cards for Draconias"), "draconias.operations"),
        "give_card": (_l("give the Draconias player a revealed colour"), "draconias.victim-choice"),
        "raid": (_l("raid a resource from an opponent's building"), "draconias.raid"),
        "stock_from_hand": (_l("move a card from hand to Stock"), "expeditions.hand-has-color"),
        "take_from_forum": (_l("take a colour from the Forum into Stock"), "production.forum-has-color"),
        "trade": (_l("move a Stock card to Operations"), "trade.stock-has-color"),
        "start_building": (_l("start a building"), "construction.start"),
        "supply_building": (_l("supply a building under construction"), "construction.supply"),
        "end_order": (_l("end the order"), "orders.optional-steps"),
        "monopoly_bonus": (_l("take the Monopoly bonus card"), "monopoly.build-bonus"),
    },
    "merchant-of-venus": {
        "declare_direction": (_l("declare where the ship heads"), "movement.declare"),
        "skip_movement": (_l("stay put this turn"), None),
        "roll_speed": (_l("roll the speed dice"), "movement.speed-dice"),
        "assign_navigation": (_l("assign a die to navigation"), "nav.assign-timing"),
        "move": (_l("move the ship a step"), "movement.adjacent"),
        "end_move": (_l("end the move here"), "movement.voluntary-stop"),
        "observe": (_l("look at a face-down culture"), "contact.observe"),
        "buy": (_l("buy"), "transaction.where"),
        "sell": (_l("sell goods"), "sell.action"),
        "pick_up": (_l("pick up a passenger"), "passenger.pick-up"),
        "drop_off": (_l("drop off a passenger"), "passenger.drop-off"),
        "jettison": (_l("jettison cargo"), "capacity.free-space"),
        "end_turn": (_l("end the turn"), None),
    },
    "ti4-exploration": {
        "activate_system": (_l("activate a system"), "tactical.eligible-system"),
        "move_ships": (_l("move ships into the active system"), "movement.adjacent"),
        "end_movement": (_l("end the movement"), None),
        "commit_ground_forces": (_l("land ground forces on a planet"), "invasion.commit"),
        "end_invasion": (_l("end the invasion"), None),
        "produce": (_l("produce units in the home system"), "production.home"),
        "skip_production": (_l("skip production"), "production.home"),
        "gain_control": (_l("gain control of a planet"), "73.comment-4"),
        "explore_frontier": (_l("explore a frontier token"), "73.4"),
        "choose_exploration_deck": (_l("choose the deck to explore from"), "73.2c"),
        "resolve_exploration": (_l("resolve the exploration card"), "73.7"),
        "research": (_l("research a technology"), "tech.research"),
        "purge_fragments": (_l("purge 3 fragments for a relic"), "relics.purge-three"),
        "use_crown_of_emphidia": (_l("use the Crown of Emphidia"), "relic.crown-explore"),
        "use_enigmatic_device": (_l("use the Enigmatic Device"), "tech.enigmatic-device"),
        "use_maw_of_worlds": (_l("use the Maw of Worlds"), "relics.maw"),
        "use_nano_forge": (_l("attach the Nano-Forge"), "relics.nano-forge"),
        "propose_transaction": (_l("offer a deal"), "transaction.windows"),
        "accept_transaction": (_l("accept the deal on offer"), "transaction.response"),
        "decline_transaction": (_l("decline the deal on offer"), "transaction.response"),
        "pass": (_l("pass for the rest of the round"), None),
        "end_turn": (_l("end the turn"), None),
    },
    "origins": {
        "visit": (_l("send a die or the Archon to a site"), "visit.worker"),
        "close_district": (_l("close a district"), "district.block-filled"),
        "pass": (_l("pass for the rest of the round"), "round.turn-order"),
        "advance_temple": (_l("advance on a temple"), "temple.advance-two"),
        "gather": (_l("gather 2 resources"), "gather.two"),
        "build": (_l("build a market tile"), "build.from-market"),
        "attack": (_l("attack"), "attack.once-per-round"),
        "take_citizen_die": (_l("take a citizen die"), "citizen.choose-slot"),
        "spend_food": (_l("spend food"), "food.amount"),
        "bonus_temple": (_l("take the temple bonus"), "bonus.temple"),
        "bonus_build": (_l("take the building bonus"), "bonus.build"),
        "bonus_war": (_l("take the war bonus"), "bonus.war"),
        "bonus_orator": (_l("take the orator bonus"), "bonus.orator"),
        "bonus_resource": (_l("take the resource bonus"), "bonus.resource"),
        "end_visit": (_l("end the visit"), "visit.end"),
    },
}
# what a move without a rule of its own does (the rules page explains it in its turn's section)
OWN_WORDS = {
    "skip_movement": _l("Your ship does not move this turn."),
    "end_turn": _l("Ends your turn; the next player moves."),
    "end_movement": _l("Ends this step of the turn; the next step follows."),
    "end_invasion": _l("Ends this step of the turn; the next step follows."),
    "pass": _l("You take no more actions this round; the others play on until everyone has passed."),
}
# moves that give up the rest of something (a turn, a round, an order): never the primary button, asked first
GIVING_UP = {"pass", "end_turn", "end_order", "end_move", "end_movement", "end_invasion", "end_visit",
             "skip_movement", "skip_production", "decline_transaction"}
ASK_FIRST = {"pass", "end_turn", "skip_movement", "skip_production"}  # what cannot be taken back in the same turn


def step_of(game_id: str, kind: str) -> tuple | None:
    """The game's (phrase, rule id or None) of a command type, or None for a type its table does not list."""
    return STEPS.get(game_id, {}).get(kind)


def phrase(game_id: str, kind: str) -> str:
    """What a command of `kind` does, as a phrase ("play cards to issue an order")."""
    step = step_of(game_id, kind)
    return str(step[0]) if step else kind.replace("_", " ")


def either(phrases: list) -> str:
    """"a", "a or b", "a, b or c" in the page's language."""
    if len(phrases) <= 1:
        return "".join(phrases)
    return _("%(some)s or %(last)s", some=", ".join(phrases[:-1]), last=phrases[-1])


def kinds_of(commands: list) -> list:
    """The command types in the order the game lists them, the moves that give something up last."""
    kinds = list(dict.fromkeys(c["type"] for c in commands))
    return [k for k in kinds if k not in GIVING_UP] + [k for k in kinds if k in GIVING_UP]


def todo(game_id: str, commands: list) -> str:
    """What the player may do now, as one phrase: "play cards to issue an order or plot (…)"."""
    return either([phrase(game_id, k) for k in kinds_of(commands)][:4])


def explanation(game_id: str, kind: str, lang: str) -> str | None:
    """The rule text that explains a command type, from the game's rules page in `lang`."""
    from service.web.rules_page import rules_text  # here: rules_page imports the pages that import this module
    step = step_of(game_id, kind)
    if step and step[1] is None:
        return str(OWN_WORDS[kind]) if kind in OWN_WORDS else None
    text = rules_text(game_id, lang) if step else None
    for group in (text or {}).get("rules", []):
        for rule_id, _title, words in group["entries"]:
            if rule_id == step[1]:
                return words
    return None


def rule_anchor(game_id: str, kind: str) -> str | None:
    """The rules page's anchor of the rule that explains a command type."""
    step = step_of(game_id, kind)
    return f"rule-{step[1]}" if step and step[1] else None


def group_kind(group: dict) -> str:
    """The command type of a group of buttons (every button of a group has the same)."""
    return json.loads(group["actions"][0]["json"])["type"]
