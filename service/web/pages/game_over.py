"""The game over in the player's language: who won and why (the tiebreak that decided), why the match ended,
and the standings' columns in one order for every viewer, named in words. The game's own words (its end reasons,
columns and tiebreaks) come from its package's words.py (`game.table.words`, the `games` catalogue); the
platform's (a concession, the last round played) are here."""
from __future__ import annotations

from flask_babel import gettext as _, lazy_gettext as _l

from domain.engine.text import T, TC
from service.app.standings import names_sentence as _english_names
from service.web.game_words import say
from service.web.pages.page_words import table

LAST_ROUND = _l("The last round was played, so the match ended.")
# the reasons any game may end for, read from its end state when its result names none (`ending`)
REASONS = {"max_rounds": LAST_ROUND, "rounds": LAST_ROUND, "conceded": _l("A player conceded, so the match ended.")}


def names_sentence(names: list) -> str:
    """People as a phrase in the page's language: "Ann", "Ann and Bob", "Ann, Bob and Cy"."""
    names = [str(n) for n in names]
    if len(names) <= 1:
        return _english_names(names)
    return _("%(some)s and %(last)s", some=", ".join(names[:-1]), last=names[-1])


def winners_sentence(winners: list, names: dict) -> str:
    """"Ann won.", "Ann and Bob share the win.", or "Nobody won."."""
    people = [names.get(w, w) for w in winners]
    if not people:
        return _("Nobody won.")
    if len(people) == 1:
        return _("%(name)s won.", name=people[0])
    return _("%(names)s share the win.", names=names_sentence(people))


def ending(game, result: dict, view: dict) -> str | None:
    """Why the match ended: the game's own reason, else read from the end state (a concession, the last round
    played, the game's one other way to end: its words' OTHER_END)."""
    if result.get("reason"):
        return str(result["reason"])
    if result.get("conceded"):
        return "conceded"
    limit = (view.get("rounds") or view.get("max_rounds")) if isinstance(view, dict) else None
    if isinstance(limit, int) and isinstance(view.get("round"), int):
        return "max_rounds" if view["round"] >= limit else table(game, "OTHER_END", None)
    return None


def reason_sentence(game, result: dict) -> str | None:
    """Why the match ended, as a sentence, when the game says (in its words, else the platform's, else its id)."""
    reason = result.get("reason")
    if not reason:
        return None
    own = table(game, "REASONS", {}).get(str(reason))
    if own:
        return say(T(own))
    known = REASONS.get(str(reason))
    return str(known) if known else _("The match ended (%(reason)s).", reason=str(reason).replace("_", " "))


def columns(game) -> dict:
    """The breakdown columns a game scores by, in the order of its rules: {key: (context, heading)} (a key not
    named there comes after them, by name)."""
    return table(game, "COLUMNS", {})


def column_keys(game, breakdown: dict) -> list:
    """The breakdown's keys in the game's order, then by name: the same for every viewer and every process."""
    keys = {k for parts in breakdown.values() if isinstance(parts, dict) for k in parts if k != "total"}
    known = [k for k in columns(game) if k in keys]
    return known + sorted(keys - set(known))


def column_label(game, key: str) -> str:
    """A breakdown column's heading in words."""
    label = columns(game).get(key)
    return say(TC(*label)) if label else (key.upper() if len(key) <= 2 else key.replace("_", " ").capitalize())


def _tiebreak_value(result: dict, view: dict, where: str, key: str, player: str):
    if where == "details":
        parts = (result.get("details") or result.get("breakdown") or {}).get(player) or {}
        return parts.get(key)
    players = view.get(where) if isinstance(view, dict) else None
    me = players.get(player) if isinstance(players, dict) else None
    return me.get(key) if isinstance(me, dict) else None


def tiebreak_sentence(game, result: dict, view: dict, rows: list, names: dict) -> str | None:
    """When the winner had the runner-up's score: what decided, with both numbers; or that the tie stood."""
    if len(rows) < 2 or rows[0]["score"] is None or rows[0]["score"] != rows[1]["score"] or rows[1]["conceded"]:
        return None
    first, second = rows[0]["player"], rows[1]["player"]
    tied = names_sentence([names.get(first, first), names.get(second, second)])
    if rows[1]["winner"]:
        return _("%(names)s tied on %(score)s and on every tiebreak the rules name.", names=tied,
                 score=rows[0]["score"])
    for words, where, key in table(game, "TIEBREAKS", []):
        a, b = (_tiebreak_value(result, view, where, key, p) for p in (first, second))
        if a != b and a is not None and b is not None:
            return _("%(names)s tied on %(score)s; %(winner)s won on %(what)s (%(a)s to %(b)s).", names=tied,
                     score=rows[0]["score"], winner=names.get(first, first), what=say(T(words)), a=a, b=b)
    return _("%(names)s tied on %(score)s; the game's ranking put %(winner)s first.", names=tied,
             score=rows[0]["score"], winner=names.get(first, first))
