"""Renders an Uchronia view as an inline SVG board: shared zones and every player's tableau."""
from __future__ import annotations

from html import escape

from domain.games.uchronia.data import COLOR_INFO, COLORS, DESIGNS

WIDTH = 1000
FILL = {"yellow": "#e3b92f", "grey": "#9aa0a6", "red": "#c0392b", "blue": "#2e6fd1", "brown": "#8b5a2b"}
PANEL_H = 150


def _e(value) -> str:
    """Escape any value for SVG text or attributes."""
    return escape(str(value), quote=True)


def _text(x, y, value, size=13, weight="normal", fill="#222", anchor="start") -> str:
    """An escaped <text> element."""
    return (f'<text x="{x}" y="{y}" font-size="{size}" font-weight="{weight}" fill="{_e(fill)}" '
            f'text-anchor="{anchor}" font-family="sans-serif">{_e(value)}</text>')


def _counts(d) -> dict:
    """A colour -> int map from a view field, tolerating missing or odd values."""
    if not isinstance(d, dict):
        return {}
    return {c: n for c, n in d.items() if isinstance(n, int) and n > 0}


def _chips(x, y, counts: dict, label: str) -> tuple[str, int]:
    """A label and one coloured chip per colour with its count; returns (svg, next x)."""
    parts = [_text(x, y + 14, label, 12, "bold")]
    x += 8 + 7 * len(label)
    ordered = [c for c in COLORS if c in counts] + [c for c in counts if c not in COLORS]
    if not ordered:
        parts.append(_text(x, y + 14, "—", 12, fill="#777"))
        return "".join(parts), x + 24
    for color in ordered:
        parts.append(f'<rect x="{x}" y="{y}" width="30" height="20" rx="4" fill="{_e(FILL.get(color, "#ccc"))}" '
                     f'stroke="#333"><title>{_e(color)}</title></rect>')
        parts.append(_text(x + 15, y + 15, counts[color], 12, "bold", "#fff", "middle"))
        x += 34
    return "".join(parts), x + 10


def _building_name(bid) -> str:
    """Display name of a building instance id."""
    design = DESIGNS.get(str(bid).rsplit("_", 1)[0])
    return design["name"] if design else str(bid)


def _cost(bid):
    """A building's printed cost (= VP), or "?" for an unknown id."""
    return DESIGNS.get(str(bid).rsplit("_", 1)[0], {}).get("cost", "?")


def _building_tile(x, y, bid, caption, width=118) -> str:
    """A small building card: colour bar, name and a caption (cost or progress)."""
    design = DESIGNS.get(str(bid).rsplit("_", 1)[0], {})
    color = FILL.get(design.get("color"), "#ccc")
    return (f'<g><rect x="{x}" y="{y}" width="{width}" height="36" rx="4" fill="#fbf7ee" stroke="#555"/>'
            f'<rect x="{x}" y="{y}" width="8" height="36" fill="{_e(color)}"/>'
            f'<title>{_e(design.get("text", bid))}</title>'
            + _text(x + 13, y + 15, _building_name(bid), 11, "bold") + _text(x + 13, y + 30, caption, 11) + "</g>")


def _header(view) -> str:
    """Title line, turn, pending step and end state."""
    pending = view.get("pending") or {}
    who = ", ".join(str(p) for p in pending.get("players") or []) or "nobody"
    parts = [_text(16, 26, "Uchronia", 20, "bold"),
             _text(130, 26, f"Round {view.get('round')} of max {view.get('max_rounds')} · VP target "
                            f"{view.get('vp_target')} · phase {view.get('phase')}", 13)]
    step = pending.get("step", "finished")
    line = f"Turn: {view.get('current_player') or '—'} · waiting for {who} to {str(step).replace('_', ' ')}"
    order = pending.get("order")
    if isinstance(order, dict):
        line += (f" · {order.get('order')} by {order.get('player')}: {order.get('used')}/{order.get('repetitions')}"
                 f" steps")
        if order.get("revealed"):
            line += f", revealed {', '.join(str(c) for c in order['revealed'])}"
    if isinstance(pending.get("bonus"), dict):
        line += f" · {pending['bonus'].get('color')} Monopoly bonus"
    parts.append(_text(16, 48, line, 13))
    ended = view.get("end_triggered")
    result = view.get("result")
    if isinstance(result, dict):
        parts.append(_text(16, 68, f"Finished ({result.get('reason')}): winner(s) "
                                   f"{', '.join(str(w) for w in result.get('winners') or [])}", 13, "bold", "#a01010"))
    elif isinstance(ended, dict):
        parts.append(_text(16, 68, f"Last round: end triggered by {ended.get('player')} ({ended.get('reason')})",
                           13, "bold", "#a01010"))
    return "".join(parts)


