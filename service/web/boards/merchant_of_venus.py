"""Renders a Merchant of Venus view as an inline SVG board: the labelled map, ships, systems, a legend and a
panel per player."""
from __future__ import annotations

from domain.games.merchant_of_venus import data
from domain.games.merchant_of_venus.command_text import culture_name, item_name, square_label, square_name

from service.web.boards.svgkit import e, ink, mine_anchor, place, seat_letter, svg_root, text

SCALE, OX, OY = 38, 6, 96
MAP_W, MAP_H = 21 * SCALE, 16 * SCALE
WIDTH = int(MAP_W + 2 * OX)
FILL = {"blue": "#4a78c2", "yellow": "#e8c531", "red": "#d9483b"}
PLAYER_COLORS = ["#ff9f43", "#4cd137", "#c56cf0", "#48dbfb", "#ff6b81", "#f5f6fa"]
BG, INK, MUTED, PANEL = "#0b1020", "#ffffff", "#c8cfdb", "#1d2433"
LABEL = "#e8ecf3"
PANEL_W, PANEL_H = (WIDTH - 24) / 2, 178


def _xy(square: str) -> tuple[float, float]:
    sq = data.SQUARES.get(square)
    if not sq:
        return OX, OY
    return OX + (sq["x"] - 0.2) * SCALE, OY + (sq["y"] - 1.0) * SCALE


def _links() -> list[str]:
    out = []
    for a, b, cost in data.RAW["links"]:
        (x1, y1), (x2, y2) = _xy(a), _xy(b)
        colour, width, dash = ("#3ecf5a", 5, "") if cost == 2 else ("#7f8a99", 2, "")
        out.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{colour}" '
                   f'stroke-width="{width}"{dash}/>')
    return out


def _nav_labels() -> list[str]:
    """The dice values of each navigation exit, on its link; drawn after the squares so that none hides one."""
    out = []
    for nav, exits in data.NAV_EXITS.items():
        (x1, y1) = _xy(nav)
        for to, nums in exits.items():
            x2, y2 = _xy(to)
            mx, my = x1 + (x2 - x1) * 0.5, y1 + (y2 - y1) * 0.5
            out.append(f'<g pointer-events="none"><rect x="{mx - 13:.1f}" y="{my - 11:.1f}" width="26" height="16" '
                       f'rx="3" fill="#000"/>' + text(mx, my + 2, ",".join(map(str, nums)), 12, "#ffe066", "middle",
                                                      "bold") + "</g>")  # a tap goes through to the square
    return out


def _shape(sid: str, sq: dict, x: float, y: float, spaceports: dict, colours: dict) -> str:
    """The square's own shape (the first drawn element of its place)."""
    kind = sq["kind"]
    fill = FILL.get(sq["color"], "#4a78c2")
    if kind == "base":
        return f'<rect x="{x - 15:.1f}" y="{y - 15:.1f}" width="30" height="30" fill="#dddddd" stroke="#fff"/>'
    if kind == "city":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="13" fill="#8bd48b" stroke="#2e7d32" stroke-width="2"/>'
    if kind == "port":
        return f'<rect x="{x - 11:.1f}" y="{y - 11:.1f}" width="22" height="22" fill="#bbbbbb" stroke="#fff"/>'
    if kind == "nav":
        return f'<polygon points="{x},{y - 13} {x + 13},{y} {x},{y + 13} {x - 13},{y}" fill="#333" stroke="#fff"/>'
    if kind == "telegate":
        pts = " ".join(f"{x + dx},{y + dy}" for dx, dy in ((-8, -12), (8, -12), (14, 0), (8, 12), (-8, 12), (-14, 0)))
        return f'<polygon points="{pts}" fill="#6a1b9a" stroke="#fff"/>'
    if kind == "orbital":
        ring = colours.get(spaceports.get(sid), "#ffffff")
        width = 4 if sid in spaceports else 1.5
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="10" fill="{fill}" stroke="{ring}" stroke-width="{width}"/>'
    return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="{fill}" stroke="#223"/>'


