"""SVG board for ti4-exploration: the labelled hex map with planets, tokens and units, a legend, and a panel
per player."""
from __future__ import annotations

import math

from domain.games.ti4_exploration.command_text import step_words, title

from service.web.boards.svgkit import e, ink, mine_anchor, place, seat_letter, svg_root, text

HEX = 88
COLOURS = ["#d64541", "#3a7bd5", "#2e9e5b", "#d4a017"]
COLOUR_NAMES = ["red", "blue", "green", "yellow"]
NEUTRAL = "#5b6275"
BG, INK, MUTED, HEX_FILL = "#0b0e17", "#ffffff", "#c9cfdc", "#1d2333"
TRAIT_MARK = {"cultural": "C", "hazardous": "H", "industrial": "I"}
PANEL_H = 150


def _num(value, default=0):
    """A number from the view, or a default."""
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else default


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _list(value) -> list:
    return value if isinstance(value, list) else []


def _seats(view: dict) -> dict:
    """Player id -> seat index (0-based)."""
    return {pid: int(_num(_dict(p).get("seat"), 1)) - 1 for pid, p in _dict(view.get("players")).items()}


def _centre(q, r, ox, oy):
    """Pixel centre of an axial hex (pointy top)."""
    return ox + HEX * math.sqrt(3) * (q + r / 2), oy + HEX * 1.5 * r


def _hex_points(cx, cy) -> str:
    pts = []
    for i in range(6):
        a = math.radians(60 * i - 30)
        pts.append(f"{cx + (HEX - 2) * math.cos(a):.1f},{cy + (HEX - 2) * math.sin(a):.1f}")
    return " ".join(pts)


def _short_planet(pid: str, sid: str) -> str:
    """A planet's label inside its system ("Prime", "Veil", "II"); the full name is its tooltip."""
    full = title(pid)
    system = title(sid)
    return full[len(system):].strip() or full if full.startswith(system) else full


def _badge(x, y, seat: int, label: str) -> str:
    """A seat-coloured pill with the seat letter and a count."""
    col = COLOURS[seat % len(COLOURS)] if seat >= 0 else NEUTRAL
    w = 12 + 7.5 * len(label)
    return (f'<rect x="{x - w / 2:.1f}" y="{y - 13:.1f}" width="{w:.1f}" height="18" rx="9" fill="{col}" stroke="#000"/>'
            + text(x, y + 1, label, 12, ink(col), "middle", "bold"))


def _system(sid: str, sys_: dict, view: dict, seats: dict, ox: float, oy: float, viewer=None) -> list:
    """One hex (a place), then its tokens, units in space and planets (places of their own)."""
    cx, cy = _centre(_num(sys_.get("q")), _num(sys_.get("r")), ox, oy)
    home_of = sys_.get("home_of")
    stroke, width = (COLOURS[seats[home_of] % 4], 4) if home_of in seats else ("#4a5270", 2)
    if view.get("active_system") == sid:
        stroke, width = "#ffffff", 6
    name = title(sid)
    home = f", home of {home_of}" if home_of else ""
    hexagon = (f'<polygon points="{_hex_points(cx, cy)}" fill="{HEX_FILL}" stroke="{e(stroke)}" '
               f'stroke-width="{width}"/>' + text(cx, cy - HEX + 34, name, 14, INK, "middle", "bold"))
    out = [place(f"system:{sid}", f"{name} (system{home})", hexagon)]
    if viewer is not None and home_of == viewer:
        out.append(mine_anchor(cx, cy))
    if sys_.get("frontier_token"):
        out.append(f'<circle cx="{cx - 44:.1f}" cy="{cy - 28:.1f}" r="11" fill="#6b4fa0" stroke="#d8c8ff"/>'
                   + text(cx - 44, cy - 23.5, "F", 13, "#ffffff", "middle", "bold"))
    for i, token in enumerate(_list(sys_.get("wormhole"))):
        label = "ion" if token == "ion-storm" else "γ"
        out.append(f'<circle cx="{cx + 44:.1f}" cy="{cy - 28 + 24 * i:.1f}" r="11" fill="#0f7c8c"/>'
                   + text(cx + 44, cy - 23.5 + 24 * i, label, 12, "#ffffff", "middle", "bold"))
    ships, forces = _dict(sys_.get("ships")), _dict(sys_.get("space_ground_forces"))
    present = sorted(set(ships) | set(forces), key=str)
    for i, pid in enumerate(present):
        x = cx + (i - (len(present) - 1) / 2) * 64
        out.append(f'<g><title>{e(pid)}: {e(ships.get(pid, 0))} ships, {e(forces.get(pid, 0))} ground forces in '
                   f'space</title>{_badge(x, cy - 36, seats.get(pid, -1), f"{seat_letter(seats.get(pid, 0))} {ships.get(pid, 0)}/{forces.get(pid, 0)}")}</g>')
    planets = _dict(view.get("planets"))
    names = [p for p in _list(sys_.get("planets")) if p in planets]
    for i, pid in enumerate(names):
        px = cx + (i - (len(names) - 1) / 2) * 48
        out += _planet(pid, sid, _dict(planets.get(pid)), seats, px, cy - 2)
    return out


