"""The match aggregate: folds a match's event envelopes into its state and decides platform commands.

An envelope is one stored event: {version, type, scope, actor, at, data, rng, cmd, prev, hash}.
`scope` is "platform" for the platform's events and "game" for the game module's. The game state is
the fold of the *effective* history: `moves_reverted {from_version}` drops every game event at or
after `from_version` from it (the stream itself only grows). The draw counter counts every draw
ever recorded, reverted or not, so a revert never re-rolls.

The game is the match's rules version (`match_created`'s, then each `rules_upgraded`'s: from that event on the
game state is the effective history folded again under the new version). Every game event reaches the game's
evolve and redact through the game's `upcast` (an older payload shape read as the current one); the stored
envelope is never changed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import platform_events as pe
from .bot_seats import is_bot
from .contract import ALL, unchanged
from .errors import RuleViolation
from .hashing import CHAIN_FORMAT, LEGACY_FORMAT
from .results import match_result
from .text import T


def new_event(type_: str, scope: str = pe.PLATFORM, **data) -> dict:
    """A pending event (before the store numbers and hashes it)."""
    return {"type": type_, "scope": scope, "data": data}


def game_event(game, env: dict) -> dict:
    """A stored game envelope as `game` reads it: {"type", "data"} upcast to the game's payload shape (a new
    event when the shape changed; the envelope itself is never touched)."""
    event = {"type": env["type"], "data": env["data"]}
    upcast = getattr(game, "upcast", unchanged)
    return event if upcast is unchanged else upcast(event)


@dataclass
class Match:
    """The folded state of one match."""

    id: str
    game: Any = None
    game_id: str = ""
    status: str = "new"  # invited | open -> active -> finished; invited -> cancelled on a decline
    seats: int = 0
    players: list = field(default_factory=list)
    options: dict = field(default_factory=dict)
    created_by: str | None = None
    commitment: str = ""
    chain: int = 1  # the hash chain format match_created declares (1: unsalted, before the field existed)
    version: int = 0
    head: str = "0" * 64
    draws: int = 0
    game_state: dict | None = None
    result: dict | None = None
    seed: str | None = None
    turn_deadline_hours: float | None = None
    replace_after_timeouts: int | None = None  # consecutive timeouts before a stand-in bot plays a seat
    timeouts: dict = field(default_factory=dict)  # player -> consecutive turn timeouts
    stand_ins: dict = field(default_factory=dict)  # player -> level of the bot standing in for them
    finished_at: str | None = None
    disputes: dict = field(default_factory=dict)
    invited: list = field(default_factory=list)  # seated players whose consent is still awaited
    rematch: str | None = None  # the id of this finished match's rematch, once asked for
    rules_proposal: dict | None = None  # the latest rules-upgrade proposal (replaced, never mutated: see _Checkpoint)
    conceded: list = field(default_factory=list)  # players who conceded, in order (concede.py)
    envelopes: list = field(default_factory=list)
    effective: list = field(default_factory=list)  # versions of the effective game events
    base: int = 0  # loaded from a snapshot at this version: `envelopes` starts at base + 1
    history: Any = field(default=None, repr=False, compare=False)  # (start, end) -> stored envelopes

    # -- folding -------------------------------------------------------------------------------
    def apply(self, env: dict, games: dict) -> None:
        """Apply one stored envelope (version must be the next one)."""
        self.envelopes.append(env)
        self.version = env["version"]
        self.head = env.get("hash", self.head)
        for draw in env.get("rng") or ():
            self.draws = max(self.draws, draw[0] + 1)
        if self.timeouts.get(env.get("actor")):
            self.timeouts = {**self.timeouts, env["actor"]: 0}  # replaced, never mutated: see _Checkpoint
        if env["scope"] == pe.GAME:
            self.effective.append(env["version"])
            event = {"type": env["type"], "data": env["data"]}
            upcast = getattr(self.game, "upcast", unchanged)
            self.game_state = self.game.evolve(self.game_state, event if upcast is unchanged else upcast(event))
            return
        handler = _PLATFORM_APPLY.get(env["type"])
        if handler:
            handler(self, env["data"], games)
        if env["type"] == pe.MATCH_FINISHED:
            self.finished_at = env.get("at")

    def _refold_game(self) -> None:
        """Recompute the game state from the effective game events."""
        state = self.game.initial_state(list(self.players), dict(self.options))
        effective = self._effective_set
        for env in self.envelopes_since(1):
            if env["scope"] == pe.GAME and env["version"] in effective:
                state = self.game.evolve(state, game_event(self.game, env))
        self.game_state = state

    def envelopes_since(self, start: int) -> list:
        """The envelopes with version >= start; those before a snapshot's base come from `history`."""
        if start > self.base:
            return self.envelopes[start - self.base - 1:]
        if self.history is None:
            raise LookupError(f"match {self.id} was loaded from a snapshot at {self.base} without a history reader")
        return list(self.history(start, self.base)) + self.envelopes

    # -- questions -----------------------------------------------------------------------------
    @property
    def finished(self) -> bool:
        """True once the match has finished."""
        return self.status == "finished"

    def open_dispute(self) -> dict | None:
        """The open dispute, if any (while one is open the match is paused)."""
        for d in self.disputes.values():
            if d["status"] == "open":
                return d
        return None

    def active_players(self) -> list:
        """Who must act now (nobody while paused by a dispute or when not active)."""
        if self.status != "active" or self.open_dispute():
            return []
        return list(self.game.active_players(self.game_state))

    def viewer_for(self, user_id: str | None) -> str | None:
        """Whom a user sees the match as: themself when seated, else a spectator (None)."""
        return user_id if user_id is not None and user_id in self.players else None

    def view(self, viewer: str | None) -> dict:
        """The game state as `viewer` may see it; everything once finished."""
        if self.game_state is None:
            return {}
        return self.game.view(self.game_state, ALL if self.finished else viewer)

    def redact(self, env: dict, viewer: str | None, finished: bool | None = None) -> dict | None:
        """The envelope as `viewer` may see it (public fields only: no hash-chain internals hidden); `finished`:
        as the finished match shows it (everything), whatever version this one is folded to.

        The one place every read path redacts: game events through the game's `redact`, platform events
        through the platform's own (`_PLATFORM_REDACT`: the game's secret options in match_created)."""
        out = {"version": env["version"], "type": env["type"], "scope": env["scope"],
               "actor": env.get("actor"), "at": env.get("at"), "data": env["data"]}
        event = game_event(self.game, env) if env["scope"] == pe.GAME else {"type": env["type"], "data": env["data"]}
        out["data"] = event["data"]  # a game event in the current payload shape (upcast)
        if self.finished if finished is None else finished:
            out["rng"] = env.get("rng")
            return out
        if env["scope"] == pe.GAME:
            red = self.game.redact(event, viewer)
        else:
            red = _PLATFORM_REDACT.get(env["type"], _public)(self, event, viewer)
        if red is None:
            out["data"] = None
            out["redacted"] = True
            return out
        if red["data"] != event["data"]:
            out["redacted"] = True
        out["data"] = red["data"]
        return out

    @property
    def _effective_set(self) -> set:
        return set(self.effective)


