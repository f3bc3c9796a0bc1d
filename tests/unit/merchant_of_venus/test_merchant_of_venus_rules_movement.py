"""One test per turn, movement, navigation, drive and hazard rule id of the Merchant of Venus spec (§5.1-5.4)."""
from __future__ import annotations

from domain.engine import command
from domain.games.merchant_of_venus import GAME
from tests.unit.merchant_of_venus.mov_kit import (all_of, first, given, legal_types, moving, rejected, roll, send,
                                                  types)


def test_turn_active_only():
    """turn.active-only: only the active player may send commands and has legal commands."""
    st = given()
    assert rejected(st, "p2", "skip_movement") == "turn.active-only"
    assert GAME.legal_commands(st, "p2") == [] and GAME.active_players(st) == ["p1"]


def test_turn_phase():
    """turn.phase: a command outside its phase is rejected."""
    assert rejected(given(), "p1", "roll_speed", dice=3) == "turn.phase"
    assert rejected(given(), "p1", "end_turn") == "turn.phase"


def test_turn_payload():
    """turn.payload: unknown command types, unknown ids and malformed payloads are rejected."""
    st = given()
    assert rejected(st, "p1", "fly_away") == "turn.payload"
    assert rejected(st, "p1", "declare_direction", to="nowhere", destination="cw.port", use_drive=False) == "turn.payload"
    assert rejected(st, "p1", "skip_movement", extra=1) == "turn.payload"
    st = given(phase="roll")
    assert rejected(st, "p1", "roll_speed", dice="three") == "turn.payload"


def test_turn_sequence():
    """turn.sequence: declare, roll, move, First Contact, transaction, then the next turn starts."""
    st = given(pl={"p1": {"square": "gp.o1"}})
    st, _ = send(st, "p1", "declare_direction", to="gp.city", destination="gp.city", use_drive=False)
    assert st["phase"] == "roll"
    st, _ = send(st, "p1", "roll_speed", rng=roll(1, 1, 1), dice=3)
    assert st["phase"] == "move"
    st, ev = send(st, "p1", "move", to="gp.city")
    assert types(ev) == ["ship_moved", "movement_ended", "first_contact_made"] and st["phase"] == "trade"
    st, ev = send(st, "p1", "end_turn")
    assert types(ev) == ["turn_ended", "turn_started"] and st["active"] == "p2" and st["phase"] == "declare"


def test_movement_skip():
    """movement.skip: skipping keeps the ship in place and goes to the Transaction phase without landing."""
    st, ev = send(given(pl={"p1": {"square": "cw.port"}}), "p1", "skip_movement")
    assert types(ev) == ["movement_skipped"] and st["phase"] == "trade"
    assert st["pl"]["p1"]["square"] == "cw.port" and not st["turn"]["landed"]


def test_movement_declare():
    """movement.declare: the direction is an adjacent square (or another telegate from a telegate)."""
    assert rejected(given(), "p1", "declare_direction", to="w2", destination="cw.port",
                    use_drive=False) == "movement.declare"
    st = given(pl={"p1": {"square": "tg.w"}})
    send(st, "p1", "declare_direction", to="tg.e", destination="gb", use_drive=False)


def test_movement_destination():
    """movement.destination: a landing square other than the current one; entering it ends the move."""
    st = given()
    assert rejected(st, "p1", "declare_direction", to="w1", destination="w3", use_drive=False) == \
        "movement.destination"
    assert rejected(st, "p1", "declare_direction", to="w1", destination="gb", use_drive=False) == \
        "movement.destination"
    st = moving("w3", prev="w2", mp=6, destination="cw.port")
    st, _ = send(st, "p1", "move", to="cw.o1")
    st, ev = send(st, "p1", "move", to="cw.port")
    assert first(ev, "movement_ended")["reason"] == "destination" and st["turn"]["mp"] == 4


def test_movement_speed_dice():
    """movement.speed-dice: the player rolls exactly his class's dice."""
    assert rejected(given(phase="roll"), "p1", "roll_speed", dice=2) == "movement.speed-dice"
    clip = given(phase="roll", pl={"p1": {"ship": "clipper"}}, turn={"to": "w1", "destination": "cw.port"})
    _, ev = send(clip, "p1", "roll_speed", rng=roll(1, 2, 3, 4), dice=4)
    assert first(ev, "speed_rolled")["dice"] == [1, 2, 3, 4]


