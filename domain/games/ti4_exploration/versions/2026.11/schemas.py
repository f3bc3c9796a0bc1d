"""marshmallow schemas for the match options and every command payload (§6)."""
from __future__ import annotations

from marshmallow import Schema, fields, validate


def _schema(name: str, **declared) -> Schema:
    """An instance of a schema with the given fields (unknown fields are rejected)."""
    return Schema.from_dict(declared, name=name)()


LotSchema = Schema.from_dict({"item": fields.Str(required=True), "count": fields.Int(required=True)}, name="Lot")

OPTIONS_SCHEMA = _schema("Ti4Options", rounds=fields.Int(load_default=4, validate=validate.Range(1, 6)))


def _empty(name: str) -> Schema:
    return _schema(name)


COMMAND_SCHEMAS = {
    "activate_system": _schema("ActivateSystem", system=fields.Str(required=True)),
    "move_ships": _schema("MoveShips", **{"from": fields.Str(required=True)}, ships=fields.Int(required=True),
                          ground_forces=fields.Int(load_default=0)),
    "end_movement": _empty("EndMovement"),
    "commit_ground_forces": _schema("CommitGroundForces", planet=fields.Str(required=True),
                                    count=fields.Int(required=True)),
    "end_invasion": _empty("EndInvasion"),
    "gain_control": _schema("GainControl", planet=fields.Str(required=True)),
    "choose_exploration_deck": _schema("ChooseExplorationDeck", deck=fields.Str(required=True)),
    "resolve_exploration": _schema("ResolveExploration", option=fields.Str(required=True),
                                   system=fields.Str(allow_none=True)),
    "produce": _schema("Produce", ships=fields.Int(load_default=0), ground_forces=fields.Int(load_default=0)),
    "skip_production": _empty("SkipProduction"),
    "explore_frontier": _empty("ExploreFrontier"),
    "use_crown_of_emphidia": _schema("UseCrownOfEmphidia", planet=fields.Str(required=True)),
    "end_turn": _empty("EndTurn"),
    "purge_fragments": _schema("PurgeFragments", fragment_type=fields.Str(required=True),
                               unknown=fields.Int(load_default=0, validate=validate.Range(0, 3))),
    "research": _schema("Research", technology=fields.Str(required=True)),
    "use_enigmatic_device": _schema("UseEnigmaticDevice", technology=fields.Str(required=True)),
    "use_nano_forge": _schema("UseNanoForge", planet=fields.Str(required=True)),
    "use_maw_of_worlds": _schema("UseMawOfWorlds", technology=fields.Str(required=True)),
    "pass": _empty("Pass"),
    "propose_transaction": _schema("ProposeTransaction", to=fields.Str(required=True),
                                   give=fields.Nested(LotSchema, allow_none=True, load_default=None),
                                   receive=fields.Nested(LotSchema, allow_none=True, load_default=None)),
    "accept_transaction": _empty("AcceptTransaction"),
    "decline_transaction": _empty("DeclineTransaction"),
}
