"""The match page's move log and chat: readable sentences, times, why a move was reverted, which moves
may be disputed, and the chat messages (chat is shown beside the log, never in it)."""
from __future__ import annotations

from domain.engine import platform_events as pe
from domain.engine.commands import same_command

from service.app.move_log import describe
from service.web.game_words import say

LOG_LIMIT = 300
CHAT_LIMIT = 200
TAKEBACK, DISPUTE = "takeback", "dispute"


def sentence(game, env: dict, name) -> str:
    """One readable sentence for a (redacted) envelope, capitalised and closed with a full stop."""
    text = say(describe(game, env, name)).strip() or env["type"].replace("_", " ")
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
    envelopes = latest(match, LOG_LIMIT)
    effective = set(match.effective)
    causes = revert_causes(envelopes)
    disputing = may_dispute(match, viewer)
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
        out.append({"version": env["version"], "text": sentence(match.game, match.redact(env, viewer), name),
                    "actor": env.get("actor"), "at": env.get("at"), "type": env["type"], "scope": env["scope"],
                    "revert": causes.get(env["version"], TAKEBACK) if reverted else None,
                    "revert_cause": (env.get("data") or {}).get("cause") if env["type"] == pe.MOVES_REVERTED else None,
                    "disputable": disputing and game_event and not reverted and env.get("actor") is not None
                    and first_of_command})
    return out


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
    whose = "your" if mover == voter else ("their own" if mover == by else f"{names.get(mover, 'someone')}'s")
    return f"{names.get(by, by)} disputes {whose} move: vote"
