"""The ti4-exploration board: header lines and a legend that wrap, the labelled hex map with planets, tokens and
units in a frame that pans (opening on the viewer's home system), and a card per player.
Its TABLE's `board` (table.py): render_board(view, viewer) and place_of(view, command), drawn with the table kit
(domain/table/); its glossary and words come from this package (text/glossary.json, WORDS)."""
from __future__ import annotations

import math
from pathlib import Path

from domain.table import layout
from domain.table.glossary import Glossary
from domain.table.speech import gettext as _, lazy_gettext as _l
from domain.table.svgkit import e, hit, ink, mine_anchor, place, svg_root, text
from domain.table.words import said, word as data_word

from . import command_text

GAME = "ti4-exploration"
GLOSSARY = Path(__file__).resolve().parent / "text" / "glossary.json"  # its own folder (a frozen copy too)
TERMS = Glossary(GLOSSARY, f"/games/{GAME}/rules")
term, svg_term = TERMS.term, TERMS.svg_term
step_words, title, lot_item = said(command_text.step_words), said(command_text.title), said(command_text.lot_item)

HEX = 88
COLOURS = ["#d64541", "#3a7bd5", "#2e9e5b", "#d4a017"]
COLOUR_NAMES = ["red", "blue", "green", "yellow"]
NEUTRAL = "#5b6275"
BG, INK, MUTED, HEX_FILL = "#0b0e17", "#ffffff", "#c9cfdc", "#1d2333"
TRAIT_MARK = {"cultural": "✦", "hazardous": "⚠", "industrial": "⚙"}  # symbols, the same in every language
SEAT_MARK = ["●", "■", "▲", "◆"]  # a seat's shape besides its colour (the legend names the player)
FRONTIER_MARK, ION_MARK = "⚑", "ϟ"
PANEL_H = 150

WORDS = {  # words from the game's data the board shows in the page's language (others as they come)
    "red": _l("red"), "blue": _l("blue"), "green": _l("green"), "yellow": _l("yellow"),
    "cultural": _l("cultural"), "industrial": _l("industrial"), "hazardous": _l("hazardous"),
    "frontier": _l("frontier"),
}
STEPS = {  # a turn step as the header names it ("now: the movement step")
    "choose_action": _l("choosing an action"), "movement": _l("the movement step"),
    "invasion": _l("the invasion step"), "control": _l("gaining control of planets"),
    "production": _l("the production step"), "after_action": _l("the end of the action"),
}


def seat_mark(seat: int) -> str:
    """A seat's symbol (0-based seat; the legend and cards say whose it is)."""
    return SEAT_MARK[seat % len(SEAT_MARK)]


def word(key) -> str:
    """A word from the game's data in the page's language (WORDS; anything else as it is)."""
    return data_word(WORDS, key)


def _num(value, default=0):
    """A number from the view, or a default."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _dict(value) -> dict:
    """A dict from the view, or an empty one."""
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    """A list from the view, or an empty one."""
    return value if isinstance(value, list) else []


def _seats(view: dict) -> dict:
    """Player id -> seat index (0-based)."""
    return {pid: int(_num(_dict(p).get("seat"), 1)) - 1 for pid, p in _dict(view.get("players")).items()}


def _centre(q, r, ox, oy):
    """Pixel centre of an axial hex (pointy top)."""
    return ox + HEX * math.sqrt(3) * (q + r / 2), oy + HEX * 1.5 * r


def _hex_points(cx, cy) -> str:
    """The corners of a hex centred on (cx, cy)."""
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{cx + (HEX - 2) * math.cos(a):.1f},{cy + (HEX - 2) * math.sin(a):.1f}")
    return " ".join(pts)


def _short_planet(pid: str, sid: str) -> str:
    """A planet's label inside its system ("Prime", "Veil", "II"); the full name is its tooltip."""
    full = title(pid)
    system = title(sid)
    return full[len(system):].strip(" -") or full if full.startswith(system) else full


def _badge(x, y, seat: int, label: str) -> str:
    """A seat-coloured pill with the seat's symbol and a count."""
    col = COLOURS[seat % len(COLOURS)] if seat >= 0 else NEUTRAL
    w = 12 + 7.5 * len(label)
    return (f'<rect data-mark="" x="{x - w / 2:.1f}" y="{y - 13:.1f}" width="{w:.1f}" height="18" rx="9" fill="{col}" stroke="#000"/>'
            + text(x, y + 1, label, 12, ink(col), "middle", "bold"))


