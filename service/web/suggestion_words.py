"""Why the greedy bot suggests a move, in the page's language: the change of the caller's lead by the game's bot
score (domain/bots/greedy.py, Advice), e.g. "By the greedy bot's count, it raises your lead from 2 points to 5
points."."""
from __future__ import annotations

from flask_babel import format_decimal, gettext as _, ngettext

WON, LOST = 1, -1  # the first part of a bot's value: the match won, unfinished (0) or lost


def rounded(lead: float) -> float:
    """A lead as it is said: to a tenth of a point (a change smaller than that is no change)."""
    return round(lead, 1) + 0.0  # + 0.0: never "-0"


def points(amount: float) -> str:
    """"2 points", "2.5 points", "1 point" in the page's language (a fraction takes the form 2 takes)."""
    amount = abs(amount)
    form = int(amount) if amount == int(amount) else 2
    return ngettext("%(points)s point", "%(points)s points", form, points=format_decimal(amount, format="#,##0.#"))


def standing(lead: float) -> str:
    """Where a lead leaves the player: ahead, behind or level with the best other seat."""
    if lead > 0:
        return _("you lead by %(points)s", points=points(lead))
    if lead < 0:
        return _("you trail the leader by %(points)s", points=points(lead))
    return _("you are level with the leader")


def why(advice) -> str:
    """The reason for the advised move: the only one, a win, or how it changes the player's lead."""
    if advice.after is None:
        return _("It is your only legal move.")
    if advice.after[0] == WON:
        return _("It wins the match.")
    if advice.after[0] == LOST:
        return _("Every move loses the match now; this is the greedy bot's pick among them.")
    before, after = rounded(advice.now[1]), rounded(advice.after[1])
    if after > before:
        return gained(before, after)
    if after == before:
        return _("By the greedy bot's count no move improves your standing now; this one keeps it: %(standing)s.",
                 standing=standing(after))
    return _("By the greedy bot's count every move costs you ground now; this one the least: afterwards "
             "%(standing)s.", standing=standing(after))


def gained(before: float, after: float) -> str:
    """How a better lead is said, by where the player stood and stands."""
    if before > 0:
        return _("By the greedy bot's count it raises your lead from %(before)s to %(after)s.",
                 before=points(before), after=points(after))
    if before == 0:
        return _("By the greedy bot's count it puts you %(after)s ahead of everyone else.", after=points(after))
    if after > 0:
        return _("By the greedy bot's count it takes you from %(before)s behind to %(after)s ahead.",
                 before=points(before), after=points(after))
    if after == 0:
        return _("By the greedy bot's count it draws you level with the leader (you were %(before)s behind).",
                 before=points(before))
    return _("By the greedy bot's count it cuts the leader's lead over you from %(before)s to %(after)s.",
             before=points(before), after=points(after))
