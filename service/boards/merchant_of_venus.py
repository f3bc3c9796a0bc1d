"""Renders a Merchant of Venus view as an inline SVG board: the map, ships, systems and a panel per player."""
from __future__ import annotations

from html import escape

from domain.games.merchant_of_venus import data

SCALE, OX, OY = 40, 30, 60
MAP_W = 21 * SCALE + OX
PANEL_X, PANEL_W, PANEL_H = MAP_W + 20, 330, 150
FILL = {"blue": "#4a78c2", "yellow": "#e8c531", "red": "#d9483b"}
PLAYER_COLORS = ["#ff7f0e", "#2ca02c", "#9467bd", "#17becf", "#8c564b", "#e377c2"]


def _e(value) -> str:
    """Escape any value for SVG text or attributes."""
    return escape(str(value), quote=True)


def _xy(square: str) -> tuple[float, float]:
    sq = data.SQUARES.get(square)
    if not sq:
        return OX, OY
    return OX + sq["x"] * SCALE, OY + sq["y"] * SCALE


def _text(x, y, text, size=10, anchor="middle", fill="#eee", weight="normal") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}" fill="{fill}" '
            f'font-weight="{weight}" font-family="sans-serif">{_e(text)}</text>')


def _links() -> list[str]:
    out = []
    for a, b, cost in data.RAW["links"]:
        (x1, y1), (x2, y2) = _xy(a), _xy(b)
        colour, width = ("#3ecf5a", 4) if cost == 2 else ("#7f8a99", 2)
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                   f'stroke-width="{width}"/>')
    for nav, exits in data.NAV_EXITS.items():
        (x1, y1) = _xy(nav)
        for to, nums in exits.items():
            x2, y2 = _xy(to)
            out.append(_text(x1 + (x2 - x1) * 0.5, y1 + (y2 - y1) * 0.5 - 3, ",".join(map(str, nums)), 9, fill="#fff"))
    return out


def _square(sid: str, spaceports: dict, deeds: list, colours: dict) -> str:
    sq = data.SQUARES[sid]
    x, y = _xy(sid)
    fill = FILL.get(sq["color"], "#4a78c2")
    kind = sq["kind"]
    title = f"<title>{_e(sid)} ({_e(kind)})</title>"
    if kind == "base":
        shape = f'<rect x="{x - 14:.1f}" y="{y - 14:.1f}" width="28" height="28" fill="#ddd" stroke="#fff"/>'
        shape += _text(x, y + 4, "GB", 10, fill="#222", weight="bold")
    elif kind == "city":
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="#8bd48b" stroke="#2e7d32" stroke-width="2"/>'
    elif kind == "port":
        shape = f'<rect x="{x - 10:.1f}" y="{y - 10:.1f}" width="20" height="20" fill="#bbb" stroke="#fff"/>'
    elif kind == "nav":
        pts = f"{x},{y - 12} {x + 12},{y} {x},{y + 12} {x - 12},{y}"
        shape = f'<polygon points="{pts}" fill="#333" stroke="#fff"/>' + _text(x, y + 4, "N", 10)
    elif kind == "telegate":
        pts = " ".join(f"{x + dx},{y + dy}" for dx, dy in ((-8, -12), (8, -12), (14, 0), (8, 12), (-8, 12), (-14, 0)))
        nums = ",".join(map(str, data.TELEGATES.get(sid, [])))
        shape = f'<polygon points="{pts}" fill="#6a1b9a" stroke="#fff"/>' + _text(x, y + 4, nums, 9)
    elif kind == "orbital":
        ring = colours.get(spaceports.get(sid), "#fff")
        width = 4 if sid in spaceports else 1.5
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="10" fill="{fill}" stroke="{ring}" stroke-width="{width}"/>'
        if sid in deeds:
            shape += _text(x + 13, y - 8, "$", 10, fill="#ffd54f", weight="bold")
    else:
        shape = f'<circle cx="{x:.1f}" cy="{y:.1f}" r="8" fill="{fill}" stroke="#223"/>'
    if sq["hazard"]:
        shape += _text(x, y - 13, f"!c{sq['hazard']}", 9, fill="#ff5252", weight="bold")
    return f"<g>{title}{shape}</g>"


def _systems(view: dict) -> list[str]:
    out = []
    systems = view.get("systems") or {}
    observed = view.get("observed") or {}
    for sid, system in data.SYSTEMS.items():
        anchor = system["city"] or system["port"]
        x, y = _xy(anchor)
        info = systems.get(sid) or {}
        culture = info.get("culture_name") or info.get("culture")
        label = f"{system['name']}: {culture}" if culture else f"{system['name']}: ?"
        out.append(_text(x, y + 24, label, 10, fill="#fff", weight="bold"))
        seen = observed.get(sid)
        hidden = (view.get("placement") or {}).get(sid) if isinstance(view.get("placement"), dict) else None
        if hidden and not culture:
            out.append(_text(x, y + 36, f"(face down: {hidden})", 9, fill="#ffd54f"))
        elif isinstance(seen, str) and not culture:
            out.append(_text(x, y + 36, f"(you saw {seen})", 9, fill="#ffd54f"))
        by = info.get("observed_by") or []
        if by and not culture:
            out.append(_text(x, y + 47, "observed by " + ", ".join(map(str, by)), 8, fill="#bbb"))
    return out