def _system(sid: str, sys_: dict, view: dict, seats: dict, ox: float, oy: float, viewer=None) -> list:
    """One hex (a place), then its tokens, units in space and planets (places of their own)."""
    cx, cy = _centre(_num(sys_.get("q")), _num(sys_.get("r")), ox, oy)
    home_of = sys_.get("home_of")
    stroke, width = (COLOURS[seats[home_of] % 4], 4) if home_of in seats else ("#4a5270", 2)
    if view.get("active_system") == sid:
        stroke, width = "#ffffff", 6
    name = title(sid)
    home = ", " + _("home of %(player)s", player=home_of) if home_of else ""
    hexagon = (f'<polygon points="{_hex_points(cx, cy)}" fill="{HEX_FILL}" stroke="{e(stroke)}" '
               f'stroke-width="{width}"/>' + text(cx, cy - HEX + 30, name, 14, INK, "middle", "bold"))
    out = [place(f"system:{sid}", name + " (" + _("system") + home + ")", hexagon)]
    if viewer is not None and home_of == viewer:
        out.append(mine_anchor(cx, cy))
    if sys_.get("frontier_token"):
        out.append(svg_term("frontier", f'<circle data-mark="" cx="{cx - 50:.1f}" cy="{cy - 36:.1f}" r="11" '
                            f'fill="#6b4fa0" stroke="#d8c8ff"/>' + text(cx - 50, cy - 31.5, FRONTIER_MARK, 13, "#ffffff",
                                                                         "middle", "bold")))
    for i, token in enumerate(_list(sys_.get("wormhole"))):
        label, key = (ION_MARK, "ion-storm") if token == "ion-storm" else ("γ", "wormhole")
        out.append(svg_term(key, f'<circle data-mark="" cx="{cx + 50:.1f}" cy="{cy - 36 + 24 * i:.1f}" r="11" '
                            f'fill="#0f7c8c"/>' + text(cx + 50, cy - 31.5 + 24 * i, label, 12,
                                                       "#ffffff", "middle", "bold")))
    ships, forces = _dict(sys_.get("ships")), _dict(sys_.get("space_ground_forces"))
    present = sorted(set(ships) | set(forces), key=str)
    for i, pid in enumerate(present):
        x = cx + (i - (len(present) - 1) / 2) * 60
        label = f"{seat_mark(seats.get(pid, 0))} {ships.get(pid, 0)}/{forces.get(pid, 0)}"
        words = _("%(player)s: %(ships)s ships, %(forces)s ground forces in space", player=pid,
                  ships=ships.get(pid, 0), forces=forces.get(pid, 0))
        out.append(f'<g class="term" data-term="fleet" data-tip="{e(words)}"><title>{e(words)}</title>'
                   f'{_badge(x, cy - 42 + (i % 2) * 0, seats.get(pid, -1), label)}</g>')
    planets = _dict(view.get("planets"))
    names = [p for p in _list(sys_.get("planets")) if p in planets]
    for i, pid in enumerate(names):
        px = cx + (i - (len(names) - 1) / 2) * 52
        out += _planet(pid, sid, _dict(planets.get(pid)), seats, px, cy + 4)
    return out


def _planet(pid: str, sid: str, planet: dict, seats: dict, px: float, py: float) -> list:
    """A planet (a place): a disc in its controller's colour (dashed when exhausted) with R/I and traits."""
    controller = planet.get("controller")
    col = COLOURS[seats[controller] % 4] if controller in seats else "#3b4257"
    dash = ' stroke-dasharray="4,3"' if planet.get("exhausted") else ""
    traits = "".join(TRAIT_MARK.get(t, "?") for t in _list(planet.get("traits")))
    attachments = _list(planet.get("attachments"))
    state = ", " + _("exhausted") if planet.get("exhausted") else ""
    name = _("%(planet)s: %(r)s resources, %(i)s influence, controller %(owner)s%(state)s, attachments %(att)s",
             planet=title(pid), r=_num(planet.get("resources")), i=_num(planet.get("influence")),
             owner=controller or _("none"), state=state, att=", ".join(title(a) for a in attachments) or _("none"))
    owner = f"{seat_mark(seats[controller])} " if controller in seats else ""
    body = (hit(px, py) + f'<circle data-mark="" cx="{px:.1f}" cy="{py:.1f}" r="21" fill="{e(col)}" stroke="#e6e9f0" '
            f'stroke-width="2"{dash}/>'
            + text(px, py - 2, f"{_num(planet.get('resources'))}/{_num(planet.get('influence'))}", 12, ink(col),
                   "middle", "bold")
            + text(px, py + 13, (owner + traits).strip() or "–", 12, ink(col), "middle")
            + text(px, py + 36, _short_planet(pid, sid), 12, MUTED, "middle"))
    out = [place(f"planet:{pid}", name, body)]
    if attachments:
        out.append(svg_term("attachment", f'<rect data-mark="" x="{px + 14:.1f}" y="{py - 34:.1f}" width="16" '
                            f'height="16" fill="#f0c040"/>' + text(px + 22, py - 21, len(attachments), 12, "#000000",
                                                                   "middle", "bold")))
    for j, (owner_id, n) in enumerate(sorted(_dict(planet.get("ground_forces")).items(), key=lambda kv: str(kv[0]))):
        words = _("%(player)s: %(n)s ground forces on %(planet)s", player=owner_id, n=n, planet=title(pid))
        out.append(f'<g class="term" data-term="ground-forces" data-tip="{e(words)}"><title>{e(words)}</title>'
                   f'{_badge(px - 14 + 28 * j, py + 58, seats.get(owner_id, -1), f"{seat_mark(seats.get(owner_id, 0))}{n}")}</g>')
    return out


