"""The match aggregate: platform events, the effective-history fold with reverts, the draw counter."""
from __future__ import annotations

import pytest

from domain.engine import HmacRng, RuleViolation
from domain.engine import aggregate as agg
from domain.engine import platform_events as pe
from domain.engine.hashing import CHAIN_FORMAT, GENESIS, event_hash, salt_for, verify_chain
from domain.engine.rng import ReplayRng, ScriptedRng, commitment, draw_value
from domain.games.dice_race import GAME

GAMES = {GAME.id: GAME}
SEED = b"s" * 32


class Log:
    """An in-memory stream: seals pending events the way the service does."""

    def __init__(self, match_id="m1"):
        self.match = agg.Match(id=match_id, chain=CHAIN_FORMAT)
        self.envs = []

    def add(self, pending, actor=None, draws=(), cmd=None):
        for i, ev in enumerate(pending):
            env = {"version": self.match.version + 1, "type": ev["type"], "scope": ev["scope"], "actor": actor,
                   "at": "2026-01-01T00:00:00.000Z", "data": ev["data"],
                   "rng": list(draws) if i == 0 and draws else None, "cmd": cmd, "prev": self.match.head}
            env["hash"] = event_hash(self.match.head, env, salt_for(self.match.chain, SEED, env["version"]))
            self.match.apply(env, GAMES)
            self.envs.append(env)

    def command(self, actor, type_, **payload):
        rng = HmacRng(SEED, self.match.id, self.match.draws)
        pending = agg.game_events(GAME, self.match.game_state, actor, {"type": type_, "payload": payload}, rng)
        self.add(pending, actor, rng.draws, cmd=f"{actor}:{len(self.envs)}")
        self.add(agg.finish_events(GAME, self.match.game_state, SEED.hex()))
        return pending


def started(players=("ann", "bob"), target=10) -> Log:
    log = Log()
    log.add(agg.decide_create(GAME, "m1", "ann", {"target": target}, commitment(SEED), players=list(players)), "ann")
    rng = HmacRng(SEED, "m1", 0)
    log.add(agg.decide_start(log.match, rng), None, rng.draws)
    return log


def test_invited_match_starts_with_setup_events():
    """match_created, match_started, then the game's setup; the state is active with the turn order."""
    log = started()
    assert [e["type"] for e in log.envs] == [pe.MATCH_CREATED, pe.MATCH_STARTED, "deck_shuffled"]
    assert log.match.status == "active" and log.match.active_players() == ["ann"]
    assert log.match.draws == 19  # a 20-card Fisher-Yates shuffle
    assert verify_chain(log.envs, SEED) is None


def test_player_count_is_checked():
    """Too many players is a platform rule violation."""
    with pytest.raises(RuleViolation) as exc:
        agg.decide_create(GAME, "m", "a", {"target": 5}, "c", players=["a", "b", "c", "d", "e"])
    assert exc.value.rule_id == "platform:match.player-count"
    with pytest.raises(RuleViolation) as exc:
        agg.decide_create(GAME, "m", "a", {"target": 5}, "c", players=["a", "a"])
    assert exc.value.rule_id == "platform:match.distinct-players"


def test_open_match_fills_then_starts():
    """An open match waits for seats; joining twice or after start is refused."""
    log = Log()
    log.add(agg.decide_create(GAME, "m1", "ann", {"target": 5}, commitment(SEED), seats=2), "ann")
    assert log.match.status == "open"
    with pytest.raises(RuleViolation) as exc:
        agg.decide_join(log.match, "ann")
    assert exc.value.rule_id == "platform:match.already-seated"
    log.add(agg.decide_join(log.match, "bob"), "bob")
    log.add(agg.decide_start(log.match, HmacRng(SEED, "m1")))
    assert log.match.status == "active" and log.match.players == ["ann", "bob"]
    with pytest.raises(RuleViolation) as exc:
        agg.decide_join(log.match, "cid")
    assert exc.value.rule_id == "platform:match.not-open"


def test_fold_of_stored_envelopes_equals_live_state():
    """Refolding every envelope from scratch gives the same match state."""
    log = started()
    for _ in range(3):
        log.command("ann", "note", text="hi")
        log.command("ann", "draw")
        log.command("bob", "roll")
    again = agg.fold("m1", log.envs, GAMES)
    assert again.game_state == log.match.game_state
    assert (again.version, again.head, again.draws) == (log.match.version, log.match.head, log.match.draws)


def test_revert_leaves_reverted_range_out_and_draw_counter_never_rewinds():
    """moves_reverted drops game events from from_version on; later draws continue the counter."""
    log = started()
    before_state = agg.fold("m1", log.envs, GAMES).game_state
    first = log.match.version + 1
    log.command("ann", "roll")
    rolled = log.envs[-1]
    draws_after_roll = log.match.draws
    log.add([agg.new_event(pe.MOVES_REVERTED, from_version=first, to_version=log.match.version, reason="test")])
    assert log.match.game_state == before_state
    assert log.match.draws == draws_after_roll
    log.command("ann", "roll")
    again = log.envs[-1]
    assert again["rng"][0][0] == rolled["rng"][0][0] + 1  # a fresh draw, never the same one
    refolded = agg.fold("m1", log.envs, GAMES)
    assert refolded.game_state == log.match.game_state
    assert refolded.effective == log.match.effective and rolled["version"] not in refolded.effective


