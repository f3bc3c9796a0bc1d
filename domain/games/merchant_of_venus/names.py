"""The names a person reads for the game's ids: squares, cultures and carried items (buttons, log, refusals)."""
from __future__ import annotations

from domain.engine.text import T, Text, name as printed

from . import data

_COMPASS = {"n": "North", "e": "East", "s": "South", "w": "West"}


def square_name(sid) -> Text:
    """A square's name a person reads: "W1", "Colony World orbit 1", "North navigation", "West telegate"."""
    sq = data.SQUARES.get(sid)
    if sq is None:
        return Text(str(sid))
    system = printed(data.SYSTEMS[sq["system"]]["name"]) if sq.get("system") in data.SYSTEMS else None
    prefix, _, suffix = str(sid).partition(".")
    kind = sq["kind"]
    if kind == "base":
        return T("the Galactic Base")
    if kind == "orbital":
        return T("{system} orbit {number}", system=system, number=suffix.lstrip("o"))
    if kind == "city":
        return T("{system} city", system=system)
    if kind == "port":
        return T("{system} spaceport", system=system)
    if kind == "nav":
        near = printed(data.SYSTEMS[prefix]["name"]) if prefix in data.SYSTEMS else None
        return T("{system} navigation", system=system or near or printed(_COMPASS.get(prefix, prefix.upper())))
    if kind == "telegate":
        return T("{side} telegate", side=printed(_COMPASS.get(suffix, suffix.upper())))
    return Text(str(sid).upper())


def culture_name(cid) -> Text:
    """A culture's name ("Nillis")."""
    return printed(data.CULTURES[cid]["name"]) if cid in data.CULTURES else Text(str(cid))


def item_name(item) -> Text:
    """A carried item in words: goods by name, passengers by route, drives by colour."""
    item = str(item)
    if item in data.PASSENGERS:
        p = data.PASSENGERS[item]
        return T("the {origin} passenger bound for {destination}", origin=culture_name(p["origin"]),
                 destination=culture_name(p["destination"]))
    if ":" in item and item.split(":", 1)[1] in data.CULTURES:
        good, culture = printed(data.token_info(item)["name"]), culture_name(item.split(":", 1)[1])
        if item.startswith("factory:"):
            return T("{good} ({culture} factory goods)", good=good, culture=culture)
        return T("{good} ({culture} goods)", good=good, culture=culture)
    if item.startswith("drive:"):
        return T("the {colour} drive", colour=printed(item.split(":", 1)[1], "drive"))
    return T("a shield") if item == "shield" else printed(item)
