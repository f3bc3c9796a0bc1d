"""A tiny game for platform tests and `turnstream bench` (not served): roll a die (randomness) or draw a
secret card (hidden information), or write a note (a free move). First to the target wins."""
from __future__ import annotations

import copy

from marshmallow import Schema, fields, validate

from domain.engine import ALL, Game, RuleViolation, event


class Options(Schema):
    target = fields.Int(load_default=10, validate=validate.Range(min=1, max=100))


class Empty(Schema):
    """A command with no payload fields."""


class Note(Schema):
    text = fields.Str(required=True, validate=validate.Length(max=20))


def initial_state(players, options):
    """The state before the deck is shuffled."""
    return {"players": list(players), "target": options["target"], "turn": 0,
            "scores": {p: 0 for p in players}, "hands": {p: [] for p in players}, "deck": [],
            "notes": [], "winner": None}


def setup(players, options, rng):
    """Shuffle the deck of cards 1-20."""
    return [event("deck_shuffled", order=rng.shuffled(list(range(1, 21))))]


def evolve(state, ev):
    """Apply one event."""
    d = ev["data"]
    t = ev["type"]
    if t == "deck_shuffled":
        state["deck"] = list(d["order"])
    elif t == "die_rolled":
        state["scores"][d["player"]] += d["value"]
        if state["scores"][d["player"]] >= state["target"]:
            state["winner"] = d["player"]
        state["turn"] = (state["turn"] + 1) % len(state["players"])
    elif t == "card_drawn":
        state["deck"].pop(0)
        state["hands"][d["player"]].append(d["card"])
        state["turn"] = (state["turn"] + 1) % len(state["players"])
    elif t == "noted":
        state["notes"].append(d["text"])
    return state


def decide(state, player, cmd, rng):
    """Validate a command and return its events, or raise RuleViolation."""
    if state["winner"] is not None:
        raise RuleViolation("race.over", "the race is over")
    if player != state["players"][state["turn"]]:
        raise RuleViolation("race.turn", "it is not your turn")
    if cmd["type"] == "roll":
        return [event("die_rolled", player=player, value=rng.randint(1, 6))]
    if cmd["type"] == "draw":
        if not state["deck"]:
            raise RuleViolation("race.deck-empty", "the deck is empty")
        return [event("card_drawn", player=player, card=state["deck"][0])]
    if cmd["type"] == "note":
        return [event("noted", player=player, text=cmd["payload"]["text"])]
    raise RuleViolation("race.unknown", "unknown command")


def view(state, viewer):
    """The state with the deck and the other hands hidden (unless the viewer is ALL)."""
    v = copy.deepcopy(state)
    if viewer != ALL:
        v["deck"] = len(state["deck"])
        v["hands"] = {p: (h if p == viewer else len(h)) for p, h in state["hands"].items()}
    return v


def redact(ev, viewer):
    """The event with the deck order and other players' cards hidden."""
    if ev["type"] == "deck_shuffled" and viewer != ALL:
        return {"type": ev["type"], "data": {"order": None}}
    if ev["type"] == "card_drawn" and viewer not in (ALL, ev["data"]["player"]):
        return {"type": ev["type"], "data": {"player": ev["data"]["player"], "card": None}}
    return ev


def legal_commands(state, player):
    """Roll, or draw while the deck lasts (a note is free and never listed)."""
    if state["winner"] is not None or player != state["players"][state["turn"]]:
        return []
    cmds = [{"type": "roll", "payload": {}}]
    if state["deck"]:
        cmds.append({"type": "draw", "payload": {}})
    return cmds


def active_players(state):
    """The player whose turn it is, nobody once someone won."""
    return [] if state["winner"] is not None else [state["players"][state["turn"]]]


def result(state):
    """The winner and the scores once someone reached the target."""
    if state["winner"] is None:
        return None
    return {"winners": [state["winner"]], "scores": dict(state["scores"])}


def on_timeout(state, player, rng):
    """A passed deadline rolls the die."""
    return [event("die_rolled", player=player, value=rng.randint(1, 6))]


def describe(ev, name):
    """One readable sentence for the move log."""
    d = ev["data"] or {}
    who = name(d.get("player")) if d.get("player") else "someone"
    return {"die_rolled": f"{who} rolled {d.get('value')}", "card_drawn": f"{who} drew a card",
            "noted": f"{who} noted {d.get('text')!r}", "deck_shuffled": "the deck was shuffled"}[ev["type"]]


def describe_command(state, cmd, name):
    """The command as an order in words."""
    return {"roll": "Roll the die", "draw": "Draw a card"}.get(cmd["type"], f"Note {cmd['payload'].get('text')!r}")


GAME = Game(
    id="dice-race",
    title="Dice Race",
    min_players=2,
    max_players=4,
    options_schema=Options(),
    command_schemas={"roll": Empty(), "draw": Empty(), "note": Note()},
    revealing_events=frozenset({"card_drawn"}),
    initial_state=initial_state,
    setup=setup,
    decide=decide,
    evolve=evolve,
    view=view,
    redact=redact,
    legal_commands=legal_commands,
    active_players=active_players,
    result=result,
    on_timeout=on_timeout,
    describe=describe,
    describe_command=describe_command,
)