def _apply_created(m: Match, d: dict, games: dict) -> None:
    m.game_id = d["game"]
    m.game = games[d["game"]].created_under(d.get("rules_version"))  # judged for ever by these rules
    m.seats = d["seats"]
    m.players = list(d["players"])
    m.options = dict(d["options"])
    m.created_by = d.get("created_by")
    m.commitment = d["commitment"]
    m.chain = d.get("chain", LEGACY_FORMAT)
    m.turn_deadline_hours = d.get("turn_deadline_hours")
    m.replace_after_timeouts = d.get("replace_after_timeouts")
    m.invited = list(d.get("invited") or ())  # absent before invitations existed: nobody to wait for
    m.status = "invited" if m.invited else "open"


def _apply_invitation_answered(m: Match, d: dict, games: dict) -> None:
    m.invited = [p for p in m.invited if p != d["player"]]  # a new list: a cached fold rolls back by field


def _apply_cancelled(m: Match, d: dict, games: dict) -> None:
    m.status = "cancelled"


def _apply_rematch_created(m: Match, d: dict, games: dict) -> None:
    m.rematch = d["match"]


def _apply_joined(m: Match, d: dict, games: dict) -> None:
    m.players.append(d["player"])


def _apply_started(m: Match, d: dict, games: dict) -> None:
    m.players = list(d["players"])
    m.status = "active"
    m.game_state = m.game.initial_state(list(m.players), dict(m.options))


def _apply_reverted(m: Match, d: dict, games: dict) -> None:
    m.effective = [v for v in m.effective if v < d["from_version"]]
    m._refold_game()


def _apply_dispute_opened(m: Match, d: dict, games: dict) -> None:
    m.disputes[d["dispute"]] = {"id": d["dispute"], "version": d["version"], "reason": d["reason"],
                                "by": d["by"], "deadline": d.get("deadline"), "votes": {}, "status": "open"}


def _apply_dispute_voted(m: Match, d: dict, games: dict) -> None:
    m.disputes[d["dispute"]]["votes"][d["player"]] = d["accept"]


def _apply_dispute_resolved(m: Match, d: dict, games: dict) -> None:
    m.disputes[d["dispute"]]["status"] = d["status"]


def _apply_timed_out(m: Match, d: dict, games: dict) -> None:
    m.timeouts = {**m.timeouts, d["player"]: m.timeouts.get(d["player"], 0) + 1}


