"""Merchant of Venus's page wording (read by the web pages through `GAME.table.words`; said through the `games`
catalogue): what each move does and the rule that explains it, why a match ends, the tiebreak and the lobby's
option names and choices."""
from __future__ import annotations

from domain.engine.text import N_

from .command_text import culture_name

# {command type: (what a player does, a phrase after "Your move:" and "Waiting for Ann to", the rule explaining it)}
STEPS = {
    "declare_direction": (N_("declare where the ship heads"), "movement.declare"),
    "skip_movement": (N_("stay put this turn"), None),
    "roll_speed": (N_("roll the speed dice"), "movement.speed-dice"),
    "assign_navigation": (N_("assign a die to navigation"), "nav.assign-timing"),
    "move": (N_("move the ship a step"), "movement.adjacent"),
    "end_move": (N_("end the move here"), "movement.voluntary-stop"),
    "observe": (N_("look at a face-down culture"), "contact.observe"),
    "buy": (N_("buy"), "transaction.where"),
    "sell": (N_("sell goods"), "sell.action"),
    "pick_up": (N_("pick up a passenger"), "passenger.pick-up"),
    "drop_off": (N_("drop off a passenger"), "passenger.drop-off"),
    "jettison": (N_("jettison cargo"), "capacity.free-space"),
    "end_turn": (N_("end the turn"), None),
}
# what a move without a rule of its own does (the rules page explains it in its turn's section)
OWN_WORDS = {"skip_movement": N_("Your ship does not move this turn."),
             "end_turn": N_("Ends your turn; the next player moves.")}
GIVING_UP = frozenset({"end_move", "end_turn", "skip_movement"})  # never the primary button
ASK_FIRST = frozenset({"end_turn", "skip_movement"})  # cannot be taken back in the same turn: asked first

# why a match ended, by the reason its result names
REASONS = {"round_limit": N_("The last round was played, so the match ended."),
           "target": N_("A player reached the target net worth, so the match ended.")}

# what breaks a tie on net worth: (words, the final view's per-player table, its key)
TIEBREAKS = [(N_("more cash"), "player_states", "cash")]

OPTION_LABELS = {"target_net_worth": N_("Target net worth"), "max_rounds": N_("Max rounds"),
                 "starting_cash": N_("Starting cash"), "races": N_("Races"), "fixed_cultures": N_("Fixed cultures")}
CHOICE_NAMES = {"races": culture_name}  # an option's choices are data ids: each shown by its printed name
