"""Origins' page wording (read by the web pages through `GAME.table.words`; said through the `games` catalogue):
what each move does and the rule that explains it, its other way to end, the standings' columns, the tiebreak and
the lobby's option names."""
from __future__ import annotations

from domain.engine.text import N_, NC_

# {command type: (what a player does, a phrase after "Your move:" and "Waiting for Ann to", the rule explaining it)}
STEPS = {
    "visit": (N_("send a die or the Archon to a site"), "visit.worker"),
    "close_district": (N_("close a district"), "district.block-filled"),
    "pass": (N_("pass for the rest of the round"), "round.turn-order"),
    "advance_temple": (N_("advance on a temple"), "temple.advance-two"),
    "gather": (N_("gather 2 resources"), "gather.two"),
    "build": (N_("build a market tile"), "build.from-market"),
    "attack": (N_("attack"), "attack.once-per-round"),
    "take_citizen_die": (N_("take a citizen die"), "citizen.choose-slot"),
    "spend_food": (N_("spend food"), "food.amount"),
    "bonus_temple": (N_("take the temple bonus"), "bonus.temple"),
    "bonus_build": (N_("take the building bonus"), "bonus.build"),
    "bonus_war": (N_("take the war bonus"), "bonus.war"),
    "bonus_orator": (N_("take the orator bonus"), "bonus.orator"),
    "bonus_resource": (N_("take the resource bonus"), "bonus.resource"),
    "end_visit": (N_("end the visit"), "visit.end"),
}
GIVING_UP = frozenset({"pass", "end_visit"})  # give up the rest of a round or a visit: never the primary button
ASK_FIRST = frozenset({"pass"})  # cannot be taken back in the same round: asked first

# the result names no reason: a match that ends with rounds left ended this way (all the gold taken)
OTHER_END = "gold_taken"
REASONS = {"gold_taken": N_("All the gold on the district cards was taken, so the match ended.")}

# the standings' breakdown columns in the rules' order (the context keeps them apart from the boards' same words)
COLUMNS = {"vp": NC_("standings", "VP during play"), "gold": NC_("standings", "Gold"),
           "temples": NC_("standings", "Temples"), "districts": NC_("standings", "Districts"),
           "zodiac": NC_("standings", "Zodiac cards")}

# what breaks a tie on victory points: (words, the final view's per-player table, its key)
TIEBREAKS = [(N_("a higher position on the war track"), "players", "war")]

OPTION_LABELS = {"max_rounds": N_("Max rounds")}