def _panel(view: dict, viewer, seats: dict) -> str:
    """One card per player: resources, influence, fragments, relics, technologies, VP; the turn marker."""
    out = []
    planets = _dict(view.get("planets"))
    active = _list(view.get("active_players"))
    for pid, p in _dict(view.get("players")).items():
        p = _dict(p)
        seat = seats.get(pid, 0)
        owned = [pl for pl in planets.values() if _dict(pl).get("controller") == pid]
        res = sum(_num(_dict(pl).get("resources")) for pl in owned)
        inf = sum(_num(_dict(pl).get("influence")) for pl in owned)
        frags = _dict(p.get("fragments"))
        relics = ", ".join(title(_dict(r).get("id", "?")) + (f" ({_('exhausted')})" if _dict(r).get("exhausted") else "")
                           for r in _list(p.get("relics"))) or _("none")
        playing = not view.get("finished")  # after the end nobody is to act
        marks = [m for m, on in ((_("▶ turn"), playing and pid == view.get("turn_player")),
                                 (_("to act"), playing and pid in active),
                                 (_("passed"), p.get("passed")), (_("you"), viewer is not None and pid == viewer)) if on]
        head = e(" · ".join([pid] + marks))
        rows = [f"{e(word(COLOUR_NAMES[seat % 4]))}, {term('home')} {e(title(p.get('home', '?')))} · "
                f"{term('vp')} {_num(p.get('score'))}",
                e(_("planets")) + ": " + term("resources", _("%(n)s resources", n=res)) + " / "
                + term("influence", _("%(n)s influence", n=inf)),
                f"{term('trade-goods')} {_num(p.get('trade_goods'))} · {term('commodities')} "
                f"{_num(p.get('commodities'))}/{_num(p.get('commodity_value'))} · {term('command-tokens')} "
                f"{_num(p.get('command_tokens'))}",
                f"{term('fragments')}: " + " · ".join(f"{TRAIT_MARK.get(k, '?')} {_num(frags.get(k))}" for k in
                                                     ("cultural", "industrial", "hazardous", "unknown")),
                f"{term('relics')}: {e(relics)}",
                f"{term('tech')}: {e(', '.join(title(t) for t in _list(p.get('technologies'))) or _('none'))}"
                f" · {term('devices')} {len(_list(p.get('devices')))}"]
        out.append(layout.seat_card(COLOURS[seat % 4], seat_mark(seat), head, rows, playing and pid in active,
                                    pid == viewer))
    return layout.seat_cards(out)


def _status_lines(view: dict) -> list:
    """The header lines: round, turn, step, a pending exploration or proposal, the decks (escaped HTML)."""
    step = (str(STEPS[view["step"]]) if view.get("step") in STEPS else step_words(view.get("step"))) \
        if view.get("step") else "-"
    rounds = {"round": view.get("round", "?"), "rounds": view.get("rounds", "?")}
    if view.get("finished"):  # nobody's turn, no step: the round the match ended in
        lines = ["<strong>" + e(_("Round %(round)s of %(rounds)s", **rounds)) + "</strong>"]
    else:
        lines = ["<strong>" + e(_("Round %(round)s of %(rounds)s · turn: %(player)s · now: %(step)s", **rounds,
                                  player=view.get("turn_player") or "-", step=step)) + "</strong>"]
    if view.get("finished"):
        result = _dict(view.get("result"))
        lines.append(e(_("Finished · winners: %(names)s", names=", ".join(map(str, _list(result.get("winners")))))))
    ex = view.get("exploration")
    if isinstance(ex, dict):
        target = title(ex.get("planet")) if ex.get("planet") else \
            _("the frontier in %(system)s", system=title(ex.get("system")))
        card = title(ex.get("card")) if ex.get("card") else \
            _("choose a deck (%(decks)s)", decks=", ".join(word(d) for d in _list(ex.get("decks"))))
        lines.append(e(_("Exploring %(target)s: %(card)s", target=target, card=card)))
    prop = view.get("proposal")
    if isinstance(prop, dict):
        def lot(x):
            x = _dict(x)
            return f"{x.get('count')} × {lot_item(x.get('item'))}" if x else _("nothing")
        lines.append(e(_("Offer %(from)s → %(to)s: gives %(give)s, asks %(ask)s", **{
            "from": prop.get("from"), "to": prop.get("to"), "give": lot(prop.get("give")), "ask": lot(prop.get("receive"))})))
    decks = _dict(view.get("decks"))
    lines.append(term("decks") + ": " + e(" · ".join(
        f"{word(k)} {_num(_dict(d).get('draw_count'))}+{len(_list(_dict(d).get('discard')))}" for k, d in decks.items())
        + " · " + _("relics %(n)s", n=_num(view.get("relic_deck_count")))))
    return lines


