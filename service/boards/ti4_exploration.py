"""SVG board for ti4-exploration: the hex map with planets, tokens and units, and a panel per player."""
from __future__ import annotations

import math
from html import escape

HEX = 58
PANEL_W = 330
COLOURS = ["#d64541", "#3a7bd5", "#2e9e5b", "#d4a017"]
NEUTRAL = "#8a8f98"
TRAIT_MARK = {"cultural": "C", "hazardous": "H", "industrial": "I"}


def _e(value) -> str:
    """Escape any value for SVG text or attributes."""
    return escape(str(value), quote=True)


def _num(value, default=0):
    """A number from the view, or a default."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _colour_map(view: dict) -> dict:
    """Player id -> colour by seat."""
    colours = {}
    for pid, p in _dict(view.get("players")).items():
        seat = _num(_dict(p).get("seat"), 1)
        colours[pid] = COLOURS[(int(seat) - 1) % len(COLOURS)]
    return colours


def _centre(q, r, ox, oy):
    """Pixel centre of an axial hex (pointy top)."""
    return ox + HEX * math.sqrt(3) * (q + r / 2), oy + HEX * 1.5 * r


def _hex_points(cx, cy) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{cx + (HEX - 2) * math.cos(a):.1f},{cy + (HEX - 2) * math.sin(a):.1f}")
    return " ".join(pts)


def _system(sid: str, sys_: dict, view: dict, colours: dict, ox: float, oy: float) -> list:
    """One hex: outline, name, tokens, ships and ground forces in space, and its planets."""
    out = []
    cx, cy = _centre(_num(sys_.get("q")), _num(sys_.get("r")), ox, oy)
    home_of = sys_.get("home_of")
    fill = "#1d2333"
    if sys_.get("frontier_token") is not None and not _list(sys_.get("planets")):
        fill = "#15192a"
    stroke = colours.get(home_of, "#4a5270")
    width = 2
    if view.get("active_system") == sid:
        stroke, width = "#ffffff", 4
    out.append(f'<polygon points="{_hex_points(cx, cy)}" fill="{fill}" stroke="{_e(stroke)}" '
               f'stroke-width="{width}"><title>{_e(sid)}</title></polygon>')
    out.append(f'<text x="{cx:.1f}" y="{cy - HEX + 16:.1f}" text-anchor="middle" font-size="10" '
               f'fill="#c8cedd">{_e(sid)}</text>')
    if sys_.get("frontier_token"):
        out.append(f'<circle cx="{cx - 30:.1f}" cy="{cy - 22:.1f}" r="7" fill="#6b4fa0" stroke="#d8c8ff"/>'
                   f'<text x="{cx - 30:.1f}" y="{cy - 19:.1f}" text-anchor="middle" font-size="8" '
                   f'fill="#fff">F</text>')
    for i, token in enumerate(_list(sys_.get("wormhole"))):
        label = "ion" if token == "ion-storm" else "γ"
        out.append(f'<circle cx="{cx + 30:.1f}" cy="{cy - 22 + 15 * i:.1f}" r="7" fill="#0f7c8c"/>'
                   f'<text x="{cx + 30:.1f}" y="{cy - 19 + 15 * i:.1f}" text-anchor="middle" font-size="7" '
                   f'fill="#fff">{_e(label)}</text>')
    ships, forces = _dict(sys_.get("ships")), _dict(sys_.get("space_ground_forces"))
    for i, pid in enumerate(sorted(set(ships) | set(forces), key=str)):
        x, y = cx - 10 + 26 * i, cy + 38
        col = colours.get(pid, NEUTRAL)
        out.append(f'<polygon points="{x:.1f},{y - 7:.1f} {x - 6:.1f},{y + 5:.1f} {x + 6:.1f},{y + 5:.1f}" '
                   f'fill="{_e(col)}"><title>{_e(pid)}: {_e(ships.get(pid, 0))} ships, '
                   f'{_e(forces.get(pid, 0))} ground forces in space</title></polygon>')
        out.append(f'<text x="{x + 8:.1f}" y="{y + 4:.1f}" font-size="9" fill="{_e(col)}">'
                   f'{_e(ships.get(pid, 0))}/{_e(forces.get(pid, 0))}</text>')
    planets = _dict(view.get("planets"))
    names = [p for p in _list(sys_.get("planets")) if p in planets]
    for i, pid in enumerate(names):
        px = cx + (i - (len(names) - 1) / 2) * 32
        out += _planet(pid, _dict(planets.get(pid)), colours, px, cy + 2)
    return out


def _planet(pid: str, planet: dict, colours: dict, px: float, py: float) -> list:
    """A planet disc in its controller's colour, dashed when exhausted, with R/I, traits and ground forces."""
    controller = planet.get("controller")
    col = colours.get(controller, NEUTRAL) if controller else "#3b4257"
    dash = ' stroke-dasharray="3,2"' if planet.get("exhausted") else ""
    traits = "".join(TRAIT_MARK.get(t, "?") for t in _list(planet.get("traits")))
    attachments = _list(planet.get("attachments"))
    title = (f"{pid}: {_num(planet.get('resources'))}R/{_num(planet.get('influence'))}I, controller "
             f"{controller or 'none'}, attachments {', '.join(map(str, attachments)) or 'none'}")
    out = [f'<circle cx="{px:.1f}" cy="{py:.1f}" r="13" fill="{_e(col)}" stroke="#e6e9f0" stroke-width="1.5"'
           f'{dash}><title>{_e(title)}</title></circle>',
           f'<text x="{px:.1f}" y="{py - 1:.1f}" text-anchor="middle" font-size="7" fill="#fff">'
           f'{_e(_num(planet.get("resources")))}/{_e(_num(planet.get("influence")))}</text>',
           f'<text x="{px:.1f}" y="{py + 8:.1f}" text-anchor="middle" font-size="6" fill="#fff">{_e(traits)}</text>',
           f'<text x="{px:.1f}" y="{py + 22:.1f}" text-anchor="middle" font-size="6" fill="#aab">'
           f'{_e(pid.split("-")[-1][:6])}</text>']
    if attachments:
        out.append(f'<rect x="{px + 8:.1f}" y="{py - 15:.1f}" width="9" height="9" fill="#f0c040">'
                   f'<title>{_e(", ".join(map(str, attachments)))}</title></rect>'
                   f'<text x="{px + 12.5:.1f}" y="{py - 8:.1f}" text-anchor="middle" font-size="7" '
                   f'fill="#000">{_e(len(attachments))}</text>')
    for j, (owner, n) in enumerate(sorted(_dict(planet.get("ground_forces")).items(), key=lambda kv: str(kv[0]))):
        out.append(f'<rect x="{px - 16 + 9 * j:.1f}" y="{py + 9:.1f}" width="8" height="7" '
                   f'fill="{_e(colours.get(owner, NEUTRAL))}" stroke="#000" stroke-width="0.5">'
                   f'<title>{_e(owner)}: {_e(n)} ground forces</title></rect>'
                   f'<text x="{px - 12 + 9 * j:.1f}" y="{py + 15:.1f}" text-anchor="middle" font-size="6" '
                   f'fill="#000">{_e(n)}</text>')
    return out