def test_movement_max_speed_dice():
    """movement.max-speed-dice: never more than four dice; checked before movement.speed-dice."""
    assert rejected(given(phase="roll"), "p1", "roll_speed", dice=5) == "movement.max-speed-dice"
    assert rejected(given(phase="roll", pl={"p1": {"ship": "clipper"}}), "p1", "roll_speed",
                    dice=6) == "movement.max-speed-dice"


def test_movement_value():
    """movement.value: the MV is the sum of the dice and becomes the MP."""
    st = given(phase="roll", turn={"to": "w1", "destination": "cw.port"})
    st, ev = send(st, "p1", "roll_speed", rng=roll(6, 5, 4), dice=3)
    assert first(ev, "speed_rolled")["movement_value"] == 15 and st["turn"]["mp"] == 15


def test_movement_follow_direction():
    """movement.follow-direction: the first step goes to the declared square, else the move is blocked."""
    st = moving("gb", steps=0, to="w1", destination="cw.port")
    assert rejected(st, "p1", "move", to="n1") == "movement.follow-direction"
    tele = given(pl={"p1": {"square": "tg.w"}})
    tele, _ = send(tele, "p1", "declare_direction", to="tg.e", destination="gb", use_drive=False)
    _, ev = send(tele, "p1", "roll_speed", rng=roll(1, 1, 1), dice=3)
    assert first(ev, "movement_ended")["reason"] == "blocked"


def test_movement_adjacent():
    """movement.adjacent: a step goes to an adjacent square."""
    st = moving("w2", prev="w1", mp=5)
    assert rejected(st, "p1", "move", to="cw.o1") == "movement.adjacent"


def test_movement_step_cost():
    """movement.step-cost: a step needs MP at least its cost (a green line costs 2)."""
    st = moving("cw.o2", prev="cw.o1", mp=1, destination="cw.city")
    assert rejected(st, "p1", "move", to="cw.city") == "movement.step-cost"
    assert "cw.city" not in [c["payload"].get("to") for c in GAME.legal_commands(st, "p1")]


def test_movement_green_line():
    """movement.green-line: orbital to city costs 2 MP."""
    st = moving("cw.o2", prev="cw.o1", mp=3, destination="cw.city")
    _, ev = send(st, "p1", "move", to="cw.city")
    assert first(ev, "ship_moved")["cost"] == 2 and first(ev, "ship_moved")["mp_left"] == 1


def test_movement_no_backtrack():
    """movement.no-backtrack: the square just left may not be re-entered within the move."""
    st = moving("w2", prev="w1", mp=5)
    assert rejected(st, "p1", "move", to="w1") == "movement.no-backtrack"


def test_movement_pass_freely_and_shared_squares():
    """movement.pass-freely and movement.shared-squares: ships pass and share squares without penalty."""
    st = moving("w1", prev="gb", mp=3, destination="cw.port", pl={"p2": {"square": "w2"}})
    st, ev = send(st, "p1", "move", to="w2")
    assert first(ev, "ship_moved")["cost"] == 1
    assert st["pl"]["p1"]["square"] == st["pl"]["p2"]["square"] == "w2"


def test_movement_shared_squares():
    """movement.shared-squares: several ships on one square."""
    st = given(pl={"p2": {"square": "gb"}})
    assert st["pl"]["p1"]["square"] == st["pl"]["p2"]["square"] == "gb"
    assert "declare_direction" in legal_types(st, "p1")


def test_movement_continue():
    """movement.continue: in open space the ship may not stop while MP and a step remain."""
    st = moving("w2", prev="w1", mp=5, destination="cw.port")
    assert rejected(st, "p1", "end_move") == "movement.voluntary-stop"
    assert "end_move" not in legal_types(st, "p1")


def test_movement_voluntary_stop():
    """movement.voluntary-stop: end_move only after a step, on a landing square or an entered hazard."""
    assert rejected(moving("gb", steps=0, to="w1"), "p1", "end_move") == "movement.voluntary-stop"
    st = moving("cw.port", prev="cw.o1", mp=5, destination="gb")
    st, ev = send(st, "p1", "end_move")
    assert first(ev, "movement_ended") == {"player": "p1", "square": "cw.port", "reason": "stopped", "landed": True}


