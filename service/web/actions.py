"""The legal commands as the page offers them: words from the game, the board place each acts on, groups."""
from __future__ import annotations

import json

from domain.engine.text import T
from service.web.boards import place_of
from service.web.game_words import say

GROUP_OPEN_LIMIT = 12  # a group with more buttons starts closed
KIND_OPEN_LIMIT = 24  # so do all groups of one command type with more buttons in all (say 4 exits x 8 ports)
_TRAILING = {"on", "to", "at", "from", "for", "via", "in", "with", "into", "the", "a", "an", "your", "of",
             "на", "в", "во", "к", "ко", "из", "с", "со", "за", "у", "от", "до", "по", "через", "для"}  # and Russian


def command_json(command: dict) -> str:
    """The exact JSON a button (and its board place) carries in `data-command`."""
    return json.dumps({"type": command["type"], "payload": command.get("payload") or {}}, sort_keys=True)


def command_words(game, state, command: dict, names: dict) -> str:
    """The game's own words for a legal command; a plain fallback for a game without describe_command."""
    describe = getattr(game, "describe_command", None)
    if describe is not None:
        try:
            text = describe(state, command, lambda pid: names.get(pid, T("a player")))
            if text:
                return say(text)  # in the page's language
        except Exception:  # a wording bug must not hide the action: fall back to the command's type
            pass
    return command["type"].replace("_", " ").capitalize()


def actions(game, state, view, commands: list, names: dict) -> list:
    """[{json, text, type, place, field}] for each legal command, in the game's order."""
    out = []
    for cmd in commands:
        where = place_of(game, view, cmd)
        out.append({"json": command_json(cmd), "text": command_words(game, state, cmd, names), "type": cmd["type"],
                    "place": where[0] if where else None, "field": where[1] if where else None,
                    "payload": cmd.get("payload") or {}})
    return out


def _common_words(texts: list) -> str:
    """The longest common word prefix of texts, without a dangling preposition or comma."""
    split = [t.split(" ") for t in texts]
    common = []
    for words in zip(*split):
        if len(set(words)) != 1:
            break
        common.append(words[0])
    while common and (common[-1].lower() in _TRAILING or common[-1].endswith(",")):
        common.pop()
    return " ".join(common)


def _group_key(action: dict) -> tuple:
    if action["field"]:
        rest = {k: v for k, v in action["payload"].items() if k != action["field"]}
        return action["type"], json.dumps(rest, sort_keys=True)
    return action["type"], ""


def action_groups(acts: list) -> list:
    """Actions grouped: the places one choice may go to (e.g. the cells of one building) form one group.

    Each group is {title, open, actions: [{json, text, label, place}]}; `label` is the full sentence and
    `text` what the button shows (the part after the group's title when the title says the rest)."""
    groups: dict = {}
    for act in acts:
        groups.setdefault(_group_key(act), []).append(act)
    per_kind: dict = {}
    for (kind, _rest), members in groups.items():
        per_kind[kind] = per_kind.get(kind, 0) + len(members)
    out = []
    for (kind, _rest), members in groups.items():
        texts = [a["text"] for a in members]
        title = _common_words(texts) if len(members) > 1 and members[0]["field"] else ""
        shown = []
        for a in members:
            short = a["text"][len(title):].strip(" ,") if title else a["text"]
            shown.append({"json": a["json"], "label": a["text"], "text": short or a["text"], "place": a["place"]})
        crowded = len(members) > GROUP_OPEN_LIMIT or (len(members) > 1 and per_kind[kind] > KIND_OPEN_LIMIT)
        out.append({"title": title or kind.replace("_", " ").capitalize(), "open": not crowded, "actions": shown})
    return out