def _panel(view: dict, viewer, colours: dict, x: float, y0: float) -> list:
    """One block per player: resources, influence, fragments, relics, technologies, VP; the turn marker."""
    out = []
    planets = _dict(view.get("planets"))
    y = y0
    active = _list(view.get("active_players"))
    for pid, p in _dict(view.get("players")).items():
        p = _dict(p)
        col = colours.get(pid, NEUTRAL)
        owned = [pl for pl in planets.values() if _dict(pl).get("controller") == pid]
        res = sum(_num(_dict(pl).get("resources")) for pl in owned)
        inf = sum(_num(_dict(pl).get("influence")) for pl in owned)
        frags = _dict(p.get("fragments"))
        relics = ", ".join(str(_dict(r).get("id", "?")) + (" (exh.)" if _dict(r).get("exhausted") else "")
                           for r in _list(p.get("relics"))) or "none"
        marks = []
        if pid == view.get("turn_player"):
            marks.append("▶ turn")
        if pid in active:
            marks.append("to act")
        if p.get("passed"):
            marks.append("passed")
        if viewer is not None and pid == viewer:
            marks.append("you")
        out.append(f'<rect x="{x}" y="{y}" width="{PANEL_W - 20}" height="118" rx="6" fill="#20263a" '
                   f'stroke="{_e(col)}" stroke-width="{3 if pid == view.get("turn_player") else 1}"/>')
        lines = [
            f"{pid} (seat {p.get('seat', '?')}, {p.get('home', '?')})  {' · '.join(marks)}",
            f"VP {_num(p.get('score'))} · planets R {res} / I {inf}",
            f"TG {_num(p.get('trade_goods'))} · commodities {_num(p.get('commodities'))}/"
            f"{_num(p.get('commodity_value'))} · command tokens {_num(p.get('command_tokens'))}",
            f"fragments C{_num(frags.get('cultural'))} I{_num(frags.get('industrial'))} "
            f"H{_num(frags.get('hazardous'))} ?{_num(frags.get('unknown'))}",
            f"relics: {relics}",
            f"tech: {', '.join(map(str, _list(p.get('technologies')))) or 'none'}"
            f" · devices {len(_list(p.get('devices')))}",
        ]
        for i, line in enumerate(lines):
            fill = col if i == 0 else "#dde2ee"
            weight = ' font-weight="bold"' if i == 0 else ""
            out.append(f'<text x="{x + 8}" y="{y + 17 + 17 * i}" font-size="11" fill="{_e(fill)}"{weight}>'
                       f'{_e(line)}</text>')
        y += 126
    return out


