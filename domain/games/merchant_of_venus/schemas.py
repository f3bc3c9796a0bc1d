"""Marshmallow schemas for the match options and every command payload."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from . import data

_D = data.DEFAULTS


class OptionsSchema(Schema):
    """Match options (spec §3.6)."""

    target_net_worth = fields.Int(strict=True, load_default=_D["target_net_worth"],
                                  validate=validate.Range(_D["target_min"], _D["target_max"]))
    max_rounds = fields.Int(strict=True, load_default=_D["max_rounds"],
                            validate=validate.Range(_D["rounds_min"], _D["rounds_max"]))
    starting_cash = fields.Int(strict=True, load_default=_D["starting_cash"],
                               validate=validate.Range(_D["cash_min"], _D["cash_max"]))
    races = fields.List(fields.Str(validate=validate.OneOf(data.RACES)), allow_none=True, load_default=None)
    fixed_cultures = fields.Dict(keys=fields.Str(validate=validate.OneOf(data.SYSTEM_ORDER)),
                                 values=fields.Str(validate=validate.OneOf(data.CULTURE_ORDER)),
                                 allow_none=True, load_default=None)

    @validates_schema
    def _check(self, values, **kwargs):
        races = values.get("races")
        if races is not None and len(set(races)) != len(races):
            raise ValidationError("races must be distinct", "races")
        fixed = values.get("fixed_cultures")
        if fixed is not None:
            if set(fixed) != set(data.SYSTEM_ORDER) or len(set(fixed.values())) != len(fixed):
                raise ValidationError("fixed_cultures must give every system a distinct culture", "fixed_cultures")


class Empty(Schema):
    """A command without payload fields."""


class DeclareSchema(Schema):
    """declare_direction {to, destination, use_drive}."""

    to = fields.Str(required=True, validate=validate.OneOf(data.SQUARE_ORDER))
    destination = fields.Str(required=True, validate=validate.OneOf(data.SQUARE_ORDER))
    use_drive = fields.Bool(required=True)


class RollSchema(Schema):
    """roll_speed {dice}."""

    dice = fields.Int(required=True, strict=True)


class AssignSchema(Schema):
    """assign_navigation {die} (0-based index into the rolled dice)."""

    die = fields.Int(required=True, strict=True)


class MoveSchema(Schema):
    """move {to}."""

    to = fields.Str(required=True, validate=validate.OneOf(data.SQUARE_ORDER))


class BuySchema(Schema):
    """buy {item, target, count, use_iou}."""

    item = fields.Str(required=True, validate=validate.OneOf(data.ITEMS))
    target = fields.Str(allow_none=True, load_default=None)
    count = fields.Int(strict=True, load_default=1, validate=validate.Range(min=1))
    use_iou = fields.Bool(load_default=False)


class ItemSchema(Schema):
    """sell / jettison {item}."""

    item = fields.Str(required=True)


class PassengerSchema(Schema):
    """pick_up / drop_off {passenger}."""

    passenger = fields.Str(required=True, validate=validate.OneOf(data.PASSENGER_ORDER))


OPTIONS_SCHEMA = OptionsSchema()
COMMAND_SCHEMAS = {
    "skip_movement": Empty(), "declare_direction": DeclareSchema(), "roll_speed": RollSchema(),
    "assign_navigation": AssignSchema(), "move": MoveSchema(), "observe": Empty(), "end_move": Empty(),
    "buy": BuySchema(), "sell": ItemSchema(), "pick_up": PassengerSchema(), "drop_off": PassengerSchema(),
    "jettison": ItemSchema(), "end_turn": Empty(),
}
