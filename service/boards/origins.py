"""Origins: First Builders board: an inline SVG drawn from a player's (or spectator's) view dict."""
from __future__ import annotations

import html

FILL = {"blue": "#3b6fd6", "orange": "#e8892b", "purple": "#8a4fc4", "red": "#d23c3c", "yellow": "#e6c229",
        "grey": "#9a9a9a", "farm": "#7fae55"}
PLAYER_MARK = ["#111111", "#f5f5f5", "#1f9e89", "#c2185b"]
W = 1240
CELL = 34


def _e(value) -> str:
    """Escape any value for SVG text or an attribute."""
    return html.escape(str(value), quote=True)


def _text(x, y, s, size=12, anchor="start", weight="normal", fill="#222"):
    return (f'<text x="{x}" y="{y}" font-size="{size}" text-anchor="{anchor}" font-weight="{weight}" '
            f'fill="{fill}">{_e(s)}</text>')


def _rect(x, y, w, h, fill, stroke="#444", rx=3, extra=""):
    return f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{_e(fill)}" stroke="{stroke}" {extra}/>'


def _die(x, y, die, size=26, used=False):
    """A die square with its value; `die` may be None (an empty slot)."""
    if not isinstance(die, dict):
        return _rect(x, y, size, size, "#ffffff", stroke="#bbb", extra='stroke-dasharray="3 2"')
    fill = FILL.get(die.get("colour"), "#ccc")
    opacity = ' opacity="0.45"' if used else ""
    return (f'<g{opacity}>' + _rect(x, y, size, size, fill) +
            _text(x + size / 2, y + size * 0.68, die.get("value", "?"), 14, "middle", "bold", "#fff") + "</g>")


def _name_of(names, pid):
    return names.get(pid, pid) if isinstance(names, dict) else pid


def _sites(view, y):
    out = [_text(10, y - 6, "Sites (dial, bonus token)", 13, weight="bold")]
    visit = view.get("visit") or {}
    for i, (sid, site) in enumerate((view.get("sites") or {}).items()):
        x = 10 + i * 150
        stroke = "#000" if visit.get("site") == sid else "#444"
        out.append(_rect(x, y, 140, 58, FILL.get(site.get("colour"), "#ccc"), stroke=stroke,
                         extra='stroke-width="3"' if visit.get("site") == sid else ""))
        out.append(_text(x + 6, y + 16, sid, 12, weight="bold", fill="#fff"))
        out.append(_text(x + 6, y + 34, f"dial {site.get('dial', '?')}", 12, fill="#fff"))
        out.append(_text(x + 6, y + 50, f"token {site.get('token', '?')}", 11, fill="#fff"))
    return out


def _rows(view, y):
    out = [_text(780, y - 6, "Citizen row (wisdom cost)", 13, weight="bold")]
    for i, slot in enumerate(view.get("citizen_row") or []):
        x = 780 + i * 40
        out.append(_die(x, y, slot.get("die")))
        out.append(_text(x + 13, y + 42, f"{slot.get('cost', '')}w", 11, "middle"))
    out.append(_text(1000, y - 6, "Orator row", 13, weight="bold"))
    for i, slot in enumerate(view.get("orator_row") or []):
        out.append(_die(1000 + i * 40, y, slot.get("die")))
    return out


def _market(view, y):
    out = [_text(10, y - 6, f"Market (stack {view.get('stack_count', '?')})", 13, weight="bold")]
    for i, tile in enumerate(view.get("market") or []):
        x = 10 + i * 130
        if not isinstance(tile, dict):
            out.append(_rect(x, y, 120, 44, "#fff", stroke="#bbb", extra='stroke-dasharray="3 2"'))
            continue
        out.append(_rect(x, y, 120, 44, FILL.get(tile.get("colour"), "#ccc")))
        out.append(_text(x + 6, y + 17, tile.get("tile", "?"), 12, weight="bold", fill="#fff"))
        out.append(_text(x + 6, y + 35, f"{tile.get('wisdom', '?')} wisdom / {tile.get('stone', '?')} stone",
                         11, fill="#fff"))
    out.append(_text(540, y - 6, "District cards (gold)", 13, weight="bold"))
    for i, card in enumerate(view.get("district_cards") or []):
        x = 540 + i * 110
        out.append(_rect(x, y, 100, 44, "#f3ead2"))
        out.append(_text(x + 6, y + 17, f"{card.get('id', '?')}: {card.get('gold', '?')} gold", 12, weight="bold"))
        out.append(_text(x + 6, y + 35, " + ".join(str(n) for n in card.get("needs") or []), 11))
    return out