def _status_lines(view: dict) -> list:
    """The header lines: round, turn, step, a pending exploration or proposal, the decks."""
    lines = [f"Round {view.get('round', '?')}/{view.get('rounds', '?')} · turn: {view.get('turn_player') or '-'}"
             f" · step: {view.get('step') or '-'}"]
    if view.get("finished"):
        result = _dict(view.get("result"))
        lines.append(f"Finished · winners: {', '.join(map(str, _list(result.get('winners'))))}")
    ex = view.get("exploration")
    if isinstance(ex, dict):
        target = ex.get("planet") or f"frontier in {ex.get('system')}"
        card = ex.get("card") or f"choose a deck ({', '.join(map(str, _list(ex.get('decks'))))})"
        lines.append(f"Exploring {target}: {card}")
    prop = view.get("proposal")
    if isinstance(prop, dict):
        def lot(x):
            x = _dict(x)
            return f"{x.get('count')} {x.get('item')}" if x else "nothing"
        lines.append(f"Proposal {prop.get('from')} → {prop.get('to')}: gives {lot(prop.get('give'))}, "
                     f"asks {lot(prop.get('receive'))}")
    decks = _dict(view.get("decks"))
    lines.append("Decks: " + " · ".join(f"{k} {_num(_dict(d).get('draw_count'))}"
                                        f"+{len(_list(_dict(d).get('discard')))}d" for k, d in decks.items())
                 + f" · relics {_num(view.get('relic_deck_count'))}")
    return lines


def render_board(view: dict, viewer) -> str:
    """The board as an inline SVG string, drawn only from the view."""
    view = view if isinstance(view, dict) else {}
    colours = _colour_map(view)
    systems = _dict(view.get("systems"))
    coords = [_centre(_num(_dict(s).get("q")), _num(_dict(s).get("r")), 0, 0) for s in systems.values()] or [(0, 0)]
    min_x = min(c[0] for c in coords) - HEX - 10
    min_y = min(c[1] for c in coords) - HEX - 10
    map_w = max(c[0] for c in coords) - min_x + HEX + 10
    map_h = max(c[1] for c in coords) - min_y + HEX + 10
    header = _status_lines(view)
    top = 20 + 16 * len(header)
    ox, oy = -min_x + 10, -min_y + top
    n_players = len(_dict(view.get("players")))
    width = int(map_w + PANEL_W + 20)
    height = int(max(map_h + top + 10, top + 126 * n_players + 20))
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
           f'aria-label="Twilight Imperium exploration board">',
           f'<rect x="0" y="0" width="{width}" height="{height}" fill="#0b0e17"/>']
    for i, line in enumerate(header):
        out.append(f'<text x="12" y="{20 + 16 * i}" font-size="12" fill="#f2f4f8">{_e(line)}</text>')
    for sid, sys_ in systems.items():
        out += _system(str(sid), _dict(sys_), view, colours, ox, oy)
    out += _panel(view, viewer, colours, map_w + 10, top)
    out.append("</svg>")
    return "".join(out)
