"""The lobby's new-match form: option fields typed from a game's options schema, labelled by the game's words
(its package's words.py: OPTION_LABELS, CHOICE_NAMES), and parsing them back."""
from __future__ import annotations

import json
import re

from domain.bots import NAMES as BOT_NAMES
from domain.engine.bot_seats import seat_bots
from domain.engine.text import T

from service.web.errors import ApiError
from service.web.game_words import say
from service.web.openapi import schema_json
from service.web.pages.page_words import table
from service.app.users import short_id

USER_ID = re.compile(r"^u_[0-9a-f]{4,32}$")

ACRONYMS = {"vp": "VP"}


def field_label(name: str) -> str:
    """A person's label for an option name ("vp_target" -> "VP target")."""
    words = [ACRONYMS.get(w, w) for w in name.split("_")]
    first = words[0] if words[0] in ACRONYMS.values() else words[0].capitalize()
    return " ".join([first] + words[1:])


def option_label(game, name: str) -> str:
    """An option's label: the game's words for it in the page's language, else its name made readable."""
    label = table(game, "OPTION_LABELS", {}).get(name)
    return say(T(label)) if label else field_label(name)


def choice_label(game, option: str, choice) -> str:
    """How the form shows one choice of an option: its printed name in the page's language (the game's namer of
    that option's data ids, CHOICE_NAMES), or the value itself."""
    namer = table(game, "CHOICE_NAMES", {}).get(option)
    return say(namer(choice)) if namer else str(choice)


def option_fields(game) -> list:
    """The game's options as form fields: [{name, key, kind, label, default, min, max, choices, optional}], each
    choice a (value submitted, label shown) pair."""
    out = []
    for name, prop in schema_json(game.options_schema)["properties"].items():
        kind = prop.get("type", "string")
        if kind == "array" and "enum" in prop.get("items", {}):
            kind, choices = "multi", prop["items"]["enum"]
        else:
            choices = prop.get("enum")
            kind = "choice" if choices else kind
        out.append({"name": name, "key": f"opt_{game.id}_{name}", "kind": kind, "label": option_label(game, name),
                    "default": prop.get("default"), "min": prop.get("minimum"), "max": prop.get("maximum"),
                    "choices": [(c, choice_label(game, name, c)) for c in choices or []],
                    "optional": bool(prop.get("nullable"))})
    return out


def typed_value(field: dict, raw: str):
    """A form string as the type its schema asks for (a whole number, a number, JSON), or a 400."""
    try:
        if field["kind"] == "integer":
            return int(raw)
        if field["kind"] == "number":
            return float(raw)
        if field["kind"] == "object":
            return json.loads(raw)
    except ValueError:
        what = {"integer": "a whole number", "number": "a number", "object": "JSON"}[field["kind"]]
        raise ApiError(400, "invalid_form", f"{field['label']} must be {what}, not {raw!r}") from None
    return raw


def parse_options(game, form) -> dict:
    """The options dict from the new-match form (blank fields keep the game's defaults)."""
    options = {}
    for f in option_fields(game):
        if f["kind"] == "multi":
            picked = form.getlist(f["key"])
            if picked:
                options[f["name"]] = picked
        elif f["kind"] == "boolean":
            options[f["name"]] = f["key"] in form
        else:
            raw = (form.get(f["key"]) or "").strip()
            if raw:
                options[f["name"]] = typed_value(f, raw)
    return options


def field_errors(messages, labels: dict | None = None) -> str:
    """Marshmallow field errors as one readable line ("Max rounds: Must be at most 60.")."""
    labels = labels or {}
    if not isinstance(messages, dict):
        return " ".join(map(str, messages)) if isinstance(messages, list) else str(messages)
    return "; ".join(f"{labels.get(key, field_label(str(key)))}: {field_errors(value)}"
                     for key, value in messages.items())


def resolve_invites(users, raw: str) -> list:
    """The user ids named in the invite field: each entry a display name, "Name #short-id" (as the
    suggestions write it) or an id; a 400 naming the entries that match nobody or more than one player."""
    ids, problems, entries = [], [], []
    for entry in (e.strip() for e in re.split(r"[,\n]", raw)):
        if not entry:
            continue
        if USER_ID.match(entry) and not users.missing([entry]):
            ids.append(entry)
            continue
        name, _, short = entry.rpartition(" #") if " #" in entry else (entry, "", "")
        found = [uid for uid in users.with_name(name.strip()) if short_id(uid).startswith(short.strip())]
        if len(found) == 1:
            ids.append(found[0])
        elif not found:
            problems.append(f"nobody is called {entry!r}")
            entries.append(entry)
        else:
            options = ", ".join(f"{name.strip()} #{short_id(uid)}" for uid in found)
            problems.append(f"several players are called {name.strip()!r}: pick one of {options}")
            entries.append(entry)
    if problems:
        raise ApiError(400, "unknown_players", "; ".join(problems), entries=entries)
    return list(dict.fromkeys(ids))


def bots_from_form(raw: str) -> list:
    """Bot user ids from the lobby's comma-separated bot levels ("greedy, mcts")."""
    levels = [level.lower() for level in re.split(r"[\s,]+", raw) if level]
    unknown = [level for level in levels if level not in BOT_NAMES]
    if unknown:
        raise ApiError(400, "invalid_form", f"bots are {', '.join(BOT_NAMES)}; not {', '.join(unknown)}")
    if len(levels) > 15:
        raise ApiError(400, "invalid_form", "at most 15 bots")
    return seat_bots(levels)