def _tracks(view, seats, y):
    out = [_text(880, y - 6, "War track", 13, weight="bold")]
    players = view.get("players") or {}
    for pos in range(11):
        out.append(_rect(880 + pos * 30, y, 28, 22, "#f0d0d0" if pos in (3, 6, 9) else "#fafafa"))
        out.append(_text(894 + pos * 30, y + 15, pos, 10, "middle"))
    for k, pid in enumerate(seats):
        war = (players.get(pid) or {}).get("war", 0)
        out.append(f'<circle cx="{884 + (war if isinstance(war, int) else 0) * 30 + k * 6}" cy="{y + 30}" r="5" '
                   f'fill="{PLAYER_MARK[k % len(PLAYER_MARK)]}" stroke="#333"><title>{_e(pid)}</title></circle>')
    return out


def _temples(view, seats, y):
    out = [_text(10, y - 6, "Temples (0-8)", 13, weight="bold")]
    players = view.get("players") or {}
    counts = view.get("zodiac_deck_counts") or {}
    for t_i, temple in enumerate(("sea", "forest", "mountain")):
        ty = y + t_i * 30
        out.append(_text(10, ty + 15, f"{temple} ({counts.get(temple, '?')} cards)", 11))
        for pos in range(9):
            out.append(_rect(120 + pos * 30, ty, 28, 22, "#eef3fb"))
            out.append(_text(134 + pos * 30, ty + 15, pos, 10, "middle"))
        for k, pid in enumerate(seats):
            value = ((players.get(pid) or {}).get("temples") or {}).get(temple, 0)
            value = value if isinstance(value, int) else 0
            out.append(f'<circle cx="{124 + value * 30 + k * 6}" cy="{ty + 27}" r="4" '
                       f'fill="{PLAYER_MARK[k % len(PLAYER_MARK)]}" stroke="#333"><title>{_e(pid)}</title></circle>')
    return out


def _city(p, x, y):
    out = []
    rows, cols = "ABCDE", "12345"
    city = p.get("city") or {}
    for r, row in enumerate(rows):
        out.append(_text(x - 10, y + r * CELL + 21, row, 10, "middle"))
        for c, col in enumerate(cols):
            cell = f"{row}{col}"
            entry = city.get(cell)
            cx, cy = x + c * CELL, y + r * CELL
            if not isinstance(entry, dict):
                out.append(_rect(cx, cy, CELL - 2, CELL - 2, "#fbfbf7", stroke="#ddd", rx=1))
                continue
            out.append(_rect(cx, cy, CELL - 2, CELL - 2, FILL.get(entry.get("kind"), "#ccc"), rx=1))
            label = "farm" if entry.get("kind") == "farm" else str(entry.get("building", "?"))[:5]
            out.append(f'<text x="{cx + CELL / 2 - 1}" y="{cy + 19}" font-size="8" text-anchor="middle" '
                       f'fill="#fff">{_e(label)}<title>{_e(entry.get("tile", ""))}</title></text>')
    for c, col in enumerate(cols):
        out.append(_text(x + c * CELL + 16, y - 4, col, 10, "middle"))
    for district in p.get("districts") or []:
        anchor = str(district.get("anchor", ""))
        if len(anchor) < 2 or anchor[0] not in rows or anchor[1:] not in cols:
            continue
        dx, dy = x + cols.index(anchor[1:]) * CELL, y + rows.index(anchor[0]) * CELL
        out.append(f'<rect x="{dx - 2}" y="{dy - 2}" width="{2 * CELL + 2}" height="{2 * CELL + 2}" fill="none" '
                   f'stroke="#000" stroke-width="3"/>')
        out.append(_die(dx + CELL - 12, dy + CELL - 12, district.get("die"), 22))
    return out