def _shared(view, y) -> tuple[str, int]:
    """Forum, discard, piles, Monopolies and Great Works; returns (svg, next y)."""
    parts = [f'<rect x="8" y="{y}" width="{WIDTH - 16}" height="120" rx="8" fill="#eef3f8" stroke="#99a"/>']
    svg, x = _chips(20, y + 10, _counts(view.get("forum")), "Forum")
    parts.append(svg)
    svg, x = _chips(x + 10, y + 10, _counts(view.get("discard")), "Discard")
    parts.append(svg)
    parts.append(_text(x + 10, y + 24, f"Draw pile {view.get('draw_pile_size')} · Building deck "
                                       f"{view.get('building_deck_size')}", 12))
    parts.append(_text(20, y + 54, "Monopolies", 12, "bold"))
    monopolies = view.get("monopolies") if isinstance(view.get("monopolies"), dict) else {}
    mx = 100
    for color in COLORS:
        holder = monopolies.get(color)
        parts.append(f'<rect x="{mx}" y="{y + 40}" width="150" height="20" rx="4" fill="{FILL[color]}" '
                     f'stroke="#333"/>')
        parts.append(_text(mx + 6, y + 55, f"{COLOR_INFO[color]['order_name']}: {holder or 'supply'}", 11,
                           "bold", "#fff"))
        mx += 156
    parts.append(_text(20, y + 92, "Great Works", 12, "bold"))
    gx = 100
    for bid in view.get("great_works") or []:
        parts.append(_building_tile(gx, y + 72, bid, f"cost/VP {_cost(bid)}"))
        gx += 124
    return "".join(parts), y + 130


def _player(view, name, tableau, y, viewer) -> str:
    """One player's tableau panel."""
    if not isinstance(tableau, dict):
        tableau = {}
    current = name == view.get("current_player")
    pending = view.get("pending") or {}
    waiting = name in (pending.get("players") or [])
    parts = [f'<rect x="8" y="{y}" width="{WIDTH - 16}" height="{PANEL_H - 8}" rx="8" '
             f'fill="{"#fff7e0" if waiting else "#fafafa"}" stroke="{"#d08a00" if current else "#aaa"}" '
             f'stroke-width="{3 if current else 1}"/>']
    title = f"{name}{' (you)' if name == viewer else ''} · {tableau.get('vp', 0)} VP · operation limit " \
            f"{tableau.get('operation_limit', '?')}"
    if tableau.get("monopolies"):
        title += " · Monopolies: " + ", ".join(str(c) for c in tableau["monopolies"])
    parts.append(_text(20, y + 22, title, 14, "bold"))
    if tableau.get("hand") is not None:
        svg, x = _chips(20, y + 32, _counts(tableau.get("hand")), "Hand")
    else:
        svg = _text(20, y + 46, f"Hand: {tableau.get('hand_size', 0)} card(s)", 12, "bold")
        x = 160
    parts.append(svg)
    svg, x = _chips(x + 10, y + 32, _counts(tableau.get("stock")), "Stock")
    parts.append(svg)
    svg, x = _chips(x + 10, y + 32, _counts(tableau.get("operations")), "Operations")
    parts.append(svg)
    residence = tableau.get("residence") if isinstance(tableau.get("residence"), dict) else {}
    res_counts: dict = {}
    for c in residence.get("colors") or []:
        res_counts[c] = res_counts.get(c, 0) + 1
    svg, x = _chips(20, y + 62, res_counts, "Residence")
    parts.append(svg)
    if residence.get("order"):
        parts.append(_text(x, y + 76, f"order: {residence['order']}", 12, "bold"))
    sites = tableau.get("under_construction") if isinstance(tableau.get("under_construction"), dict) else {}
    tiles = [(bid, f"building {placed}/{_cost(bid)}") for bid, placed in sites.items()]
    tiles += [(bid, f"completed · {_cost(bid)} VP") for bid in tableau.get("completed") or []]
    step = min(124, (WIDTH - 40) // max(len(tiles), 1))
    for i, (bid, caption) in enumerate(tiles):
        parts.append(_building_tile(20 + i * step, y + 94, bid, caption, step - 6))
    if not tiles:
        parts.append(_text(20, y + 116, "No buildings yet", 12, fill="#777"))
    return "".join(parts)


def render_board(view: dict, viewer) -> str:
    """The whole board as an SVG string; tolerant of any view the game produces."""
    view = view if isinstance(view, dict) else {}
    players = view.get("players") if isinstance(view.get("players"), dict) else {}
    order = [p for p in view.get("turn_order") or [] if p in players] + \
        [p for p in players if p not in (view.get("turn_order") or [])]
    body = [_header(view)]
    svg, y = _shared(view, 80)
    body.append(svg)
    for name in order:
        body.append(_player(view, name, players[name], y, viewer))
        y += PANEL_H
    height = y + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
            f'viewBox="0 0 {WIDTH} {height}" role="img" aria-label="Uchronia board">'
            f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>{"".join(body)}</svg>')