def _legend(seats: dict) -> str:
    """The legend: players' colours, planet marks, units and tokens, every term explained."""
    items = []
    for pid, seat in sorted(seats.items(), key=lambda kv: kv[1]):
        items.append(layout.swatch(COLOURS[seat % 4], seat_mark(seat), True) + " "
                     + e(f"{pid} ({word(COLOUR_NAMES[seat % 4])})"))
    mark = SEAT_MARK[0]
    items += [f"<strong>1/2</strong> {term('resources-influence')}"]
    items += [f"<strong>{TRAIT_MARK[k]}</strong> {term(k)}" for k in ("cultural", "hazardous", "industrial")]
    items += [f"<strong>- -</strong> {term('exhausted')}", f"<strong>{mark} 3/4</strong> {term('fleet')}",
              f"<strong>{mark}2</strong> {term('ground-forces')}",
              layout.swatch("#6b4fa0", FRONTIER_MARK, True) + " " + term("frontier"),
              layout.swatch("#0f7c8c", ION_MARK, True) + " " + term("ion-storm"),
              layout.swatch("#0f7c8c", "γ", True) + " " + term("wormhole"),
              layout.swatch("#f0c040", "1") + " " + term("attachment")]
    return layout.legend(_("Legend"), items)


def place_of(view: dict, command: dict):
    """(place key, payload field) of the system or planet a command names."""
    t, p = command["type"], command.get("payload") or {}
    if t == "activate_system":
        return f"system:{p['system']}", "system"
    if t == "move_ships":
        return f"system:{p['from']}", "from"
    if t in ("commit_ground_forces", "gain_control", "use_crown_of_emphidia", "use_nano_forge"):
        return f"planet:{p['planet']}", "planet"
    if t == "resolve_exploration" and p.get("system"):
        return f"system:{p['system']}", "system"
    return None


def render_board(view: dict, viewer) -> str:
    """The board as HTML drawn only from the view: status lines, the map in a panning frame, legend, cards."""
    view = view if isinstance(view, dict) else {}
    seats = _seats(view)
    systems = _dict(view.get("systems"))
    coords = [_centre(_num(_dict(s).get("q")), _num(_dict(s).get("r")), 0, 0) for s in systems.values()] or [(0, 0)]
    min_x = min(c[0] for c in coords) - HEX - 6
    min_y = min(c[1] for c in coords) - HEX - 6
    width = int(max(c[0] for c in coords) - min_x + HEX + 6)
    height = int(max(c[1] for c in coords) - min_y + HEX + 6)
    out = [f'<rect x="0" y="0" width="{width}" height="{height}" fill="{BG}"/>']
    for sid, sys_ in systems.items():
        out += _system(str(sid), _dict(sys_), view, seats, -min_x, -min_y, viewer)
    header = _status_lines(view)
    planets = _dict(view.get("planets"))
    owned = "; ".join(_("%(player)s controls %(planets)s", player=pid, planets=", ".join(
        title(n) for n, pl in planets.items() if _dict(pl).get("controller") == pid) or _("no planet")) for pid in seats)
    summary = _("Twilight Imperium exploration map.") + f" {owned}."
    svg = svg_root(width, height, _("Twilight Imperium exploration map"), summary, True, "".join(out), "board-map")
    return layout.board_set(GAME, "map", _("Twilight Imperium exploration board"),
                            [layout.lines(header), layout.map_frame(svg, _("Map (drag or scroll to pan)")),
                             _legend(seats), _panel(view, viewer, seats)])