def _ships(view: dict, colours: dict) -> list[str]:
    out = []
    states = view.get("player_states") or {}
    for i, (pid, ps) in enumerate(states.items()):
        x, y = _xy((ps or {}).get("square", ""))
        dx, dy = (i % 2) * 12 - 6, (i // 2) * 12 - 6
        out.append(f'<g><title>{_e(pid)}</title><polygon points="{x + dx},{y + dy - 7} {x + dx + 6},{y + dy + 5} '
                   f'{x + dx - 6},{y + dy + 5}" fill="{colours.get(pid, "#fff")}" stroke="#000"/></g>')
    return out


def _panel(i: int, pid: str, ps: dict, view: dict, colour: str) -> list[str]:
    x, y = PANEL_X, OY + i * (PANEL_H + 8)
    active = view.get("active") == pid
    out = [f'<rect x="{x}" y="{y}" width="{PANEL_W}" height="{PANEL_H}" rx="6" fill="#1d2433" '
           f'stroke="{colour if active else "#555"}" stroke-width="{3 if active else 1}"/>',
           _text(x + 10, y + 18, f"{pid} ({ps.get('race')})" + ("  ◀ to move" if active else ""), 13, "start",
                 colour, "bold"),
           _text(x + 10, y + 36, f"credits c{ps.get('cash')}   net worth c{ps.get('net_worth')}", 11, "start"),
           _text(x + 10, y + 52, f"ship {ps.get('ship')} on {ps.get('square')}   holds "
                                 f"{ps.get('holds_used')}/{ps.get('holds')}", 11, "start")]
    cargo = ", ".join(map(str, ps.get("cargo") or [])) or "empty"
    equipment = [f"{ps.get('shields', 0)} shield(s)"] + list(map(str, ps.get("drives") or []))
    deeds = [f"factory {c}" for c in ps.get("factories") or []] + [f"port {s}" for s in ps.get("spaceports") or []]
    out += [_text(x + 10, y + 70, f"cargo: {cargo}"[:60], 10, "start"),
            _text(x + 10, y + 86, "equipment: " + ", ".join(equipment), 10, "start"),
            _text(x + 10, y + 102, "IOUs: " + (", ".join(map(str, ps.get("ious") or [])) or "none"), 10, "start"),
            _text(x + 10, y + 118, ("deeds: " + (", ".join(deeds) or "none"))[:60], 10, "start"),
            _text(x + 10, y + 134, "observed: " + (", ".join(map(str, ps.get("observed_systems") or [])) or "-"),
                  10, "start")]
    return out


def _header(view: dict) -> str:
    turn = view.get("turn") or {}
    result = view.get("result")
    if result:
        line = "Finished: winner " + ", ".join(map(str, result.get("winners") or []))
    else:
        line = (f"Round {view.get('round')}/{view.get('max_rounds')} — {view.get('active')} to act "
                f"({view.get('phase')}{', free space' if view.get('free_space') else ''})")
        if turn.get("dice"):
            nav = turn.get("nav_value")
            line += f" — dice {turn.get('dice')} nav {'-' if nav is None else nav} MP {turn.get('mp')}"
        if turn.get("destination"):
            line += f" → {turn.get('destination')}"
    return _text(OX, 30, line, 15, "start", "#fff", "bold") + _text(
        OX, 48, f"Target net worth c{view.get('target_net_worth')}", 11, "start", "#bbb")


def render_board(view: dict, viewer) -> str:
    """Draw the view as an inline SVG string (map, ships, systems, per-player panels, whose turn)."""
    view = view if isinstance(view, dict) else {}
    players = [p for p in view.get("players") or [] if isinstance(p, str)]
    colours = {p: PLAYER_COLORS[i % len(PLAYER_COLORS)] for i, p in enumerate(players)}
    spaceports = view.get("spaceports") or {}
    deeds = view.get("spaceport_deeds") or []
    states = view.get("player_states") or {}
    height = max(OY + 16 * SCALE, OY + len(states) * (PANEL_H + 8) + 20)
    width = PANEL_X + PANEL_W + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" role="img" aria-label="Merchant of Venus board">',
             f'<rect width="{width}" height="{height}" fill="#0b1020"/>', _header(view)]
    parts += _links()
    parts += [_square(s, spaceports, deeds, colours) for s in data.SQUARE_ORDER]
    parts += _systems(view)
    parts += _ships(view, colours)
    for i, (pid, ps) in enumerate(states.items()):
        parts += _panel(i, pid, ps if isinstance(ps, dict) else {}, view, colours.get(pid, "#fff"))
    if viewer is not None:
        parts.append(_text(PANEL_X, height - 8, f"viewing as {viewer}", 10, "start", "#888"))
    parts.append("</svg>")
    return "".join(parts)
