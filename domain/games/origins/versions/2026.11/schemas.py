"""Marshmallow schemas for the match options and every command payload."""
from __future__ import annotations

from marshmallow import Schema, fields, validate

from .data import MAX_ROUNDS


class OptionsSchema(Schema):
    """Match options: the number of rounds."""
    max_rounds = fields.Int(strict=True, load_default=MAX_ROUNDS["default"],
                            validate=validate.Range(MAX_ROUNDS["min"], MAX_ROUNDS["max"]))


class VisitSchema(Schema):
    """visit: a worker (die id or "archon") and a site."""
    worker = fields.Str(required=True)
    site = fields.Str(required=True)


class TempleSchema(Schema):
    """advance_temple / bonus_temple: a temple."""
    temple = fields.Str(required=True)


class SlotSchema(Schema):
    """take_citizen_die / bonus_orator: a slot number."""
    slot = fields.Int(required=True, strict=True)


class BuildSchema(Schema):
    """build / bonus_build: a market tile, farm or not, and the cell to place it in."""
    tile = fields.Str(required=True)
    as_farm = fields.Bool(required=True)
    cell = fields.Str(required=True)


class FoodSchema(Schema):
    """spend_food: food to the visiting die and to war."""
    to_die = fields.Int(required=True, strict=True)
    to_war = fields.Int(required=True, strict=True)


class EmptySchema(Schema):
    """A command without payload fields."""


class GatherSchema(Schema):
    """gather: the mix of basic resources."""
    stone = fields.Int(required=True, strict=True)
    food = fields.Int(required=True, strict=True)
    wisdom = fields.Int(required=True, strict=True)


class WarChoiceSchema(Schema):
    """bonus_war: advance or attack."""
    choice = fields.Str(required=True)


class ResourceSchema(Schema):
    """bonus_resource: which basic resource."""
    resource = fields.Str(required=True)


class CloseSchema(Schema):
    """close_district: block anchor, citizen die, district card (or null)."""
    anchor = fields.Str(required=True)
    die = fields.Str(required=True)
    card = fields.Str(required=True, allow_none=True)


COMMAND_SCHEMAS = {
    "visit": VisitSchema(), "advance_temple": TempleSchema(), "take_citizen_die": SlotSchema(),
    "build": BuildSchema(), "spend_food": FoodSchema(), "attack": EmptySchema(), "gather": GatherSchema(),
    "bonus_temple": TempleSchema(), "bonus_build": BuildSchema(), "bonus_war": WarChoiceSchema(),
    "bonus_orator": SlotSchema(), "bonus_resource": ResourceSchema(), "end_visit": EmptySchema(),
    "close_district": CloseSchema(), "pass": EmptySchema(),
}
OPTIONS_SCHEMA = OptionsSchema()
