"""Moving an active match to a newer rules version: `rules_upgraded {from, to}`, decided here (pure).

Two ways lead to it: an operator's `turnstream rules migrate` (decide_upgrade), or the seated players' vote, run
like a dispute: a seated player proposes (`rules_upgrade_proposed`, with its deadline), every other seated player
who is neither a bot nor has conceded votes (`rules_upgrade_voted`); unanimous acceptance appends `rules_upgraded`,
any rejection `rules_upgrade_rejected`, the deadline passing first `rules_upgrade_expired`. Nobody left to vote
(the proposer plays bots alone): the proposal is accepted at once. Unlike a dispute it does not pause the match.

An upgrade is refused unless the version is installed, newer than the match's, the match is active and not paused
by a dispute, and the match's effective history folds under the new rules: exactly what the fold will do at the
event (initial_state, then every effective game event upcast and evolved), done here first; any exception is the
refusal, with its message. A history that would already have ended the game under the new rules is refused too
(the match would be over without a `match_finished`). Every refusal cites a `platform:rules.*` rule.
"""
from __future__ import annotations

import copy

from . import platform_events as pe
from .aggregate import game_event, new_event
from .bot_seats import is_bot
from .concede import check_not_conceded
from .contract import ALL
from .disputes import deadline_passed
from .errors import RuleViolation
from .text import T

UNKNOWN = "platform:rules.unknown-version"
NOT_NEWER = "platform:rules.not-newer"
NOT_ACTIVE = "platform:rules.not-active"
PAUSED = "platform:rules.dispute-open"
DOES_NOT_FOLD = "platform:rules.does-not-fold"
WOULD_FINISH = "platform:rules.would-finish"
PROPOSAL_OPEN = "platform:rules.proposal-open"
NO_PROPOSAL = "platform:rules.no-proposal"
OWN_PROPOSAL = "platform:rules.own-proposal"
NOT_A_VOTER = "platform:rules.not-a-voter"
ALREADY_VOTED = "platform:rules.already-voted"
NOT_DUE = "platform:rules.not-due"

OPEN, ACCEPTED, REJECTED, EXPIRED = "open", "accepted", "rejected", "expired"


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def installed_versions(m, games: dict) -> tuple:
    """The rules versions this installation can judge the match's game by, oldest first."""
    game = games.get(m.game_id) or m.game
    return tuple(getattr(game, "rules_versions", ()) or ())


def newer_versions(m, games: dict) -> list:
    """The installed versions newer than the match's own (what it may move to)."""
    versions = installed_versions(m, games)
    current = m.game.rules_version
    return list(versions[versions.index(current) + 1:]) if current in versions else []


def target_rules(m, to_version: str, games: dict):
    """The game at `to_version`, or raise the rule that forbids moving the match there (the fold not checked)."""
    if m.status == "finished":
        raise RuleViolation(NOT_ACTIVE, T("the match has finished: it keeps the rules it was played under"))
    if m.status != "active":
        raise RuleViolation(NOT_ACTIVE, T("the match is {status}, not active: only a running match changes rules",
                                          status=m.status))
    if m.open_dispute():
        raise RuleViolation(PAUSED, T("a dispute is open: the rules change once it is resolved"))
    current = m.game.rules_version
    versions = installed_versions(m, games)
    title = getattr(m.game, "title", m.game_id)
    if to_version not in versions:
        raise RuleViolation(UNKNOWN, T("{title} has no rules version {to_version} here (installed: {value})",
                                       title=title, to_version=repr(to_version), value=', '.join(versions) or 'none'))
    if current not in versions or versions.index(to_version) <= versions.index(current):
        raise RuleViolation(NOT_NEWER, T("the match is judged by rules {current}; {to_version} is not newer",
                                         current=current, to_version=to_version))
    try:
        return games[m.game_id].at(to_version)
    except (ValueError, ImportError, OSError) as exc:
        raise RuleViolation(UNKNOWN, T("rules {to_version} of {title} cannot be loaded: {one_line}",
                                       to_version=to_version, title=title, one_line=_one_line(exc))) from None


def refold(m, game) -> dict:
    """The match's game state under `game`: its initial state and every effective game event, upcast and evolved,
    on copies (the match and its envelopes are left as they are). Raises whatever the new rules raise, with the
    version of the event that failed in the message."""
    try:
        state = game.initial_state(list(m.players), copy.deepcopy(m.options))
    except Exception as exc:  # the new rules cannot even set the table for these players and options
        raise ValueError(f"its initial state fails: {_one_line(exc)}") from exc
    effective = set(m.effective)
    for env in m.envelopes_since(1):
        if env["scope"] != pe.GAME or env["version"] not in effective:
            continue
        try:
            state = game.evolve(state, copy.deepcopy(game_event(game, env)))
        except Exception as exc:  # any failure to fold is the reason for the refusal
            raise ValueError(f"{env['type']} at version {env['version']} fails: {_one_line(exc)}") from exc
    return state


