"""What the match page shows: readable log sentences, action labels, the live sections."""
from __future__ import annotations

import json

from flask import render_template
from markupsafe import Markup

from domain.engine import platform_events as pe

from .actions import action_groups, actions
from .boards import render_board
from .history import describe
from .matches import legal_for

LOG_LIMIT = 300


# -- readable sentences ----------------------------------------------------------------------------
def sentence(game, env: dict, name) -> str:
    """One readable sentence for a (redacted) envelope, capitalised and closed with a full stop."""
    text = describe(game, env, name).strip() or env["type"].replace("_", " ")
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def log_entries(match, viewer, names: dict) -> list:
    """The newest events first: {version, text, actor, at, reverted} for the viewer."""
    def name(pid):
        return names.get(pid, pid) if pid else "someone"
    effective = set(match.effective)
    out = []
    for env in reversed(match.envelopes[-LOG_LIMIT:]):
        red = match.redact(env, viewer)
        out.append({"version": env["version"], "text": sentence(match.game, red, name), "actor": env.get("actor"),
                    "at": env.get("at"), "type": env["type"],
                    "reverted": env["scope"] == pe.GAME and env["version"] not in effective})
    return out


# -- the live sections -------------------------------------------------------------------------------
def live_sections(w, match, viewer) -> dict:
    """Everything of the match page that changes with a new event, rendered as HTML snippets."""
    actors = [env.get("actor") for env in match.envelopes[-LOG_LIMIT:] if env.get("actor")]
    names = w.users.names(list(match.players) + actors + [match.created_by or ""])
    names.pop("", None)
    view = match.view(viewer)
    acts = actions(match.game, match.game_state, view, legal_for(match, viewer), names)
    active = match.active_players()
    ctx = {"match": match, "viewer": viewer, "names": names, "active": active, "groups": action_groups(acts),
           "log": log_entries(match, viewer, names), "disputes": list(match.disputes.values())}
    board = render_board(match.game_id, view, viewer, names, acts)
    html = {key: Markup(render_template(f"parts/{key}.html", **ctx)) for key in ("status", "players", "actions", "log",
                                                                         "disputes")}
    html["board"] = board
    return {"html": html, "names": names, "active": active}
