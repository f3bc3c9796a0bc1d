"""Twilight Imperium 4: exploration's page wording (read by the web pages through `GAME.table.words`; said through
the `games` catalogue): what each move does and the rule that explains it, the standings' columns, the tiebreaks
and the lobby's option names."""
from __future__ import annotations

from domain.engine.text import N_, NC_

# {command type: (what a player does, a phrase after "Your move:" and "Waiting for Ann to", the rule explaining it)}
STEPS = {
    "activate_system": (N_("activate a system"), "tactical.eligible-system"),
    "move_ships": (N_("move ships into the active system"), "movement.adjacent"),
    "end_movement": (N_("end the movement"), None),
    "commit_ground_forces": (N_("land ground forces on a planet"), "invasion.commit"),
    "end_invasion": (N_("end the invasion"), None),
    "produce": (N_("produce units in the home system"), "production.home"),
    "skip_production": (N_("skip production"), "production.home"),
    "gain_control": (N_("gain control of a planet"), "73.comment-4"),
    "explore_frontier": (N_("explore a frontier token"), "73.4"),
    "choose_exploration_deck": (N_("choose the deck to explore from"), "73.2c"),
    "resolve_exploration": (N_("resolve the exploration card"), "73.7"),
    "research": (N_("research a technology"), "tech.research"),
    "purge_fragments": (N_("purge 3 fragments for a relic"), "relics.purge-three"),
    "use_crown_of_emphidia": (N_("use the Crown of Emphidia"), "relic.crown-explore"),
    "use_enigmatic_device": (N_("use the Enigmatic Device"), "tech.enigmatic-device"),
    "use_maw_of_worlds": (N_("use the Maw of Worlds"), "relics.maw"),
    "use_nano_forge": (N_("attach the Nano-Forge"), "relics.nano-forge"),
    "propose_transaction": (N_("offer a deal"), "transaction.windows"),
    "accept_transaction": (N_("accept the deal on offer"), "transaction.response"),
    "decline_transaction": (N_("decline the deal on offer"), "transaction.response"),
    "pass": (N_("pass for the rest of the round"), None),
    "end_turn": (N_("end the turn"), None),
}
# what a move without a rule of its own does (the rules page explains it in its turn's section)
OWN_WORDS = {
    "end_turn": N_("Ends your turn; the next player moves."),
    "end_movement": N_("Ends this step of the turn; the next step follows."),
    "end_invasion": N_("Ends this step of the turn; the next step follows."),
    "pass": N_("You take no more actions this round; the others play on until everyone has passed."),
}
# moves that give up the rest of something (a turn, a round, a step, a deal): never the primary button
GIVING_UP = frozenset({"pass", "end_turn", "end_movement", "end_invasion", "skip_production", "decline_transaction"})
ASK_FIRST = frozenset({"pass", "end_turn", "skip_production"})  # cannot be taken back in the same turn: asked first

# the standings' breakdown columns in the rules' order (the context keeps them apart from the boards' same words)
COLUMNS = {"planets": NC_("standings", "Planets"), "influence": NC_("standings", "Influence"),
           "relics": NC_("standings", "Relics"), "shard": NC_("standings", "Shard of the Throne"),
           "tokens": NC_("standings", "VP tokens")}

# what breaks a tie on victory points, in the rules' order: (words, the final view's per-player table, its key)
TIEBREAKS = [(N_("more relics drawn"), "players", "relics_drawn"),
             (N_("more trade goods"), "players", "trade_goods")]

OPTION_LABELS = {"rounds": N_("Rounds")}