def _panel(view, pid, k, names, x, y):
    p = (view.get("players") or {}).get(pid) or {}
    current = view.get("current") == pid
    passed = pid in (view.get("passed") or [])
    out = [_rect(x, y, 300, 330, "#fffbe6" if current else "#fafafa", stroke="#000" if current else "#999")]
    out.append(f'<circle cx="{x + 12}" cy="{y + 15}" r="6" fill="{PLAYER_MARK[k % len(PLAYER_MARK)]}" stroke="#333"/>')
    status = " - to act" if current else (" - passed" if passed else "")
    out.append(_text(x + 24, y + 20, f"{_name_of(names, pid)}{status}", 14, weight="bold"))
    res = p.get("resources") or {}
    out.append(_text(x + 10, y + 40, f"stone {res.get('stone', 0)}  food {res.get('food', 0)}  "
                                     f"wisdom {res.get('wisdom', 0)}", 12))
    out.append(_text(x + 10, y + 56, f"VP {p.get('vp', 0)}  gold {p.get('gold', 0)}  war {p.get('war', 0)}", 12))
    zc = p.get("zodiac_count") or {}
    zodiac = p.get("zodiac")
    ztext = ", ".join(str(z.get("card")) for z in zodiac if isinstance(z, dict)) if isinstance(zodiac, list) else \
        " ".join(f"{t} {n}" for t, n in zc.items())
    out.append(_text(x + 10, y + 72, f"zodiac: {ztext or '-'}", 11))
    out.append(_text(x + 10, y + 92, "stands:", 11))
    for i, d in enumerate(p.get("dice") or []):
        out.append(_die(x + 60 + i * 30, y + 78, d, 24, used=bool(d.get("used")) if isinstance(d, dict) else False))
    for i in range(p.get("free_stands", 0) if isinstance(p.get("free_stands"), int) else 0):
        out.append(_die(x + 60 + (len(p.get("dice") or []) + i) * 30, y + 78, None, 24))
    orators = p.get("orator_dice") or []
    out.append(_text(x + 190, y + 92, "orator:", 11))
    for i, d in enumerate(orators[:3]):
        out.append(_die(x + 235 + i * 22, y + 80, d, 20))
    archon = "used" if p.get("archon_used") else "ready"
    out.append(_text(x + 10, y + 120, f"Archon {archon}{'  (attacked)' if p.get('attacked') else ''}", 11))
    out.extend(_city(p, x + 60, y + 140))
    return out


def _render(view, viewer, names):
    seats = list(view.get("seats") or (view.get("players") or {}).keys())
    height = 380 + 340 * ((len(seats) + 3) // 4)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{height}" viewBox="0 0 {W} {height}" '
           f'font-family="sans-serif">', _rect(0, 0, W, height, "#ffffff", stroke="none", rx=0)]
    current = view.get("current")
    head = f"Origins - round {view.get('round', '?')} of {view.get('max_rounds', '?')}"
    if view.get("status") == "finished":
        winners = ", ".join(_name_of(names, w) for w in ((view.get("result") or {}).get("winners") or []))
        head += f" - finished, winner: {winners}"
    elif current:
        head += f" - {_name_of(names, current)} to act"
    out.append(_text(10, 22, head, 16, weight="bold"))
    out.append(_text(W - 10, 22, f"viewing as {viewer if viewer else 'spectator'}", 11, "end"))
    out += _sites(view, 50) + _rows(view, 60) + _market(view, 140) + _temples(view, seats, 220)
    out += _tracks(view, seats, 240)
    for k, pid in enumerate(seats):
        out += _panel(view, pid, k, names, 10 + (k % 4) * 307, 360 + (k // 4) * 340)
    out.append("</svg>")
    return "".join(out)


def render_board(view: dict, viewer) -> str:
    """An inline SVG of the board (sites, dice rows, market, temples, war track, every city) from a view."""
    try:
        return _render(view if isinstance(view, dict) else {}, viewer, {})
    except Exception:  # the board must never break a page; fall back to a plain notice
        return ('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="40">'
                f'{_text(10, 24, "Origins board unavailable for this view.", 13)}</svg>')