def _apply_stand_in_started(m: Match, d: dict, games: dict) -> None:
    m.stand_ins = {**m.stand_ins, d["player"]: d["bot"]}
    m.timeouts = {**m.timeouts, d["player"]: 0}


def _apply_stand_in_ended(m: Match, d: dict, games: dict) -> None:
    m.stand_ins = {p: bot for p, bot in m.stand_ins.items() if p != d["player"]}


def _apply_finished(m: Match, d: dict, games: dict) -> None:
    m.status = "finished"
    m.result = d["result"]


def _apply_seed_revealed(m: Match, d: dict, games: dict) -> None:
    m.seed = d["seed"]


def _apply_rules_upgraded(m: Match, d: dict, games: dict) -> None:
    """From here on the match is judged by rules `to`: its game state is its effective history folded again
    under them (rules_upgrade.decide_upgrade checked that it folds)."""
    m.game = games[m.game_id].at(d["to"])
    p = m.rules_proposal
    if p is not None and p["status"] == "open":  # carried by the vote, or overtaken by an operator's migration
        m.rules_proposal = dict(p, status="accepted") if d.get("proposal") == p["id"] else \
            dict(p, status="rejected", cause="superseded", reason=f"the match moved to rules {d['to']} meanwhile")
    if m.game_state is not None:
        m._refold_game()


def _apply_rules_upgrade_proposed(m: Match, d: dict, games: dict) -> None:
    m.rules_proposal = {"id": d["proposal"], "from": d["from"], "to": d["to"], "by": d["by"], "votes": {},
                        "deadline": d.get("deadline"), "status": "open"}


def _apply_rules_upgrade_voted(m: Match, d: dict, games: dict) -> None:
    p = m.rules_proposal
    m.rules_proposal = dict(p, votes={**p["votes"], d["player"]: d["accept"]})


def _apply_rules_upgrade_rejected(m: Match, d: dict, games: dict) -> None:
    m.rules_proposal = dict(m.rules_proposal, status="rejected", cause=d.get("cause"), reason=d.get("reason"))


def _apply_rules_upgrade_expired(m: Match, d: dict, games: dict) -> None:
    m.rules_proposal = dict(m.rules_proposal, status="expired", cause="deadline")


def _apply_conceded(m: Match, d: dict, games: dict) -> None:
    m.conceded = [*m.conceded, d["player"]]  # a new list: a cached fold rolls back by field (concede.py decides)


def _public(m: Match, event: dict, viewer: str | None) -> dict:
    """A platform event every viewer sees whole."""
    return event


def _redact_created(m: Match, event: dict, viewer: str | None) -> dict:
    """match_created without the options the game declares secret (`secret_options`) until the match ends."""
    secret = getattr(m.game, "secret_options", frozenset()) if m.game is not None else frozenset()
    options = event["data"].get("options") or {}
    if not secret.intersection(options):
        return event
    shown = {k: v for k, v in options.items() if k not in secret}
    return {"type": event["type"], "data": dict(event["data"], options=shown)}


_PLATFORM_REDACT = {
    pe.MATCH_CREATED: _redact_created,
    pe.RULES_UPGRADED: _public,
}

_PLATFORM_APPLY = {
    pe.MATCH_CREATED: _apply_created,
    pe.PLAYER_JOINED: _apply_joined,
    pe.MATCH_STARTED: _apply_started,
    pe.MOVES_REVERTED: _apply_reverted,
    pe.DISPUTE_OPENED: _apply_dispute_opened,
    pe.DISPUTE_VOTED: _apply_dispute_voted,
    pe.DISPUTE_RESOLVED: _apply_dispute_resolved,
    pe.TURN_TIMED_OUT: _apply_timed_out,
    pe.STAND_IN_STARTED: _apply_stand_in_started,
    pe.STAND_IN_ENDED: _apply_stand_in_ended,
    pe.MATCH_FINISHED: _apply_finished,
    pe.SEED_REVEALED: _apply_seed_revealed,
    pe.INVITATION_ACCEPTED: _apply_invitation_answered,
    pe.INVITATION_DECLINED: _apply_invitation_answered,
    pe.MATCH_CANCELLED: _apply_cancelled,
    pe.REMATCH_CREATED: _apply_rematch_created,
    pe.RULES_UPGRADED: _apply_rules_upgraded,
    pe.RULES_UPGRADE_PROPOSED: _apply_rules_upgrade_proposed,
    pe.RULES_UPGRADE_VOTED: _apply_rules_upgrade_voted,
    pe.RULES_UPGRADE_REJECTED: _apply_rules_upgrade_rejected,
    pe.RULES_UPGRADE_EXPIRED: _apply_rules_upgrade_expired,
    pe.PLAYER_CONCEDED: _apply_conceded,
}


