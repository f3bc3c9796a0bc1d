"""What the match page shows: the live sections (status, players, actions, log, disputes, chat, result, board)."""
from __future__ import annotations

from flask import render_template
from markupsafe import Markup

from service.web.actions import action_groups, actions
from service.web.boards import render_board
from service.web.deadline_view import hours_text, turn_deadlines
from service.web.match_log import LOG_LIMIT, chat_messages, latest, log_entries
from service.app.matches import legal_for
from service.app.standings import standings

LIVE_PARTS = ("status", "players", "actions", "log", "disputes", "chat", "result")


# -- the live sections -------------------------------------------------------------------------------
def live_sections(w, match, viewer, csrf: str = "") -> dict:
    """Everything of the match page that changes with a new event, rendered as HTML snippets (`csrf`: the
    signed-in browser's token for the forms in them)."""
    actors = [env.get("actor") for env in latest(match, LOG_LIMIT) if env.get("actor")]
    names = w.users.names(list(match.players) + actors + [match.created_by or ""])
    names.pop("", None)
    view = match.view(viewer)
    acts = actions(match.game, match.game_state, view, legal_for(match, viewer), names)
    active = match.active_players()
    log = log_entries(match, viewer, names)
    ctx = {"match": match, "viewer": viewer, "names": names, "csrf": csrf, "active": active, "groups": action_groups(acts),
           "log": log, "quotes": {e["version"]: e["text"] for e in log}, "disputes": list(match.disputes.values()),
           "chat": chat_messages(match, names), "standings": standings(match.result, match.players, names),
           "deadlines": turn_deadlines(w, match, active), "deadline_text": hours_text(match.turn_deadline_hours or 0)}
    board = render_board(match.game_id, view, viewer, names, acts)
    html = {key: Markup(render_template(f"parts/{key}.html", **ctx)) for key in LIVE_PARTS}
    html["board"] = board
    return {"html": html, "names": names, "active": active}
