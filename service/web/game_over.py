"""The game over in the player's language: who won and why (the tiebreak that decided), why the match ended,
and the standings' columns in one order for every viewer, named in words."""
from __future__ import annotations

from flask_babel import gettext as _, lazy_gettext as _l, pgettext

from service.app.standings import names_sentence as _english_names

REASONS = {"draw_pile_empty": _l("The draw pile ran out, so the match ended."),
           "round_limit": _l("The last round was played, so the match ended."),
           "max_rounds": _l("The last round was played, so the match ended."),
           "rounds": _l("The last round was played, so the match ended."),
           "target": _l("A player reached the target net worth, so the match ended."),
           "vp_target": _l("A player reached the victory point target, so the match ended."),
           "conceded": _l("A player conceded, so the match ended."),
           "gold_taken": _l("All the gold on the district cards was taken, so the match ended.")}
OTHER_END = {"origins": "gold_taken"}  # a game's one other way to end, when it says no reason and rounds remained


def columns(game_id: str) -> dict:
    """The breakdown columns a game scores by, in the order of its rules, named in the page's language (a key not
    named here comes after them, by name). The context keeps these words apart from the boards' same words."""
    return {
        "uchronia": {"buildings": pgettext("standings", "Completed buildings"),
                     "operations": pgettext("standings", "Operation cards")},
        "ti4-exploration": {"planets": pgettext("standings", "Planets"), "influence": pgettext("standings", "Influence"),
                            "relics": pgettext("standings", "Relics"),
                            "shard": pgettext("standings", "Shard of the Throne"),
                            "tokens": pgettext("standings", "VP tokens")},
        "origins": {"vp": pgettext("standings", "VP during play"), "gold": pgettext("standings", "Gold"),
                    "temples": pgettext("standings", "Temples"), "districts": pgettext("standings", "Districts"),
                    "zodiac": pgettext("standings", "Zodiac cards")},
    }.get(game_id, {})


# what breaks a tie on the score, in the rules' order: (words, where the number is: the result's details or the
# final view's per-player table of that name, its key)
TIEBREAKS = {
    "uchronia": [(_l("more completed buildings"), "details", "buildings"),
                 (_l("more operation cards"), "details", "operations")],
    "merchant-of-venus": [(_l("more cash"), "player_states", "cash")],
    "ti4-exploration": [(_l("more relics drawn"), "players", "relics_drawn"),
                        (_l("more trade goods"), "players", "trade_goods")],
    "origins": [(_l("a higher position on the war track"), "players", "war")],
}


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


def ending(game_id: str, result: dict, view: dict) -> str | None:
    """Why the match ended: the game's own reason, else read from the end state (a concession, the last round
    played, the game's one other way to end)."""
    if result.get("reason"):
        return str(result["reason"])
    if result.get("conceded"):
        return "conceded"
    limit = (view.get("rounds") or view.get("max_rounds")) if isinstance(view, dict) else None
    if isinstance(limit, int) and isinstance(view.get("round"), int):
        return "max_rounds" if view["round"] >= limit else OTHER_END.get(game_id)
    return None


def reason_sentence(result: dict) -> str | None:
    """Why the match ended, as a sentence, when the game says."""
    reason = result.get("reason")
    if not reason:
        return None
    known = REASONS.get(str(reason))
    return str(known) if known else _("The match ended (%(reason)s).", reason=str(reason).replace("_", " "))


def column_keys(game_id: str, breakdown: dict) -> list:
    """The breakdown's keys in the game's order, then by name: the same for every viewer and every process."""
    keys = {k for parts in breakdown.values() if isinstance(parts, dict) for k in parts if k != "total"}
    known = [k for k in columns(game_id) if k in keys]
    return known + sorted(keys - set(known))


def column_label(game_id: str, key: str) -> str:
    """A breakdown column's heading in words."""
    label = columns(game_id).get(key)
    return str(label) if label else (key.upper() if len(key) <= 2 else key.replace("_", " ").capitalize())


def _tiebreak_value(result: dict, view: dict, where: str, key: str, player: str):
    if where == "details":
        parts = (result.get("details") or result.get("breakdown") or {}).get(player) or {}
        return parts.get(key)
    players = view.get(where) if isinstance(view, dict) else None
    me = players.get(player) if isinstance(players, dict) else None
    return me.get(key) if isinstance(me, dict) else None


def tiebreak_sentence(game_id: str, result: dict, view: dict, rows: list, names: dict) -> str | None:
    """When the winner had the runner-up's score: what decided, with both numbers; or that the tie stood."""
    if len(rows) < 2 or rows[0]["score"] is None or rows[0]["score"] != rows[1]["score"] or rows[1]["conceded"]:
        return None
    first, second = rows[0]["player"], rows[1]["player"]
    tied = names_sentence([names.get(first, first), names.get(second, second)])
    if rows[1]["winner"]:
        return _("%(names)s tied on %(score)s and on every tiebreak the rules name.", names=tied,
                 score=rows[0]["score"])
    for words, where, key in TIEBREAKS.get(game_id, []):
        a, b = (_tiebreak_value(result, view, where, key, p) for p in (first, second))
        if a != b and a is not None and b is not None:
            return _("%(names)s tied on %(score)s; %(winner)s won on %(what)s (%(a)s to %(b)s).", names=tied,
                     score=rows[0]["score"], winner=names.get(first, first), what=str(words), a=a, b=b)
    return _("%(names)s tied on %(score)s; the game's ranking put %(winner)s first.", names=tied,
             score=rows[0]["score"], winner=names.get(first, first))
