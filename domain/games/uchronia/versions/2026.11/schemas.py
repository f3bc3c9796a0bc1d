"""Marshmallow schemas for the match options and every command payload."""
from __future__ import annotations

from marshmallow import Schema, ValidationError, fields, pre_load, validate

from .data import DATA


class OptionsSchema(Schema):
    """Match options; a missing vp_target is later filled from the player count (§3.4)."""

    vp_target = fields.Int(load_default=None, allow_none=True, strict=True,
                           validate=validate.Range(*DATA["vp_target_range"]))
    max_rounds = fields.Int(load_default=DATA["max_rounds_default"], strict=True,
                            validate=validate.Range(*DATA["max_rounds_range"]))


class ColorSchema(Schema):
    """{color}: discard_to_forum, take_from_forum, stock_from_hand, give_card, trade."""

    color = fields.Str(required=True)


class IssueOrderSchema(Schema):
    """{order, colors}: Command with 1 card or a 2-card joker."""

    order = fields.Str(required=True)
    colors = fields.List(fields.Str(), required=True)


class PlotSchema(Schema):
    """{copy_from}: Plot, optionally copying another player's Residence order."""

    copy_from = fields.Str(required=True, allow_none=True)


class RevealSchema(Schema):
    """{colors}: the cards revealed for Draconias."""

    colors = fields.List(fields.Str(), required=True)


class BuildingSchema(Schema):
    """{building_id}: supply_building and raid."""

    building_id = fields.Str(required=True)


class StartBuildingSchema(Schema):
    """{building_id, discard}: start a Great Work, discarding a Forum card."""

    building_id = fields.Str(required=True)
    discard = fields.Str(required=True)


class EmptySchema(Schema):
    """{}: end_order."""


class MonopolyBonusSchema(Schema):
    """{take}: accept or decline the Monopoly build bonus."""

    take = fields.Bool(required=True)

    @pre_load
    def _strict_bool(self, data, **kwargs):
        """Reject non-boolean `take` values such as "yes" or 1."""
        if isinstance(data, dict) and "take" in data and not isinstance(data["take"], bool):
            raise ValidationError("take must be true or false", "take")
        return data


OPTIONS_SCHEMA = OptionsSchema()
COMMAND_SCHEMAS = {
    "discard_to_forum": ColorSchema(),
    "issue_order": IssueOrderSchema(),
    "plot": PlotSchema(),
    "take_from_forum": ColorSchema(),
    "stock_from_hand": ColorSchema(),
    "reveal": RevealSchema(),
    "give_card": ColorSchema(),
    "raid": BuildingSchema(),
    "trade": ColorSchema(),
    "start_building": StartBuildingSchema(),
    "supply_building": BuildingSchema(),
    "end_order": EmptySchema(),
    "monopoly_bonus": MonopolyBonusSchema(),
}