def test_finish_appends_match_finished_and_seed_revealed():
    """When the game has a result the platform finishes the match and reveals the seed."""
    log = started(target=1)
    log.command("ann", "roll")
    types = [e["type"] for e in log.envs[-3:]]
    assert types == ["die_rolled", pe.MATCH_FINISHED, pe.SEED_REVEALED]
    assert log.match.finished and log.match.result["winners"] == ["ann"]
    assert log.match.seed == SEED.hex() and log.match.active_players() == []
    with pytest.raises(RuleViolation) as exc:
        agg.check_can_play(log.match, "bob")
    assert exc.value.rule_id == "platform:match.finished"


def test_views_and_events_are_redacted_until_finished():
    """Another player's card is hidden from others and spectators, public once finished."""
    log = started()
    log.command("ann", "draw")
    env = log.envs[-1]
    assert log.match.redact(env, "bob")["data"]["card"] is None
    assert log.match.redact(env, None)["data"]["card"] is None
    assert log.match.redact(env, "ann")["data"]["card"] == env["data"]["card"]
    assert log.match.view("bob")["hands"]["ann"] == 1
    log.match.status = "finished"
    assert log.match.redact(env, None)["data"]["card"] == env["data"]["card"]
    assert log.match.view(None)["hands"]["ann"] == [env["data"]["card"]]


def test_rng_derivation_is_hmac_of_seed_match_and_draw_number():
    """Each recorded draw re-derives from the seed; ReplayRng replays them; a different seed differs."""
    rng = HmacRng(SEED, "m1", 5)
    values = [rng.randint(1, 6) for _ in range(50)]
    assert [d[0] for d in rng.draws] == list(range(5, 55))
    assert all(draw_value(SEED, "m1", n, lo, hi) == v for n, lo, hi, v in rng.draws)
    assert values != [HmacRng(b"x" * 32, "m1", 5).randint(1, 6) for _ in range(50)]
    replay = ReplayRng(rng.draws)
    assert [replay.randint(1, 6) for _ in range(50)] == values
    with pytest.raises(ValueError):
        replay.randint(1, 6)


def test_scripted_rng_yields_named_draws():
    """The scenario test double returns the scripted values and orders."""
    rng = ScriptedRng(ints=[6, 2], shuffles=[[3, 1, 2]], strict=True)
    assert rng.roll(2) == [6, 2]
    assert rng.shuffled([1, 2, 3]) == [3, 1, 2]
    with pytest.raises(AssertionError):
        rng.randint(1, 6)
    with pytest.raises(AssertionError):
        ScriptedRng(ints=[9]).randint(1, 6)


def test_hash_chain_names_first_broken_version():
    """Tampering, dropping or reordering is found at the right version."""
    log = started()
    for _ in range(3):
        log.command("ann", "note", text="x")
    envs = [dict(e) for e in log.envs]
    assert verify_chain(envs, SEED) is None
    tampered = [dict(e) for e in envs]
    tampered[3] = dict(tampered[3], data={"player": "ann", "text": "forged"})
    assert verify_chain(tampered, SEED) == 4
    assert verify_chain(envs[:2] + envs[3:], SEED) == 3
    assert verify_chain(envs[:3] + [envs[4], envs[3]] + envs[5:], SEED) == 4
    assert verify_chain(envs, b"w" * 32) == 1, "another seed's salts do not fit"
    assert GENESIS == envs[0]["prev"]


def test_a_seated_user_sees_as_themself_anyone_else_as_a_spectator():
    """viewer_for: the one rule every endpoint uses to pick whose view to show."""
    log = started()
    assert log.match.viewer_for("ann") == "ann"
    assert log.match.viewer_for("cid") is None and log.match.viewer_for(None) is None


def test_consent_is_owed_by_every_seated_user_but_the_creator_and_exempt_seats():
    """match_created lists the players who must accept; bots and the creator owe none;
    the creator must be seated; the match is ready to start only once nobody owes consent."""
    events = agg.decide_create(GAME, "m1", "ann", {"target": 5}, "c", players=["ann", "bot:greedy:1", "bob"])
    assert events[0]["data"]["invited"] == ["bob"]
    with_bots = agg.decide_create(GAME, "m1", "ann", {"target": 5}, "c", players=["ann"], bots=["bot:random:1"])
    assert with_bots[0]["data"]["invited"] == [] and with_bots[0]["data"]["players"] == ["ann", "bot:random:1"]
    m = agg.fold("m1", [{"version": 1, "type": pe.MATCH_CREATED, "scope": pe.PLATFORM, "data": events[0]["data"]}],
                 GAMES)
    assert m.status == "invited" and not agg.ready_to_start(m)
    m.apply({"version": 2, "type": pe.INVITATION_ACCEPTED, "scope": pe.PLATFORM, "data": {"player": "bob"}}, GAMES)
    assert m.invited == [] and agg.ready_to_start(m)
    with pytest.raises(RuleViolation) as exc:
        agg.decide_create(GAME, "m1", "ann", {"target": 5}, "c", players=["bob", "cy"])
    assert exc.value.rule_id == "platform:match.creator-seated"