def _planet(pid: str, sid: str, planet: dict, seats: dict, px: float, py: float) -> list:
    """A planet (a place): a disc in its controller's colour (dashed when exhausted) with R/I and traits."""
    controller = planet.get("controller")
    col = COLOURS[seats[controller] % 4] if controller in seats else "#3b4257"
    dash = ' stroke-dasharray="4,3"' if planet.get("exhausted") else ""
    traits = "".join(TRAIT_MARK.get(t, "?") for t in _list(planet.get("traits")))
    attachments = _list(planet.get("attachments"))
    name = (f"{title(pid)}: {_num(planet.get('resources'))} resources, {_num(planet.get('influence'))} influence, "
            f"controller {controller or 'none'}{', exhausted' if planet.get('exhausted') else ''}, attachments "
            f"{', '.join(title(a) for a in attachments) or 'none'}")
    owner = f"{seat_letter(seats[controller])} " if controller in seats else ""
    body = (f'<circle cx="{px:.1f}" cy="{py:.1f}" r="21" fill="{e(col)}" stroke="#e6e9f0" stroke-width="2"{dash}/>'
            + text(px, py - 2, f"{_num(planet.get('resources'))}/{_num(planet.get('influence'))}", 12, ink(col),
                   "middle", "bold")
            + text(px, py + 13, (owner + traits).strip() or "–", 12, ink(col), "middle")
            + text(px, py + 36, _short_planet(pid, sid), 12, MUTED, "middle"))
    out = [place(f"planet:{pid}", name, body)]
    if attachments:
        out.append(f'<g><title>{e(", ".join(title(a) for a in attachments))}</title>'
                   f'<rect x="{px + 12:.1f}" y="{py - 30:.1f}" width="16" height="16" fill="#f0c040"/>'
                   + text(px + 20, py - 17, len(attachments), 12, "#000000", "middle", "bold") + "</g>")
    for j, (owner_id, n) in enumerate(sorted(_dict(planet.get("ground_forces")).items(), key=lambda kv: str(kv[0]))):
        out.append(f'<g><title>{e(owner_id)}: {e(n)} ground forces on {e(title(pid))}</title>'
                   f'{_badge(px - 14 + 28 * j, py + 56, seats.get(owner_id, -1), f"{seat_letter(seats.get(owner_id, 0))}{n}")}</g>')
    return out


