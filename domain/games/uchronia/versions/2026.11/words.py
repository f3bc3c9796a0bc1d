"""Uchronia's page wording (read by the web pages through `GAME.table.words`; said through the `games` catalogue):
what each move does and the rule that explains it, why a match ends, the standings' columns, the tiebreaks and the
lobby's option names."""
from __future__ import annotations

from domain.engine.text import N_, NC_

# {command type: (what a player does, a phrase after "Your move:" and "Waiting for Ann to", the rule explaining it)}
STEPS = {
    "discard_to_forum": (N_("put 1 card from hand into the Forum"), "setup.forum-discard"),
    "issue_order": (N_("play cards to issue an order"), "command.single"),
    "plot": (N_("plot (draw cards)"), "plot.copy"),
    "reveal": (N_("reveal cards for Draconias"), "draconias.operations"),
    "give_card": (N_("give the Draconias player a revealed colour"), "draconias.victim-choice"),
    "raid": (N_("raid a resource from an opponent's building"), "draconias.raid"),
    "stock_from_hand": (N_("move a card from hand to Stock"), "expeditions.hand-has-color"),
    "take_from_forum": (N_("take a colour from the Forum into Stock"), "production.forum-has-color"),
    "trade": (N_("move a Stock card to Operations"), "trade.stock-has-color"),
    "start_building": (N_("start a building"), "construction.start"),
    "supply_building": (N_("supply a building under construction"), "construction.supply"),
    "end_order": (N_("end the order"), "orders.optional-steps"),
    "monopoly_bonus": (N_("take the Monopoly bonus card"), "monopoly.build-bonus"),
}
GIVING_UP = frozenset({"end_order"})  # gives up the rest of the order: never the primary button

# why a match ended, by the reason its result names ("max_rounds", the last round played, the pages say for any game)
REASONS = {"draw_pile_empty": N_("The draw pile ran out, so the match ended."),
           "vp_target": N_("A player reached the victory point target, so the match ended.")}

# the standings' breakdown columns in the rules' order (the context keeps them apart from the boards' same words)
COLUMNS = {"buildings": NC_("standings", "Completed buildings"),
           "operations": NC_("standings", "Operation cards")}

# what breaks a tie on the score, in the rules' order: (words, where the number is: the result's details or the
# final view's per-player table of that name, its key)
TIEBREAKS = [(N_("more completed buildings"), "details", "buildings"),
             (N_("more operation cards"), "details", "operations")]

OPTION_LABELS = {"vp_target": N_("VP target"), "max_rounds": N_("Max rounds")}