def test_movement_end():
    """movement.end: MP 0 ends the move; destination wins over mp_exhausted."""
    st = moving("w3", prev="w2", mp=1, destination="cw.port")
    _, ev = send(st, "p1", "move", to="cw.o1")
    assert first(ev, "movement_ended")["reason"] == "mp_exhausted"
    st = moving("cw.o1", prev="w3", mp=1, destination="cw.port")
    _, ev = send(st, "p1", "move", to="cw.port")
    assert first(ev, "movement_ended")["reason"] == "destination"


def test_movement_auto_continue():
    """movement.auto-continue: forced single steps are taken by the engine, never out of a nav square."""
    st = moving("w3", prev="w2", mp=9, destination="gb", nav=None)
    st, ev = send(st, "p1", "move", to="cw.o1")
    assert [m["auto"] for m in all_of(ev, "ship_moved")] == [False]
    st = moving("cw.nav", prev="cw.port", mp=9, nav=1, destination="jw.city")
    st, ev = send(st, "p1", "move", to="x1")
    assert all(m["auto"] for m in all_of(ev, "ship_moved")[1:])


def test_movement_landed():
    """movement.landed: ending on a city, spaceport or base after a step is landing; skipping is not."""
    st = moving("cw.o1", prev="w3", mp=4, destination="cw.port")
    st, _ = send(st, "p1", "move", to="cw.port")
    assert st["turn"]["landed"] and st["turn"]["limited"]
    st = moving("w1", prev="w2", mp=4, destination="gb")
    st, _ = send(st, "p1", "move", to="gb")
    assert st["turn"]["landed"] and not st["turn"]["limited"]


def test_nav_assign():
    """nav.assign: one rolled die becomes the navigation value."""
    st = moving("gb", steps=0, to="w1", dice=(2, 5, 6))
    st, ev = send(st, "p1", "assign_navigation", die=1)
    assert st["turn"]["nav_value"] == 5 and first(ev, "navigation_assigned")["die"] == 1


def test_nav_assign_timing():
    """nav.assign-timing: only before the first step or on a navigation square or telegate."""
    assert rejected(moving("w2", prev="w1"), "p1", "assign_navigation", die=0) == "nav.assign-timing"
    send(moving("n.nav", prev="n2", mp=5), "p1", "assign_navigation", die=0)
    assert rejected(given(phase="roll"), "p1", "assign_navigation", die=0) == "turn.phase"


def test_nav_assign_before_leaving():
    """nav.assign-before-leaving: a move out of a nav square or telegate needs a die."""
    assert rejected(moving("n.nav", prev="n2", mp=5), "p1", "move", to="n4") == "nav.assign-before-leaving"
    assert rejected(moving("tg.n", prev="n8", mp=5), "p1", "move", to="n9") == "nav.assign-before-leaving"


def test_nav_die_still_counts():
    """nav.die-still-counts: assigning a die changes no MP."""
    st = moving("n.nav", prev="n2", mp=5, dice=(3, 4, 1))
    st, _ = send(st, "p1", "assign_navigation", die=0)
    assert st["turn"]["mp"] == 5


def test_nav_assign_fixed():
    """nav.assign-fixed: no command changes or removes the assigned die."""
    st = moving("n.nav", prev="n2", mp=5, nav=3)
    assert rejected(st, "p1", "assign_navigation", die=1) == "nav.one-die"
    assert "assign_navigation" not in legal_types(st, "p1") and st["turn"]["nav_value"] == 3


def test_nav_one_die():
    """nav.one-die: at most one die per turn."""
    assert rejected(moving("e.nav", prev="e4", nav=2), "p1", "assign_navigation", die=1) == "nav.one-die"


def test_nav_exit_label():
    """nav.exit-label: leaving a nav square needs the exit's pilot number; entering needs none."""
    st = moving("s.nav", prev="s2", mp=6, nav=4)
    assert rejected(st, "p1", "move", to="s3") == "nav.exit-label"
    _, ev = send(st, "p1", "move", to="s5")
    assert first(ev, "ship_moved")["to"] == "s5"
    _, ev = send(moving("s2", prev="s1", mp=3), "p1", "move", to="s.nav")
    assert first(ev, "ship_moved")["cost"] == 1


def test_telegate_jump():
    """telegate.jump: jump to a telegate whose numbers hold the nav value, for 1 MP."""
    st = moving("tg.w", prev="y1", nav=6, mp=3)
    assert rejected(st, "p1", "move", to="tg.n") == "telegate.jump"
    st, ev = send(st, "p1", "move", to="tg.e")
    assert first(ev, "ship_moved")["jump"] and st["turn"]["mp"] == 2