def _panel(view: dict, viewer, seats: dict, y0: float, width: float) -> list:
    """One block per player: resources, influence, fragments, relics, technologies, VP; the turn marker."""
    out = []
    planets = _dict(view.get("planets"))
    active = _list(view.get("active_players"))
    pw = (width - 24) / 2
    for k, (pid, p) in enumerate(_dict(view.get("players")).items()):
        p = _dict(p)
        seat = seats.get(pid, 0)
        col = COLOURS[seat % 4]
        x, y = 8 + (k % 2) * (pw + 8), y0 + (k // 2) * (PANEL_H + 8)
        owned = [pl for pl in planets.values() if _dict(pl).get("controller") == pid]
        res = sum(_num(_dict(pl).get("resources")) for pl in owned)
        inf = sum(_num(_dict(pl).get("influence")) for pl in owned)
        frags = _dict(p.get("fragments"))
        relics = ", ".join(title(_dict(r).get("id", "?")) + (" (exhausted)" if _dict(r).get("exhausted") else "")
                           for r in _list(p.get("relics"))) or "none"
        marks = [m for m, on in (("▶ turn", pid == view.get("turn_player")), ("to act", pid in active),
                                 ("passed", p.get("passed")), ("you", viewer is not None and pid == viewer)) if on]
        out.append(f'<rect x="{x}" y="{y}" width="{pw}" height="{PANEL_H}" rx="6" fill="#20263a" stroke="{col}" '
                   f'stroke-width="{4 if pid == view.get("turn_player") else 1.5}"/>'
                   f'<circle cx="{x + 18}" cy="{y + 19}" r="11" fill="{col}" stroke="#000"/>'
                   + text(x + 18, y + 24, seat_letter(seat), 13, ink(col), "middle", "bold")
                   + text(x + 36, y + 25, f"{pid} · {' · '.join(marks)}".strip(" ·"), 15, INK, weight="bold"))
        lines = [f"{COLOUR_NAMES[seat % 4]}, home {title(p.get('home', '?'))} · VP {_num(p.get('score'))}",
                 f"planets: {res} resources / {inf} influence",
                 f"trade goods {_num(p.get('trade_goods'))} · commodities {_num(p.get('commodities'))}/"
                 f"{_num(p.get('commodity_value'))} · tokens {_num(p.get('command_tokens'))}",
                 f"fragments: C {_num(frags.get('cultural'))} · I {_num(frags.get('industrial'))} · "
                 f"H {_num(frags.get('hazardous'))} · ? {_num(frags.get('unknown'))}",
                 f"relics: {relics}",
                 f"tech: {', '.join(title(t) for t in _list(p.get('technologies'))) or 'none'}"
                 f" · devices {len(_list(p.get('devices')))}"]
        for i, line in enumerate(lines):
            out.append(text(x + 10, y + 48 + 17 * i, line[:52], 13, MUTED if i else INK))
    return out


def _status_lines(view: dict) -> list:
    """The header lines: round, turn, step, a pending exploration or proposal, the decks."""
    lines = [f"Round {view.get('round', '?')}/{view.get('rounds', '?')} · turn: {view.get('turn_player') or '-'}"
             f" · now: {step_words(view.get('step')) if view.get('step') else '-'}"]
    if view.get("finished"):
        result = _dict(view.get("result"))
        lines.append(f"Finished · winners: {', '.join(map(str, _list(result.get('winners'))))}")
    ex = view.get("exploration")
    if isinstance(ex, dict):
        target = title(ex.get("planet")) if ex.get("planet") else f"the frontier in {title(ex.get('system'))}"
        card = title(ex.get("card")) if ex.get("card") else \
            f"choose a deck ({', '.join(map(str, _list(ex.get('decks'))))})"
        lines.append(f"Exploring {target}: {card}")
    prop = view.get("proposal")
    if isinstance(prop, dict):
        def lot(x):
            x = _dict(x)
            return f"{x.get('count')} {str(x.get('item')).replace('_', ' ')}" if x else "nothing"
        lines.append(f"Offer {prop.get('from')} → {prop.get('to')}: gives {lot(prop.get('give'))}, "
                     f"asks {lot(prop.get('receive'))}")
    decks = _dict(view.get("decks"))
    lines.append("Decks (draw + discard): " + " · ".join(
        f"{k} {_num(_dict(d).get('draw_count'))}+{len(_list(_dict(d).get('discard')))}" for k, d in decks.items())
        + f" · relics {_num(view.get('relic_deck_count'))}")
    return lines


def _legend(x, y, view: dict, seats: dict) -> str:
    out = [text(x, y, "Legend:", 13, INK, weight="bold")]
    lx = x + 64
    for pid, seat in sorted(seats.items(), key=lambda kv: kv[1]):
        col = COLOURS[seat % 4]
        out.append(f'<circle cx="{lx + 9}" cy="{y - 4}" r="10" fill="{col}" stroke="#000"/>'
                   + text(lx + 9, y + 0.5, seat_letter(seat), 12, ink(col), "middle", "bold")
                   + text(lx + 23, y, f"{pid} ({COLOUR_NAMES[seat % 4]})", 13, INK))
        lx += 40 + 8 * (len(pid) + len(COLOUR_NAMES[seat % 4]))
    out.append(text(x, y + 20, "Planet: resources/influence, owner letter, traits C cultural H hazardous "
                               "I industrial; dashed = exhausted", 12, MUTED))
    out.append(text(x, y + 38, "A 3/4: seat A has 3 ships / 4 ground forces in space · A2: ground forces on a "
                               "planet · F frontier · γ wormhole", 12, MUTED))
    return "".join(out)


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
    """The board as an inline SVG string, drawn only from the view."""
    view = view if isinstance(view, dict) else {}
    seats = _seats(view)
    systems = _dict(view.get("systems"))
    coords = [_centre(_num(_dict(s).get("q")), _num(_dict(s).get("r")), 0, 0) for s in systems.values()] or [(0, 0)]
    min_x = min(c[0] for c in coords) - HEX - 10
    min_y = min(c[1] for c in coords) - HEX - 10
    map_w = max(c[0] for c in coords) - min_x + HEX + 10
    map_h = max(c[1] for c in coords) - min_y + HEX + 10
    header = _status_lines(view)
    top = 16 + 19 * len(header) + 60
    ox, oy = -min_x + 10, -min_y + top
    width = max(int(map_w + 20), 720)
    n_players = len(_dict(view.get("players")))
    panels_y = top + map_h + 4
    height = int(panels_y + ((n_players + 1) // 2) * (PANEL_H + 8) + 8)
    out = [f'<rect x="0" y="0" width="{width}" height="{height}" fill="{BG}"/>']
    for i, line in enumerate(header):
        out.append(text(12, 22 + 19 * i, line, 14 if i else 15, INK, weight="normal" if i else "bold"))
    out.append(_legend(12, 22 + 19 * len(header) + 6, view, seats))
    for sid, sys_ in systems.items():
        out += _system(str(sid), _dict(sys_), view, seats, ox, oy, viewer)
    out += _panel(view, viewer, seats, panels_y, width)
    planets = _dict(view.get("planets"))
    owned = "; ".join(f"{pid} controls " + (", ".join(title(n) for n, pl in planets.items()
                                                       if _dict(pl).get("controller") == pid) or "no planet")
                      for pid in seats)
    summary = f"Twilight Imperium exploration map. {header[0]}. {owned}."
    return svg_root(width, height, "Twilight Imperium exploration board", summary, True, "".join(out))
