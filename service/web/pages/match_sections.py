"""What the match page shows: the live sections (status, players, actions, log, disputes, chat, result, board)."""
from __future__ import annotations

import json

from flask import render_template
from flask_babel import gettext
from markupsafe import Markup

from domain.engine.undo import could_take_back, may_take_back

from service.web.actions import action_groups, actions
from service.web.boards import render_board
from service.web.bot_names import said_names
from service.web.i18n import choose_language
from service.web.pages import action_help, game_over
from service.web.pages.deadline_view import hours_text, turn_deadlines
from service.web.pages.match_log import (LOG_LIMIT, chat_messages, dispute_vote_note, latest, log_by_round,
                                        log_entries)
from service.app.errors import AppError
from service.app.matches import legal_for, seat_commands
from service.app.rules_upgrade import proposal_shown
from service.app.standings import standings
from service.app.suggestions import check_may_ask

LIVE_PARTS = ("status", "players", "actions", "log", "disputes", "chat", "result")


# -- the live sections -------------------------------------------------------------------------------
def live_sections(w, match, viewer, csrf: str = "") -> dict:
    """Everything of the match page that changes with a new event, rendered as HTML snippets (`csrf`: the
    signed-in browser's token for the forms in them)."""
    actors = [env.get("actor") for env in latest(match, LOG_LIMIT) if env.get("actor")]
    names = said_names(w.users.names(list(match.players) + actors + [match.created_by or ""]))
    names.pop("", None)
    view = match.view(viewer)
    legal = legal_for(match, viewer)
    acts = actions(match.game, match.game_state, view, legal, names)
    active = match.active_players() if match.status == "active" else []
    log = log_entries(match, viewer, names)
    groups = asked_truly(match, viewer, explained_groups(match.game, action_groups(acts)))
    rounds = log_by_round(log, names)
    quotes = {e["version"]: e["text"] for e in log}
    quotes.update((e["version"], e["text"]) for group in rounds for e in group["entries"])  # a command's headline
    ctx = {"match": match, "viewer": viewer, "names": names, "csrf": csrf, "active": active, "groups": groups,
           "log": log, "rounds": rounds, "quotes": quotes,
           "disputes": list(match.disputes.values()), "header": header(match, viewer, active, legal),
           "rules_vote": rules_vote(match, names), "suggest": suggestable(match, viewer),
           "vote_asked": vote_asked(match, viewer, names),
           "can_take_back": viewer in match.players and may_take_back(match, viewer),
           "chat": chat_messages(match, names), "standings": final_standings(match, view, names),
           "deadlines": turn_deadlines(w, match, active), "deadline_text": hours_text(match.turn_deadline_hours or 0)}
    board = render_board(match.game, view, viewer, names, acts)
    html = {key: Markup(render_template(f"parts/{key}.html", **ctx)) for key in LIVE_PARTS}
    html["board"] = board
    return {"html": html, "names": names, "active": active}


def vote_asked(match, viewer, names: dict) -> dict | None:
    """The open dispute waiting for the viewer's vote, with its line in words (shown atop the actions), or None."""
    dispute = match.open_dispute()
    if dispute is None or viewer in (None, dispute["by"]) or viewer in dispute["votes"] or viewer in match.conceded:
        return None
    return {"id": dispute["id"], "version": dispute["version"], "reason": dispute["reason"],
            "note": dispute_vote_note(match, viewer, names)}


def suggestable(match, viewer) -> bool:
    """Whether the viewer may be suggested a move now (GET /api/matches/<id>/suggestion would answer it)."""
    try:
        check_may_ask(match, viewer)
    except AppError:
        return False
    return True


def rules_vote(match, names: dict) -> dict | None:
    """The open proposal to move the match to other rules, with the names of the voters it still waits for (None:
    none open)."""
    shown = proposal_shown(match)
    if shown is not None:
        shown["waiting"] = [names.get(p, p) for p in shown["voters"] if p not in shown["accepted"]]
    return shown


def header(match, viewer, active: list, legal: list) -> dict:
    """What the viewer must do now and why: {"todo", "why", "rule", "waiting": [(player, phrase)]}."""
    if match.status != "active" or match.open_dispute():
        return {}
    if viewer in active and legal:
        kind = action_help.kinds_of(match.game, legal)[0]
        return {"todo": action_help.todo(match.game, legal), "rule": action_help.rule_anchor(match.game, kind),
                "why": action_help.explanation(match.game, kind, choose_language())}
    waiting = []
    for player in active:  # only the kinds of move they may make: their words would show a hidden hand
        kinds = [{"type": kind} for kind in kinds_waited_for(match, player)]
        waiting.append((player, action_help.todo(match.game, kinds) if kinds else ""))
    return {"waiting": waiting}


_WAITED: dict = {}  # (match id, version, player) -> the kinds of move the table waits for; every viewer's the same
_WAITED_MAX = 4096


def kinds_waited_for(match, player) -> list:
    """The command types `player` may send now, worked out once per match version in this process (Origins'
    legal commands take up to ~25 ms, and every viewer's page and live update asks)."""
    key = (match.id, match.version, player)
    if key not in _WAITED:
        if len(_WAITED) >= _WAITED_MAX:
            _WAITED.clear()
        _WAITED[key] = list(dict.fromkeys(c["type"] for c in seat_commands(match, player)))
    return _WAITED[key]


def explained_groups(game, groups: list) -> list:
    """The button groups with what their move does (in the words of `game`, the match's rules version), the expected
    move marked primary, the giving-up moves last and asking first."""
    lang = choose_language()
    explained = {}  # kind -> the id of its explanation (shown once, above its first group)
    for group in groups:
        kind = action_help.group_kind(group)
        hint = action_help.explanation(game, kind, lang) if kind not in explained else None
        if hint:
            explained[kind] = f"hint-{kind}"
        group.update(kind=kind, hint=hint, hint_id=explained.get(kind),
                     gives_up=action_help.gives_up(game, kind), ask=action_help.asks_first(game, kind),
                     phrase=action_help.phrase(game, kind))
    groups.sort(key=lambda g: g["gives_up"])
    expected = next((g for g in groups if not g["gives_up"]), None)
    if expected is not None and len(expected["actions"]) == 1:
        expected["primary"] = True
    return groups


def asked_truly(match, viewer, groups: list) -> list:
    """Each move the page asks about first says in its question whether Undo can take it back (the take-back policy,
    domain/engine/undo.py, on what the move would do)."""
    for group in groups:
        for act in group["actions"] if group["ask"] else ():
            if could_take_back(match, viewer, json.loads(act["json"])):
                act["ask"] = gettext("%(action)s? You can take it back until another player acts.", action=act["label"])
            else:
                act["ask"] = gettext("%(action)s? This cannot be taken back.", action=act["label"])
    return groups


def final_standings(match, view, names: dict) -> dict | None:
    """The standings in the page's language: winners, why the match ended, the tiebreak that decided."""
    table = standings(match.result, match.players, names,
                      column_order=lambda breakdown: game_over.column_keys(match.game, breakdown))
    if table is None:
        return None
    result = match.result
    winners = [row["player"] for row in table["rows"] if row["winner"]]  # in the table's order
    table.update(sentence=game_over.winners_sentence(winners, names),
                 reason=game_over.reason_sentence(match.game, {"reason": game_over.ending(match.game, result, view)}),
                 columns=[game_over.column_label(match.game, k) for k in table["keys"]],
                 tiebreak=game_over.tiebreak_sentence(match.game, result, view, table["rows"], names))
    return table