_INNER = {"base": "GB", "city": "C", "port": "P", "nav": "N", "telegate": "T"}
_COLOUR_MARK = {"yellow": "y", "red": "r"}


def _square(sid: str, spaceports: dict, deeds: list, colours: dict) -> str:
    sq = data.SQUARES[sid]
    x, y = _xy(sid)
    kind = sq["kind"]
    body = _shape(sid, sq, x, y, spaceports, colours)
    inner = _INNER.get(kind) or _COLOUR_MARK.get(sq["color"], "")
    if kind == "telegate":
        inner = ",".join(map(str, data.TELEGATES.get(sid, [])))
    if inner:
        fill = {"base": "#dddddd", "city": "#8bd48b", "port": "#bbbbbb", "nav": "#333333",
                "telegate": "#6a1b9a"}.get(kind, FILL.get(sq["color"], "#4a78c2"))
        body += text(x, y + 4.5, inner, 12, ink(fill), "middle", "bold")
    body += f'<rect x="{x - 18:.1f}" y="{y + 12:.1f}" width="36" height="15" rx="3" fill="{BG}" opacity="0.8"/>' \
        + text(x, y + 24, square_label(sid), 12, LABEL, "middle")
    if sid in deeds:
        body += text(x + 16, y - 6, "$", 13, "#ffd54f", weight="bold")
    if sq["hazard"]:
        body += text(x, y - 15, f"!c{sq['hazard']}", 12, "#ff8a80", "middle", "bold")
    kind_name = {"space": f"{sq['color']} space"}.get(kind, kind)
    return place(f"square:{sid}", f"{square_name(sid)} ({kind_name}"
                                  f"{', hazard c' + str(sq['hazard']) if sq['hazard'] else ''})", body)


LABEL_H = 38  # the name line and a "(you saw …)" line


def _label_width(name: str) -> float:
    """Room for "<system>: <the longest culture name>" in 14 px bold."""
    longest = max(len(c["name"]) for c in data.CULTURES.values())
    return 8.2 * (len(name) + 2 + longest) + 12


def _label_spots() -> dict:
    """Top-left of each system's label: near its city or port, covering the fewest squares and labels."""
    obstacles = [(x - 18, y - 14, x + 18, y + 27) for x, y in (_xy(s) for s in data.SQUARE_ORDER)]
    spots = {}
    for sid, system in data.SYSTEMS.items():
        ax, ay = _xy(system["city"] or system["port"])
        w = _label_width(system["name"])

        def covered(x, y, w=w):
            return sum(1 for x0, y0, x1, y1 in obstacles if x0 < x + w and x < x1 and y0 < y + LABEL_H and y < y1)

        tries = [(ax + dx, ay + dy) for dy in (-96, -70, -44, 30, 44, 58, 72) for dx in (-w - 20, -w / 2, 20, -w + 30)]
        tries = [(x, y) for x, y in tries if OX <= x <= WIDTH - w - OX and OY - 30 <= y <= OY + MAP_H - LABEL_H]
        x, y = min(tries, key=lambda p: (covered(*p), abs(p[0] + w / 2 - ax) + abs(p[1] - ay)))
        spots[sid] = (x, y, w)
        obstacles.append((x, y, x + w, y + LABEL_H))
    return spots


LABEL_SPOTS = _label_spots()


def _systems(view: dict) -> list[str]:
    out = []
    systems = view.get("systems") or {}
    observed = view.get("observed") or {}
    for sid, system in data.SYSTEMS.items():
        x, y, w = LABEL_SPOTS[sid]
        info = systems.get(sid) or {}
        culture = info.get("culture_name") or info.get("culture")
        seen = observed.get(sid)
        second = f"(you saw {seen})" if isinstance(seen, str) and not culture else ""
        out.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.0f}" height="{LABEL_H if second else 21}" rx="4" '
                   f'fill="#000" opacity="0.85" class="label-ground"/>')
        out.append(text(x + 6, y + 16, f"{system['name']}: {culture or '?'}", 14, INK, "start", "bold"))
        if second:
            out.append(text(x + 6, y + 33, second, 12, "#ffd54f"))
    return out


