"""The move log's sentences: each (redacted) event in words, the game's own or the platform's."""
from __future__ import annotations

from domain.engine import platform_events as pe
from service.app.standings import names_sentence


def _platform_sentence(env: dict, name, game) -> str:
    d = env.get("data") or {}
    t = env["type"]
    if t == pe.MATCH_CREATED:
        return f"{name(env.get('actor'))} created a {getattr(game, 'title', d.get('game'))} match for {d.get('seats')} players"
    if t == pe.PLAYER_JOINED:
        return f"{name(d.get('player'))} joined"
    if t == pe.MATCH_STARTED:
        return "the match started with " + ", ".join(name(p) for p in d.get("players", []))
    if t == pe.MOVES_REVERTED:
        span = f"v{d.get('from_version')}-v{d.get('to_version')}"
        if d.get("cause") == "dispute":
            return f"the dispute was upheld: the moves of {span} were overturned"
        return f"{name(env.get('actor'))} took back their last move ({span})"
    if t == pe.DISPUTE_OPENED:
        return f"{name(d.get('by'))} disputed the move v{d.get('version')}: {d.get('reason')}"
    if t == pe.DISPUTE_VOTED:
        return f"{name(d.get('player'))} voted to {'accept' if d.get('accept') else 'reject'} the dispute"
    if t == pe.DISPUTE_RESOLVED:
        why = " (its deadline passed)" if d.get("cause") == "deadline" else ""
        return f"the dispute was {d.get('status')}{why}"
    if t == pe.TURN_TIMED_OUT:
        return f"{name(d.get('player'))}'s turn timed out"
    if t == pe.PLAYER_CONCEDED:
        return f"{name(d.get('player'))} conceded"
    if t == pe.STAND_IN_STARTED and d.get("conceded"):
        return f"the {d.get('bot')} bot plays {name(d.get('player'))}'s seat from now on"
    if t == pe.STAND_IN_STARTED:
        return (f"{name(d.get('player'))} timed out {d.get('after_timeouts')} turns in a row: the {d.get('bot')} bot "
                f"plays for them until they move again")
    if t == pe.STAND_IN_ENDED:
        return f"{name(d.get('player'))} is back and plays their own seat again"
    if t == pe.MATCH_FINISHED:
        winners = (d.get("result") or {}).get("winners") or []
        return "the match is over: " + (f"{names_sentence([name(p) for p in winners])} won" if winners else "nobody won")
    if t == pe.INVITATION_ACCEPTED:
        return f"{name(d.get('player'))} accepted the invitation"
    if t == pe.INVITATION_DECLINED:
        return f"{name(d.get('player'))} declined the invitation"
    if t == pe.MATCH_CANCELLED:
        return "the match was cancelled before it started"
    if t == pe.CHAT_POSTED:  # plain text: whoever renders it escapes it like any other sentence
        return f"{name(env.get('actor'))} said: \u201c{str(d.get('text', ''))}\u201d"
    if t == pe.REMATCH_CREATED:
        return f"{name(d.get('by'))} asked for a rematch ({d.get('match')})"
    if t == pe.RULES_UPGRADED:
        return (f"the match moved to rules {d.get('to')} (from {d.get('from')}): the moves after this are judged "
                f"by them")
    if t == pe.RULES_UPGRADE_PROPOSED:
        return f"{name(d.get('by'))} proposed moving the match to rules {d.get('to')} (from {d.get('from')})"
    if t == pe.RULES_UPGRADE_VOTED:
        return f"{name(d.get('player'))} voted to {'accept' if d.get('accept') else 'reject'} the new rules"
    if t == pe.RULES_UPGRADE_REJECTED:
        why = f": {d.get('reason')}" if d.get("reason") else ""
        return f"the move to other rules was rejected{why}; the match keeps its rules"
    if t == pe.SEED_REVEALED:
        return f"the random seed was revealed ({str(d.get('seed'))[:16]}...): every draw can now be audited"
    return t.replace("_", " ")


def describe(game, env: dict, name) -> str:
    """One readable sentence for a (redacted) envelope: the game's describe, or the platform's own."""
    if env["scope"] == pe.PLATFORM:
        return _platform_sentence(env, name, game)
    if env.get("data") is None:
        return f"{name(env.get('actor'))}: a hidden {env['type'].replace('_', ' ')}"
    try:
        return game.describe({"type": env["type"], "data": env["data"]}, name)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return f"{env['type'].replace('_', ' ')} by {name(env.get('actor'))}"
