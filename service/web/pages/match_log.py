"""The match page's move log and chat: readable sentences, times, why a move was reverted, which moves
may be disputed, and the chat messages (chat is shown beside the log, never in it)."""
from __future__ import annotations

from flask_babel import gettext

from domain.engine import platform_events as pe
from domain.engine import rules_upgrade
from domain.engine.commands import same_command

from service.app.move_log import describe
from service.web.game_words import say

LOG_LIMIT = 300
CHAT_LIMIT = 200
TAKEBACK, DISPUTE = "takeback", "dispute"
ROUNDS_AFTER = 12  # a log of more commands than this is grouped by round


def sentence(game, env: dict, name, written=()) -> str:
    """One readable sentence for a (redacted) envelope, capitalised and closed with a full stop; a sentence that
    opens with one of the `written` display names keeps it as its player wrote it ("tomas", not "Tomas")."""
    text = say(describe(game, env, name)).strip() or env["type"].replace("_", " ")
    if not any(n and text.startswith(n) for n in written):
        text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def latest(match, count: int) -> list:
    """The match's last `count` envelopes, also those before the replay snapshot it was loaded from."""
    try:
        return match.envelopes_since(max(1, match.version - count + 1))
    except LookupError:  # loaded from a snapshot without a history reader: what the process holds
        return match.envelopes[-count:]


def revert_causes(envelopes: list) -> dict:
    """{reverted game event version: "takeback" | "dispute"} from the `moves_reverted` events."""
    causes = {}
    for env in envelopes:
        if env["type"] == pe.MOVES_REVERTED and env["scope"] == pe.PLATFORM:
            data = env.get("data") or {}
            cause = DISPUTE if data.get("cause") == DISPUTE else TAKEBACK
            for v in data.get("reverted") or range(data.get("from_version", 0), data.get("to_version", -1) + 1):
                causes[v] = cause
    return causes


def may_dispute(match, viewer) -> bool:
    """Whether the viewer may open a dispute now (seated, the match running, no dispute open)."""
    return bool(viewer) and match.status == "active" and match.open_dispute() is None and len(match.players) > 1


def log_entries(match, viewer, names: dict) -> list:
    """The newest events first: {version, text, actor, at, type, revert, disputable} for the viewer.

    Chat is left out (it has its own panel); the platform's `match_finished` is left out when a game
    event of the same command already told the end (so the finish is logged once)."""
    def name(pid):
        return names.get(pid, pid) if pid else "someone"
    written = [str(n) for n in names.values()]
    envelopes = latest(match, LOG_LIMIT)
    effective = set(match.effective)
    causes = revert_causes(envelopes)
    disputing = may_dispute(match, viewer)
    rounds = rounds_of(envelopes)
    out = []
    for i in range(len(envelopes) - 1, -1, -1):
        env = envelopes[i]
        before = envelopes[i - 1] if i else None
        if env["type"] == pe.CHAT_POSTED:
            continue
        if env["type"] == pe.MATCH_FINISHED and before is not None and before["scope"] == pe.GAME \
                and same_command(before, env):
            continue
        game_event = env["scope"] == pe.GAME
        reverted = game_event and env["version"] not in effective
        first_of_command = before is None or before["scope"] != pe.GAME or not same_command(before, env)
        out.append({"version": env["version"], "text": sentence(match.game, match.redact(env, viewer), name, written),
                    "actor": env.get("actor"), "at": env.get("at"), "type": env["type"], "scope": env["scope"],
                    "revert": causes.get(env["version"], TAKEBACK) if reverted else None,
                    "revert_cause": (env.get("data") or {}).get("cause") if env["type"] == pe.MOVES_REVERTED else None,
                    "disputable": disputing and game_event and not reverted and env.get("actor") is not None
                    and first_of_command, "round": rounds.get(env["version"]),
                    "command": (env.get("actor"), env.get("cmd"), env.get("at"))})
    return out


def rounds_of(envelopes: list) -> dict:
    """{version: the round it was played in}, from the games' events that carry a `round` (public)."""
    out, current = {}, None
    for env in envelopes:
        number = (env.get("data") or {}).get("round") if env["scope"] == pe.GAME else None
        if isinstance(number, int) and not isinstance(number, bool):
            current = number
        out[env["version"]] = current
    return out


def commands(entries: list, names: dict) -> list:
    """The log as one entry per command, newest first: its headline event's words (the first that says what the
    player did: "Ann commanded…", not "Ann's Residence went to the Forum") on its first event's version, and the
    command's other events folded under it (`events`, oldest first)."""
    runs = []
    for e in reversed(entries):  # oldest first
        if runs and e["command"] == runs[-1][-1]["command"]:
            runs[-1].append(e)
        else:
            runs.append([e])
    out = []
    for run in runs:
        actor = names.get(run[0]["actor"], run[0]["actor"]) if run[0]["actor"] else None
        head = next((e for e in run if actor and e["text"].startswith(f"{actor} ")), run[0])
        out.append(dict(run[0], text=head["text"], type=head["type"], events=[e for e in run if e is not head]))
    return out[::-1]


def log_by_round(entries: list, names: dict) -> list:
    """The commands grouped by round, newest first: [{"round", "entries", "open"}]; a short log is one group."""
    rows = commands(entries, names)
    if len(rows) <= ROUNDS_AFTER:
        return [{"round": None, "entries": rows, "open": True}]
    groups = []
    for row in rows:
        if not groups or groups[-1]["round"] != row["round"]:
            groups.append({"round": row["round"], "entries": [], "open": not groups})
        groups[-1]["entries"].append(row)
    return groups


def chat_messages(match, names: dict) -> list:
    """The latest chat messages, oldest first: {version, by, name, at, text} (escaped where rendered)."""
    out = []
    for env in latest(match, LOG_LIMIT * 4):
        if env["type"] == pe.CHAT_POSTED:
            by = env.get("actor")
            out.append({"version": env["version"], "by": by, "name": names.get(by, by or "someone"),
                        "at": env.get("at"), "text": (env.get("data") or {}).get("text", "")})
    return out[-CHAT_LIMIT:]


def dispute_vote_note(match, voter: str, names: dict) -> str | None:
    """The inbox line of an open dispute waiting for `voter`: "Ann disputes Bob's move: vote"."""
    dispute = match.open_dispute()
    if dispute is None:
        return None
    disputed = next(iter(match.envelopes_since(dispute["version"])), {}) if dispute["version"] <= match.version else {}
    by, mover = dispute["by"], disputed.get("actor")
    if mover == voter:
        return gettext("%(by)s disputes your move: vote", by=names.get(by, by))
    if mover == by:
        return gettext("%(by)s disputes their own move: vote", by=names.get(by, by))
    return gettext("%(by)s disputes %(mover)s's move: vote", by=names.get(by, by),
                   mover=names.get(mover) or gettext("someone"))


def rules_vote_note(match, voter: str, names: dict) -> str | None:
    """The inbox line of an open rules proposal waiting for `voter`: "Ann proposes rules 2027.01: vote"."""
    proposal = rules_upgrade.open_proposal(match)
    if proposal is None:
        return None
    return gettext("%(by)s proposes rules %(version)s: vote", by=names.get(proposal["by"], proposal["by"]),
                   version=proposal["to"])