def test_drive_yellow():
    """drive.yellow: yellow squares are skipped at 0 MP."""
    st = moving("gb", steps=0, to="n1", destination="gp.city", use_drive=True, nav=1,
                pl={"p1": {"drives": ["drive:yellow"]}})
    _, ev = send(st, "p1", "move", to="n1")
    assert [(m["to"], m["cost"]) for m in all_of(ev, "ship_moved")][:3] == [("n1", 0), ("n2", 0), ("n.nav", 1)]


def test_drive_red():
    """drive.red: red squares are skipped, yellow ones are not."""
    st = moving("w1", prev="gb", mp=4, use_drive=True, pl={"p1": {"drives": ["drive:red"]}})
    _, ev = send(st, "p1", "move", to="w2")
    assert first(ev, "ship_moved")["cost"] == 1 and not first(ev, "ship_moved")["skipped"]


def test_drive_combined():
    """drive.combined: yellow and red squares are both skipped."""
    st = moving("w1", prev="gb", mp=4, use_drive=True, pl={"p1": {"drives": ["drive:combined"]}})
    _, ev = send(st, "p1", "move", to="w2")
    assert first(ev, "ship_moved")["skipped"]
    st = moving("cw.nav", prev="cw.port", nav=1, mp=3, use_drive=True, pl={"p1": {"drives": ["drive:combined"]}})
    _, ev = send(st, "p1", "move", to="x1")
    assert first(ev, "ship_moved")["cost"] == 0


def test_drive_skip():
    """drive.skip: a skipped hazard has no fee effect and the ship may not stop there."""
    st = moving("e5", prev="e.nav", mp=3, use_drive=True, pl={"p1": {"drives": ["drive:red"]}})
    st, ev = send(st, "p1", "move", to="e6")
    assert first(ev, "ship_moved")["skipped"] and st["turn"]["hazard_due"] == 0
    assert "hazard_fee_paid" not in types(ev)


def test_drive_decline():
    """drive.decline: use_drive false covers all drives; without a drive use_drive must be false."""
    assert rejected(given(), "p1", "declare_direction", to="w1", destination="cw.port", use_drive=True) == \
        "drive.decline"
    st = moving("w1", prev="gb", mp=4, use_drive=False, pl={"p1": {"drives": ["drive:combined"]}})
    _, ev = send(st, "p1", "move", to="w2")
    assert not first(ev, "ship_moved")["skipped"]


def test_hazard_stop_or_pay():
    """hazard.stop-or-pay: on an entered hazard the player may stop or pay as he leaves."""
    st = moving("s1", prev="gb", mp=5, destination="im.city")
    st, _ = send(st, "p1", "move", to="s2")
    assert {"end_move", "move"} <= legal_types(st, "p1")
    _, ev = send(st, "p1", "move", to="s.nav")
    assert first(ev, "hazard_fee_paid")["paid"] == 30


def test_hazard_shields():
    """hazard.shields: each shield cuts the fee by c20, never below c0."""
    st = moving("s2", prev="s1", mp=5, destination="im.city", pl={"p1": {"shields": 2}})
    st["turn"]["hazard_due"] = 30
    _, ev = send(st, "p1", "move", to="s.nav")
    assert first(ev, "hazard_fee_paid")["paid"] == 0


def test_hazard_fee():
    """hazard.fee: an unpayable fee blocks; a hazard where the turn starts is left free."""
    st = moving("t2", prev="t1", mp=5, pl={"p1": {"cash": 10}})
    st["turn"]["hazard_due"] = 50
    assert rejected(st, "p1", "move", to="t3") == "hazard.fee"
    st = given(pl={"p1": {"square": "t2", "cash": 0}})
    st, _ = send(st, "p1", "declare_direction", to="t3", destination="gb", use_drive=False)
    st, _ = send(st, "p1", "roll_speed", rng=roll(1, 1, 1), dice=3)
    _, ev = send(st, "p1", "move", to="t3")
    assert "hazard_fee_paid" not in types(ev)


def test_legal_moves_match_decide():
    """Every listed move-phase command is accepted (legal_commands soundness on a busy square)."""
    st = moving("n.nav", prev="n2", mp=6, dice=(1, 3, 5))
    for cmd in GAME.legal_commands(st, "p1"):
        assert GAME.decide(st, "p1", command(cmd["type"], **cmd["payload"]), roll())
