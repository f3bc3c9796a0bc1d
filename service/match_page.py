"""What the pages show: option form fields, readable log sentences, action labels, the live sections."""
from __future__ import annotations

import json

from flask import render_template
from markupsafe import Markup

from domain.engine import platform_events as pe

from .boards import render_board
from .history import describe
from .matches import legal_for
from .openapi import schema_json

LOG_LIMIT = 300
GROUP_OPEN_LIMIT = 12


# -- the new-match form ----------------------------------------------------------------------------
def option_fields(game) -> list:
    """The game's options as form fields: [{name, kind, label, default, min, max, choices}]."""
    out = []
    for name, prop in schema_json(game.options_schema)["properties"].items():
        nullable = "anyOf" in prop
        spec = prop["anyOf"][0] if nullable else prop
        kind = spec.get("type", "string")
        if kind == "array" and "enum" in spec.get("items", {}):
            kind, choices = "multi", spec["items"]["enum"]
        else:
            choices = spec.get("enum")
            kind = "choice" if choices else kind
        out.append({"name": name, "kind": kind, "label": name.replace("_", " ").capitalize(),
                    "default": prop.get("default", spec.get("default")), "min": spec.get("minimum"),
                    "max": spec.get("maximum"), "choices": choices or [], "optional": nullable})
    return out


def parse_options(game, form) -> dict:
    """The options dict from the new-match form (blank fields keep the game's defaults)."""
    options = {}
    prefix = f"opt_{game.id}_"
    for f in option_fields(game):
        key = prefix + f["name"]
        if f["kind"] == "multi":
            picked = form.getlist(key)
            if picked:
                options[f["name"]] = picked
            continue
        if f["kind"] == "boolean":
            options[f["name"]] = key in form
            continue
        raw = (form.get(key) or "").strip()
        if not raw:
            continue
        if f["kind"] == "object":
            try:
                options[f["name"]] = json.loads(raw)
            except ValueError:
                options[f["name"]] = raw
        else:
            options[f["name"]] = raw
    return options


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


# -- actions -----------------------------------------------------------------------------------------
def _value_text(value, names: dict) -> str:
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return ", ".join(_value_text(v, names) for v in value) or "none"
    if isinstance(value, dict):
        return ", ".join(f"{k.replace('_', ' ')} {_value_text(v, names)}" for k, v in value.items())
    if value is None:
        return "none"
    return json.dumps(value)


def action_label(command: dict, names: dict) -> str:
    """A button label for a concrete command ("Discard to forum: yellow")."""
    title = command["type"].replace("_", " ").capitalize()
    payload = command.get("payload") or {}
    if not payload:
        return title
    parts = [_value_text(v, names) if len(payload) == 1 else f"{k.replace('_', ' ')} {_value_text(v, names)}"
             for k, v in payload.items()]
    return f"{title}: " + "; ".join(parts)


def action_groups(commands: list, names: dict) -> list:
    """Legal commands grouped by type: [{type, title, open, actions: [{json, label}]}]."""
    groups: dict = {}
    for cmd in commands:
        body = {"type": cmd["type"], "payload": cmd.get("payload") or {}}
        groups.setdefault(cmd["type"], []).append({"json": json.dumps(body, sort_keys=True),
                                                   "label": action_label(body, names)})
    return [{"type": t, "title": t.replace("_", " ").capitalize(), "open": len(acts) <= GROUP_OPEN_LIMIT,
             "actions": acts} for t, acts in groups.items()]


# -- the live sections -------------------------------------------------------------------------------
def live_sections(w, match, viewer) -> dict:
    """Everything of the match page that changes with a new event, rendered as HTML snippets."""
    actors = [env.get("actor") for env in match.envelopes[-LOG_LIMIT:] if env.get("actor")]
    names = w.users.names(list(match.players) + actors + [match.created_by or ""])
    names.pop("", None)
    commands = legal_for(match, viewer)
    active = match.active_players()
    ctx = {"match": match, "viewer": viewer, "names": names, "active": active,
           "groups": action_groups(commands, names), "command_types": sorted(match.game.command_schemas),
           "log": log_entries(match, viewer, names), "disputes": list(match.disputes.values())}
    board = render_board(match.game_id, match.view(viewer), viewer, names)
    html = {key: Markup(render_template(f"parts/{key}.html", **ctx)) for key in ("status", "players", "actions", "log",
                                                                         "disputes")}
    html["board"] = board
    return {"html": html, "names": names, "active": active}