def fold(match_id: str, envelopes, games: dict, into: Match | None = None) -> Match:
    """Fold envelopes (in version order) into a Match, starting from `into` when given."""
    m = into if into is not None else Match(id=match_id)
    for env in envelopes:
        m.apply(env, games)
    return m


# -- deciding platform commands -----------------------------------------------------------------
def decide_create(game, match_id: str, created_by: str, options: dict, commitment: str,
                  players: list | None = None, seats: int | None = None,
                  turn_deadline_hours: float | None = None, bots: list | None = None,
                  replace_after_timeouts: int | None = None) -> list[dict]:
    """Events that create a match: invited (players given; the creator among them) or open (seats given).
    `bots` (bot user ids) are seated after the players, or beside the creator in an open match.

    Every seated player but the creator and the bots (wherever seated: a rematch keeps the seat order)
    must accept before an invited match starts; with
    nobody to ask it starts at once (the caller checks `ready_to_start`)."""
    bots = list(bots or [])
    invited: list = []
    if players is not None:
        if len(set(players)) != len(players):
            raise RuleViolation("platform:match.distinct-players", T("a player may take only one seat"))
        if created_by not in players:
            raise RuleViolation("platform:match.creator-seated", T("the creator of a match must take one of its seats"))
        seats = len(players) + len(bots)
        seated = list(players) + bots
        invited = [p for p in players if p != created_by and not is_bot(p)]
    else:
        seated = [created_by] + bots
        if len(seated) > seats:
            raise RuleViolation("platform:match.player-count",
                                T("{count} bots and you need {count2} seats, not {seats}", count=len(bots),
                                  count2=len(seated), seats=seats))
    if len(set(seated)) != len(seated):  # a bot named among the players and added again takes one seat only
        raise RuleViolation("platform:match.distinct-players", T("a player or bot may take only one seat"))
    if not game.min_players <= seats <= game.max_players:
        raise RuleViolation("platform:match.player-count",
                            T("{title} takes {min_players}-{max_players} players, not {seats}", title=game.title,
                              min_players=game.min_players, max_players=game.max_players, seats=seats))
    return [new_event(pe.MATCH_CREATED, game=game.id, seats=seats, players=seated, options=options,
                      rules_version=game.rules_version, rules_digest=game.rules_digest,
                      commitment=commitment, chain=CHAIN_FORMAT,
                      created_by=created_by, turn_deadline_hours=turn_deadline_hours, invited=invited,
                      **({"replace_after_timeouts": replace_after_timeouts} if replace_after_timeouts else {}))]


def ready_to_start(m: Match) -> bool:
    """True when a match waits only to start: every seat taken and every invited player has accepted."""
    return m.status in ("open", "invited") and len(m.players) == m.seats and not m.invited


def decide_start(m: Match, rng) -> list[dict]:
    """The events that start a full match: match_started then the game's setup events."""
    players = list(m.players)
    events = [new_event(pe.MATCH_STARTED, players=players)]
    for ev in m.game.setup(players, dict(m.options), rng):
        events.append(new_event(ev["type"], pe.GAME, **ev["data"]))
    return events


def decide_join(m: Match, player: str) -> list[dict]:
    """Events for `player` taking a seat in an open match (the match starts when the last seat fills)."""
    if m.status != "open":
        raise RuleViolation("platform:match.not-open", T("this match is not open for joining"))
    if player in m.players:
        raise RuleViolation("platform:match.already-seated", T("you already have a seat in this match"))
    return [new_event(pe.PLAYER_JOINED, player=player)]


def check_can_play(m: Match, player: str) -> None:
    """Raise unless `player` may send a game command now (seated, match active, not paused)."""
    if m.status == "finished":
        raise RuleViolation("platform:match.finished", T("the match has finished"))
    if m.status == "cancelled":
        raise RuleViolation("platform:match.cancelled", T("the match was cancelled"))
    if m.status != "active":
        raise RuleViolation("platform:match.not-started", T("the match has not started yet"))
    if m.open_dispute():
        raise RuleViolation("platform:dispute.paused", T("the match is paused while a dispute is open"))


def game_events(game, state: dict, player: str, command: dict, rng) -> list[dict]:
    """Run the game's decide and wrap its events as pending game-scope events."""
    events = game.decide(state, player, {"type": command["type"], "payload": command.get("payload") or {}}, rng)
    return [new_event(ev["type"], pe.GAME, **ev["data"]) for ev in events]


def finish_events(game, state_after: dict, seed_hex: str, conceded=(), players=()) -> list[dict]:
    """If the game is over after these events, the platform's match_finished and seed_revealed (players who
    conceded ranked last: results.py)."""
    result = match_result(game, state_after, conceded, players)
    if result is None:
        return []
    return [new_event(pe.MATCH_FINISHED, result=result), new_event(pe.SEED_REVEALED, seed=seed_hex)]