def check_upgrade(m, to_version: str, games: dict):
    """The game at `to_version` once the match's history has been folded under it, or raise the refusal."""
    game = target_rules(m, to_version, games)
    try:
        state = refold(m, game)
        over = game.result(state)
        game.active_players(state)
        game.view(state, ALL)
    except Exception as exc:  # a refold, result, active_players or view that fails: the history does not fold
        raise RuleViolation(DOES_NOT_FOLD, T("the history of this match does not fold under rules {to_version}: {value}", to_version=to_version, value=exc if isinstance(exc, ValueError) else _one_line(exc))) from None
    if over is not None:
        raise RuleViolation(WOULD_FINISH, T("under rules {to_version} this match would already be over: it keeps its rules", to_version=to_version))
    return game


def upgraded(m, to_version: str, **extra) -> dict:
    """The `rules_upgraded` event moving `m` to `to_version`."""
    return new_event(pe.RULES_UPGRADED, **{"from": m.game.rules_version, "to": to_version}, **extra)


def decide_upgrade(m, to_version: str, games: dict) -> list[dict]:
    """`rules_upgraded {from, to}` (the operator's migration), or raise the platform:rules.* refusal."""
    check_upgrade(m, to_version, games)
    return [upgraded(m, to_version)]


# -- the players' way: a proposal and a unanimous vote ----------------------------------------------
def voters(m, proposal: dict) -> list:
    """Who votes on a proposal: every seated player but its proposer, the bots and those who conceded."""
    return [p for p in m.players if p != proposal["by"] and not is_bot(p) and p not in m.conceded]


def open_proposal(m) -> dict | None:
    """The open rules-upgrade proposal of a match, if any."""
    p = m.rules_proposal
    return p if p is not None and p["status"] == OPEN else None


def decide_propose(m, player: str, to_version: str, games: dict, deadline: str | None = None) -> list[dict]:
    """`rules_upgrade_proposed` by a seated `player` (the caller checks the seat), open until `deadline` (ISO-8601
    UTC, handed in by the caller; none: until every vote); with nobody else to vote, `rules_upgraded` at once."""
    if open_proposal(m) is not None:
        raise RuleViolation(PROPOSAL_OPEN, T("a move to rules {to} is already being voted on",
                                             to=m.rules_proposal['to']))
    check_not_conceded(m, player)
    check_upgrade(m, to_version, games)
    proposal = f"r{m.version + 1}"
    when = {"deadline": deadline} if deadline else {}
    events = [new_event(pe.RULES_UPGRADE_PROPOSED, proposal=proposal, by=player,
                        **{"from": m.game.rules_version, "to": to_version}, **when)]
    if not voters(m, {"by": player}):
        events.append(upgraded(m, to_version, proposal=proposal))
    return events


def decide_vote(m, player: str, accept: bool, games: dict) -> list[dict]:
    """`rules_upgrade_voted`, plus the outcome when this vote settles it: any rejection rejects; the last
    acceptance upgrades, unless the history no longer folds under the proposed rules (then it is rejected,
    saying why)."""
    proposal = open_proposal(m)
    if proposal is None:
        raise RuleViolation(NO_PROPOSAL, T("no move to other rules is being voted on in this match"))
    if m.status != "active":
        raise RuleViolation(NOT_ACTIVE, T("the match is {status}: the proposal can no longer be carried out",
                                          status=m.status))
    if m.open_dispute():
        raise RuleViolation(PAUSED, T("a dispute is open: vote on the rules once it is resolved"))
    if player == proposal["by"]:
        raise RuleViolation(OWN_PROPOSAL, T("you proposed these rules; the other players vote"))
    check_not_conceded(m, player)
    if player not in voters(m, proposal):
        raise RuleViolation(NOT_A_VOTER, T("only the seated players vote on the rules"))
    if player in proposal["votes"]:
        raise RuleViolation(ALREADY_VOTED, T("you have already voted on these rules"))
    pid = proposal["id"]
    events = [new_event(pe.RULES_UPGRADE_VOTED, proposal=pid, player=player, accept=bool(accept))]
    if not accept:
        return events + [new_event(pe.RULES_UPGRADE_REJECTED, proposal=pid, cause="vote")]
    accepted = {p for p, yes in proposal["votes"].items() if yes} | {player}
    if not all(p in accepted for p in voters(m, proposal)):
        return events
    try:
        check_upgrade(m, proposal["to"], games)
    except RuleViolation as exc:  # the history grew since the proposal and no longer folds under it
        return events + [new_event(pe.RULES_UPGRADE_REJECTED, proposal=pid, cause=exc.rule_id, reason=str(exc.message))]
    return events + [upgraded(m, proposal["to"], proposal=pid)]


def expiry_due(m, proposal_id: str, now: str) -> bool:
    """True if proposal `proposal_id` is still open in a running match and its deadline has passed at `now`."""
    p = m.rules_proposal
    return m.status == "active" and p is not None and p["id"] == proposal_id and deadline_passed(p, now)


def decide_expire(m, proposal_id: str, now: str) -> list[dict]:
    """`rules_upgrade_expired` once the proposal's deadline has passed without every vote (the match keeps its
    rules; a new proposal may follow)."""
    if not expiry_due(m, proposal_id, now):
        p = open_proposal(m)
        if p is None or p["id"] != proposal_id:
            raise RuleViolation(NO_PROPOSAL, T("no move to other rules is being voted on in this match"))
        raise RuleViolation(NOT_DUE, T("the vote on rules {to} is still open", to=p["to"]))
    return [new_event(pe.RULES_UPGRADE_EXPIRED, proposal=proposal_id)]
