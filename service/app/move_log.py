"""The move log's sentences: each (redacted) event in words, the game's own or the platform's (a `Text`, said in
the reader's language by the pages: service/web/game_words.py)."""
from __future__ import annotations

from domain.engine import platform_events as pe
from domain.engine.text import T, Text, joined, name as printed
from service.app.standings import names_sentence


def _vote(accept) -> Text:
    return T("accept") if accept else T("reject")


def _platform_sentence(env: dict, name, game) -> Text:
    d = env.get("data") or {}
    t = env["type"]
    if t == pe.MATCH_CREATED:
        return T("{by} created a {game} match for {seats} players", by=name(env.get("actor")),
                 game=printed(getattr(game, "title", d.get("game"))), seats=d.get("seats"))
    if t == pe.PLAYER_JOINED:
        return T("{player} joined", player=name(d.get("player")))
    if t == pe.MATCH_STARTED:
        return T("the match started with {players}", players=joined([name(p) for p in d.get("players", [])]))
    if t == pe.MOVES_REVERTED:
        span = f"v{d.get('from_version')}-v{d.get('to_version')}"
        if d.get("cause") == "dispute":
            return T("the dispute was upheld: the moves of {span} were overturned", span=span)
        return T("{player} took back their last move ({span})", player=name(env.get("actor")), span=span)
    if t == pe.DISPUTE_OPENED:
        return T("{by} disputed the move v{version}: {reason}", by=name(d.get("by")), version=d.get("version"),
                 reason=d.get("reason"))
    if t == pe.DISPUTE_VOTED:
        return T("{player} voted to {vote} the dispute", player=name(d.get("player")), vote=_vote(d.get("accept")))
    if t == pe.DISPUTE_RESOLVED:
        status = {"accepted": T("accepted"), "rejected": T("rejected"), "expired": T("expired")}.get(
            d.get("status"), d.get("status"))
        if d.get("cause") == "deadline":
            return T("the dispute was {status} (its deadline passed)", status=status)
        return T("the dispute was {status}", status=status)
    if t == pe.TURN_TIMED_OUT:
        return T("{player}'s turn timed out", player=name(d.get("player")))
    if t == pe.PLAYER_CONCEDED:
        return T("{player} conceded", player=name(d.get("player")))
    if t == pe.STAND_IN_STARTED and d.get("conceded"):
        return T("the {bot} bot plays {player}'s seat from now on", bot=d.get("bot"), player=name(d.get("player")))
    if t == pe.STAND_IN_STARTED:
        return T("{player} timed out {turns} turns in a row: the {bot} bot plays for them until they move again",
                 player=name(d.get("player")), turns=d.get("after_timeouts"), bot=d.get("bot"))
    if t == pe.STAND_IN_ENDED:
        return T("{player} is back and plays their own seat again", player=name(d.get("player")))
    if t == pe.MATCH_FINISHED:
        winners = (d.get("result") or {}).get("winners") or []
        if not winners:
            return T("the match is over: nobody won")
        return T("the match is over: {winners} won", winners=names_sentence([name(p) for p in winners]))
    if t == pe.INVITATION_ACCEPTED:
        return T("{player} accepted the invitation", player=name(d.get("player")))
    if t == pe.INVITATION_DECLINED:
        return T("{player} declined the invitation", player=name(d.get("player")))
    if t == pe.MATCH_CANCELLED:
        return T("the match was cancelled before it started")
    if t == pe.CHAT_POSTED:  # plain text: whoever renders it escapes it like any other sentence
        return T("{player} said: \u201c{text}\u201d", player=name(env.get("actor")), text=str(d.get("text", "")))
    if t == pe.REMATCH_CREATED:
        return T("{by} asked for a rematch ({match})", by=name(d.get("by")), match=d.get("match"))
    if t == pe.RULES_UPGRADED:
        return T("the match moved to rules {to} (from {old}): the moves after this are judged by them",
                 to=d.get("to"), old=d.get("from"))
    if t == pe.RULES_UPGRADE_PROPOSED:
        return T("{by} proposed moving the match to rules {to} (from {old})", by=name(d.get("by")), to=d.get("to"),
                 old=d.get("from"))
    if t == pe.RULES_UPGRADE_VOTED:
        return T("{player} voted to {vote} the new rules", player=name(d.get("player")), vote=_vote(d.get("accept")))
    if t == pe.RULES_UPGRADE_REJECTED:
        if d.get("reason"):
            return T("the move to other rules was rejected: {reason}; the match keeps its rules",
                     reason=d.get("reason"))
        return T("the move to other rules was rejected; the match keeps its rules")
    if t == pe.RULES_UPGRADE_EXPIRED:
        return T("the vote on other rules ran out of time: the match keeps its rules")
    if t == pe.SEED_REVEALED:
        return T("the random seed was revealed ({seed}...): every draw can now be audited", seed=str(d.get("seed"))[:16])
    return Text(t.replace("_", " "))


def describe(game, env: dict, name) -> str:
    """One readable sentence for a (redacted) envelope: the game's describe, or the platform's own."""
    if env["scope"] == pe.PLATFORM:
        return _platform_sentence(env, name, game)
    if env.get("data") is None:
        return T("{player}: a hidden {event}", player=name(env.get("actor")), event=env["type"].replace("_", " "))
    try:
        return game.describe({"type": env["type"], "data": env["data"]}, name)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return T("{event} by {player}", event=env["type"].replace("_", " "), player=name(env.get("actor")))