def _ships(view: dict, colours: dict, seats: dict, viewer=None) -> list[str]:
    out = []
    states = view.get("player_states") or {}
    for i, (pid, ps) in enumerate(states.items()):
        x, y = _xy((ps or {}).get("square", ""))
        dx, dy = (i % 2) * 18 - 9, (i // 2) * 18 - 9
        col = colours.get(pid, "#ffffff")
        out.append(f'<g><title>{e(pid)}\'s ship</title><circle cx="{x + dx}" cy="{y + dy}" r="10" fill="{col}" '
                   f'stroke="#000" stroke-width="2"/>'
                   + text(x + dx, y + dy + 4.5, seats.get(pid, "?"), 12, ink(col), "middle", "bold") + "</g>")
        if viewer is not None and pid == viewer:
            out.append(mine_anchor(x + dx, y + dy))
    return out


def _panel(i: int, pid: str, ps: dict, view: dict, colour: str, letter: str, y0: float) -> list[str]:
    x, y = 8 + (i % 2) * (PANEL_W + 8), y0 + (i // 2) * (PANEL_H + 8)
    active = view.get("active") == pid
    out = [f'<rect x="{x}" y="{y}" width="{PANEL_W}" height="{PANEL_H}" rx="6" fill="{PANEL}" '
           f'stroke="{colour if active else "#555"}" stroke-width="{4 if active else 1}"/>',
           f'<circle cx="{x + 18}" cy="{y + 18}" r="11" fill="{colour}" stroke="#000"/>',
           text(x + 18, y + 23, letter, 13, ink(colour), "middle", "bold"),
           text(x + 36, y + 24, f"{pid} ({culture_name(ps.get('race'))})" + ("  ◀ to act" if active else ""), 15, INK, weight="bold")]
    cargo = ", ".join(item_name(c).split(" (")[0].replace("the ", "") for c in ps.get("cargo") or []) or "empty"
    equipment = [f"{ps.get('shields', 0)} shield(s)"] + [str(d).replace("drive:", "") + " drive"
                                                           for d in ps.get("drives") or []]
    deeds = [f"{culture_name(c)} factory" for c in ps.get("factories") or []] + \
        [f"spaceport on {square_name(s)}" for s in ps.get("spaceports") or []]
    lines = [f"c{ps.get('cash')} credits · net worth c{ps.get('net_worth')}",
             f"{ps.get('ship')} on {square_name(ps.get('square'))}",
             f"holds {ps.get('holds_used')}/{ps.get('holds')} · " + ", ".join(equipment),
             f"cargo: {cargo}", "IOUs: " + (", ".join(map(str, ps.get("ious") or [])) or "none"),
             "deeds: " + (", ".join(deeds) or "none"),
             "observed: " + (", ".join(data.SYSTEMS.get(s, {}).get("name", str(s))
                                       for s in ps.get("observed_systems") or []) or "none")]
    for k, line in enumerate(lines):
        out.append(text(x + 10, y + 46 + 19 * k, line[:54], 13, MUTED if k else INK))
    return out


def _legend(y: float, players: list, colours: dict, seats: dict) -> str:
    out = [text(OX + 4, y, "Legend:", 13, INK, weight="bold")]
    items = [("#dddddd", "GB", "Galactic Base"), ("#8bd48b", "C", "city"), ("#bbbbbb", "P", "spaceport"),
             ("#333333", "N", "navigation"), ("#6a1b9a", "T", "telegate"), ("#e8c531", "y", "yellow space"),
             ("#d9483b", "r", "red space")]
    x = OX + 70
    for fill, mark, label in items:
        out.append(f'<rect x="{x}" y="{y - 13}" width="20" height="18" rx="3" fill="{fill}" stroke="#fff"/>'
                   + text(x + 10, y + 1, mark, 12, ink(fill), "middle", "bold") + text(x + 24, y, label, 12, INK))
        x += 30 + len(label) * 6.6
    y2 = y + 22
    out.append(f'<line x1="{OX + 74}" y1="{y2 - 4}" x2="{OX + 104}" y2="{y2 - 4}" stroke="#3ecf5a" stroke-width="5"/>'
               + text(OX + 110, y2, "green link: 2 MP", 12, INK)
               + text(OX + 230, y2, "!c20: hazard fee · $: spaceport deed · 1,2: die values of a jump", 12, INK))
    x = OX + 4
    y3 = y + 44
    out.append(text(x, y3, "Ships:", 13, INK, weight="bold"))
    x += 52
    for pid in players:
        col = colours[pid]
        out.append(f'<circle cx="{x + 9}" cy="{y3 - 4}" r="9" fill="{col}" stroke="#000"/>'
                   + text(x + 9, y3, seats[pid], 12, ink(col), "middle", "bold") + text(x + 22, y3, pid, 13, INK))
        x += 40 + 9 * len(pid)
    return "".join(out)


def _header(view: dict, names_line: str) -> tuple[str, str]:
    turn = view.get("turn") or {}
    result = view.get("result")
    if result:
        line = "Finished: winner " + ", ".join(map(str, result.get("winners") or []))
    else:
        line = (f"Round {view.get('round')}/{view.get('max_rounds')} — {view.get('active')} to act "
                f"({view.get('phase')}{', free space' if view.get('free_space') else ''})")
    detail = ""
    if not result and turn.get("dice"):
        nav = turn.get("nav_value")
        detail = f"dice {', '.join(map(str, turn.get('dice')))} · navigation {'-' if nav is None else nav} · " \
                 f"{turn.get('mp')} MP left"
    if not result and turn.get("destination"):
        detail += f" · heading for {square_name(turn.get('destination'))}"
    svg = text(OX + 4, 24, line, 16, INK, weight="bold") + \
        text(OX + 4, 44, f"Target net worth c{view.get('target_net_worth')} · {names_line}", 13, MUTED) + \
        text(OX + 4, 64, detail.strip(" ·"), 13, INK)
    return svg, line


def place_of(view: dict, command: dict):
    """(place key, payload field) of the square a command names: a move's step, a declared destination."""
    t, p = command["type"], command.get("payload") or {}
    if t == "move":
        return f"square:{p['to']}", "to"
    if t == "declare_direction":
        return f"square:{p['destination']}", "destination"
    return None


def render_board(view: dict, viewer) -> str:
    """Draw the view as an inline SVG string (map, ships, systems, legend, per-player panels, whose turn)."""
    view = view if isinstance(view, dict) else {}
    players = [p for p in view.get("players") or [] if isinstance(p, str)]
    colours = {p: PLAYER_COLORS[i % len(PLAYER_COLORS)] for i, p in enumerate(players)}
    seats = {p: seat_letter(i) for i, p in enumerate(players)}
    spaceports = view.get("spaceports") or {}
    deeds = view.get("spaceport_deeds") or []
    states = view.get("player_states") or {}
    worth = " · ".join(f"{p} c{(states.get(p) or {}).get('net_worth', '?')}" for p in players)
    header, status = _header(view, worth)
    legend_y = OY + MAP_H + 6
    panels_y = legend_y + 60
    height = panels_y + ((len(states) + 1) // 2) * (PANEL_H + 8) + 8
    parts = [f'<rect width="{WIDTH}" height="{height}" fill="{BG}"/>', header]
    parts += _links()
    parts += [_square(s, spaceports, deeds, colours) for s in data.SQUARE_ORDER]
    parts += _nav_labels()
    parts += _systems(view)
    parts += _ships(view, colours, seats, viewer)
    parts.append(_legend(legend_y + 8, players, colours, seats))
    for i, (pid, ps) in enumerate(states.items()):
        parts += _panel(i, pid, ps if isinstance(ps, dict) else {}, view, colours.get(pid, "#fff"),
                        seats.get(pid, "?"), panels_y)
    summary = f"Merchant of Venus map. {status}. Net worth: {worth or 'none'}. " + " ".join(
        f"{p}'s ship is on {square_name((states.get(p) or {}).get('square'))}." for p in players)
    return svg_root(WIDTH, height, "Merchant of Venus board", summary, True, "".join(parts))
