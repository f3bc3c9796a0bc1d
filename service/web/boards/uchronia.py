"""Renders an Uchronia view as an inline SVG board: a legend, shared zones and every player's tableau."""
from __future__ import annotations

from domain.games.uchronia.command_text import building_name, step_words
from domain.games.uchronia.data import COLOR_INFO, COLORS, DESIGNS

from service.web.boards.svgkit import e, ink, place, svg_root, text

WIDTH = 800
FILL = {"yellow": "#e3b92f", "grey": "#9aa0a6", "red": "#c0392b", "blue": "#2e6fd1", "brown": "#8b5a2b"}
LETTER = {"yellow": "Y", "grey": "G", "red": "R", "blue": "B", "brown": "Br"}
INK = "#1a1a1a"
MUTED = "#4d4d4d"
PANEL = "#f7f7f7"
CHIP_W, CHIP_H = 52, 26


def _counts(d) -> dict:
    """A colour -> int map from a view field, tolerating missing or odd values."""
    if not isinstance(d, dict):
        return {}
    return {c: n for c, n in d.items() if isinstance(n, int) and not isinstance(n, bool) and n > 0}


def _chip(x, y, color, count) -> str:
    """One card-colour chip: the colour, its letter and the count, ink chosen for contrast."""
    fill = FILL.get(color, "#cccccc")
    return (f'<rect x="{x}" y="{y}" width="{CHIP_W}" height="{CHIP_H}" rx="5" fill="{fill}" stroke="#333"/>'
            + text(x + CHIP_W / 2, y + 18, f"{LETTER.get(color, '?')} {count}", 14, ink(fill), "middle", "bold"))


def _chips(x, y, counts: dict, label: str, zone: str | None = None) -> tuple[str, float]:
    """A label and one chip per colour; chips of a zone the viewer acts on are board places."""
    parts = [text(x, y + 18, label, 14, INK, weight="bold")]
    x += 10 + 8.2 * len(label)
    ordered = [c for c in COLORS if c in counts]
    if not ordered:
        return "".join(parts) + text(x, y + 18, "none", 14, MUTED), x + 50
    for color in ordered:
        chip = _chip(x, y, color, counts[color])
        parts.append(place(f"{zone}:{color}", f"{label}: {counts[color]} {color}", chip) if zone else
                     f"<g><title>{e(color)}: {counts[color]}</title>{chip}</g>")
        x += CHIP_W + 6
    return "".join(parts), x + 12


def _names_state(view) -> dict:
    """The fields building_name reads, taken from the view."""
    players = view.get("players") if isinstance(view.get("players"), dict) else {}
    return {"great_works": view.get("great_works") or [],
            "under_construction": {p: (t or {}).get("under_construction") or {} for p, t in players.items()
                                   if isinstance(t, dict)}}


def _cost(bid):
    """A building's printed cost (= VP), or "?" for an unknown id."""
    return DESIGNS.get(str(bid).rsplit("_", 1)[0], {}).get("cost", "?")


def _building_tile(x, y, bid, caption, names_state, width=150) -> str:
    """A building card (a board place): colour bar with its letter, full name and a caption."""
    design = DESIGNS.get(str(bid).rsplit("_", 1)[0], {})
    color = design.get("color")
    fill = FILL.get(color, "#cccccc")
    name = building_name(names_state, bid)
    body = (f'<rect x="{x}" y="{y}" width="{width}" height="46" rx="5" fill="#fffdf5" stroke="#555"/>'
            f'<rect x="{x}" y="{y}" width="22" height="46" fill="{fill}"/>'
            + text(x + 11, y + 28, LETTER.get(color, "?"), 13, ink(fill), "middle", "bold")
            + text(x + 27, y + 19, name, 13, INK, weight="bold") + text(x + 27, y + 38, caption, 13, MUTED))
    return place(f"building:{bid}", f"{name}: {design.get('text', '')}", body)


def _header(view) -> tuple[str, str]:
    """Title lines (turn, pending step, end state) and the one-line summary for the text alternative."""
    pending = view.get("pending") or {}
    waiting = [str(p) for p in pending.get("players") or []]
    step = step_words(pending.get("step", "finished"))
    parts = [text(16, 28, "Uchronia", 22, INK, weight="bold"),
             text(140, 28, f"Round {view.get('round')} of {view.get('max_rounds')} · {view.get('vp_target')} VP wins",
                  15, INK)]
    line = f"Turn: {view.get('current_player') or '—'} · " + (
        f"waiting for {' and '.join(waiting)} to {step}" if waiting else "the match is over")
    order = pending.get("order")
    if isinstance(order, dict):
        line2 = f"{str(order.get('order', '')).capitalize()} by {order.get('player')}: step {order.get('used')} of " \
                f"{order.get('repetitions')}"
        if order.get("revealed"):
            line2 += f", revealed {', '.join(str(c) for c in order['revealed'])}"
    else:
        line2 = ""
    if isinstance(pending.get("bonus"), dict):
        line2 += f" · {pending['bonus'].get('color')} Monopoly bonus"
    parts.append(text(16, 52, line, 15, INK))
    if line2:
        parts.append(text(16, 74, line2, 15, INK))
    result, ended = view.get("result"), view.get("end_triggered")
    if isinstance(result, dict):
        end = f"Finished ({str(result.get('reason')).replace('_', ' ')}): winner(s) " \
              f"{', '.join(str(w) for w in result.get('winners') or [])}"
        parts.append(text(16, 96, end, 15, "#8a0f0f", weight="bold"))
        line = end
    elif isinstance(ended, dict):
        parts.append(text(16, 96, f"Last round: end triggered by {ended.get('player')}", 15, "#8a0f0f", weight="bold"))
    return "".join(parts), line


def _legend(y) -> tuple[str, float]:
    """What each card colour is: letter, resource and order."""
    parts = [text(16, y + 18, "Colours", 14, INK, weight="bold")]
    x = 90
    for color in COLORS:
        info = COLOR_INFO[color]
        fill = FILL[color]
        parts.append(f'<rect x="{x}" y="{y}" width="30" height="26" rx="5" fill="{fill}" stroke="#333"/>'
                     + text(x + 15, y + 18, LETTER[color], 14, ink(fill), "middle", "bold")
                     + text(x + 36, y + 12, f"{color}: {info['resource']}", 12, INK)
                     + text(x + 36, y + 26, info["order_name"], 12, INK))
        x += 141
    return "".join(parts), y + 40


def _shared(view, y, names_state) -> tuple[str, float]:
    """Forum, discard, piles, Monopolies and Great Works; returns (svg, next y)."""
    parts = [f'<rect x="8" y="{y}" width="{WIDTH - 16}" height="232" rx="8" fill="#eef3f8" stroke="#8899aa"/>']
    svg, x = _chips(20, y + 10, _counts(view.get("forum")), "Forum", "forum")
    parts.append(svg)
    svg, x = _chips(max(x, 420), y + 10, _counts(view.get("discard")), "Discard")
    parts.append(svg)
    parts.append(text(20, y + 62, f"Draw pile {view.get('draw_pile_size')} cards · building deck "
                                  f"{view.get('building_deck_size')}", 14, INK))
    parts.append(text(20, y + 92, "Monopolies", 14, INK, weight="bold"))
    monopolies = view.get("monopolies") if isinstance(view.get("monopolies"), dict) else {}
    mx = 110
    for color in COLORS:
        holder = monopolies.get(color)
        fill = FILL[color]
        parts.append(f'<rect x="{mx}" y="{y + 74}" width="132" height="26" rx="5" fill="{fill}" stroke="#333"/>'
                     + text(mx + 6, y + 92, f"{LETTER[color]} {holder or 'supply'}"[:17], 13, ink(fill), weight="bold"))
        mx += 136
    parts.append(text(20, y + 130, "Great Works (cost = VP)", 14, INK, weight="bold"))
    gx = 20
    for i, bid in enumerate(view.get("great_works") or []):
        parts.append(_building_tile(gx + (i % 5) * 154, y + 142 + (i // 5) * 52, bid, f"cost {_cost(bid)}",
                                    names_state))
    return "".join(parts), y + 244


def _player(view, pid, tableau, y, viewer, seat, names_state) -> tuple[str, float]:
    """One player's tableau panel; the viewer's hand and stock chips and all buildings are places."""
    tableau = tableau if isinstance(tableau, dict) else {}
    current = pid == view.get("current_player")
    waiting = pid in ((view.get("pending") or {}).get("players") or [])
    sites = tableau.get("under_construction") if isinstance(tableau.get("under_construction"), dict) else {}
    tiles = [(bid, f"{placed} of {_cost(bid)} placed") for bid, placed in sites.items()]
    tiles += [(bid, f"done · {_cost(bid)} VP") for bid in tableau.get("completed") or []]
    rows = max(1, (len(tiles) + 4) // 5)
    height = 132 + 52 * rows
    parts = [f'<rect x="8" y="{y}" width="{WIDTH - 16}" height="{height - 8}" rx="8" '
             f'fill="{"#fff4d6" if waiting else PANEL}" stroke="{"#a05a00" if current else "#999"}" '
             f'stroke-width="{4 if current else 1}"/>']
    marks = [m for m, on in (("to act", waiting), ("you", pid == viewer)) if on]
    title = f"{pid}{' (you)' if pid == viewer else ''} · {tableau.get('vp', 0)} VP · operation limit " \
            f"{tableau.get('operation_limit', '?')}" + (" · ▶ to act" if "to act" in marks else "")
    if tableau.get("monopolies"):
        title += " · Monopolies: " + ", ".join(str(c) for c in tableau["monopolies"])
    parts.append(text(20, y + 24, title, 16, INK, weight="bold"))
    mine = pid == viewer
    if tableau.get("hand") is not None:
        svg, x = _chips(20, y + 36, _counts(tableau.get("hand")), "Hand", "hand" if mine else None)
    else:
        svg, x = text(20, y + 54, f"Hand: {tableau.get('hand_size', 0)} card(s)", 14, INK, weight="bold"), 200
    parts.append(svg)
    svg, _x = _chips(max(x, 400), y + 36, _counts(tableau.get("stock")), "Stock", "stock" if mine else None)
    parts.append(svg)
    svg, x = _chips(20, y + 70, _counts(tableau.get("operations")), "Operations")
    parts.append(svg)
    residence = tableau.get("residence") if isinstance(tableau.get("residence"), dict) else {}
    res_counts: dict = {}
    for c in residence.get("colors") or []:
        res_counts[c] = res_counts.get(c, 0) + 1
    svg, x = _chips(max(x, 400), y + 70, res_counts, "Residence")
    order = f" ({residence['order']})" if residence.get("order") else ""
    parts.append(place(f"residence:{seat}", f"{pid}'s Residence{order}",
                       f'<rect x="396" y="{y + 66}" width="{max(x - 396, 120)}" height="34" rx="6" fill="none" '
                       f'stroke="none"/>' + svg + (text(x, y + 88, residence["order"], 14, INK, weight="bold")
                                                   if residence.get("order") else "")))
    for i, (bid, caption) in enumerate(tiles):
        parts.append(_building_tile(20 + (i % 5) * 154, y + 112 + (i // 5) * 52, bid, caption, names_state))
    if not tiles:
        parts.append(text(20, y + 138, "No buildings yet", 14, MUTED))
    return "".join(parts), y + height


def place_of(view: dict, command: dict):
    """(place key, None) of the chip, building or Residence a command acts on; None when it has no place."""
    t, p = command["type"], command.get("payload") or {}
    if t in ("discard_to_forum", "stock_from_hand", "give_card"):
        return f"hand:{p['color']}", None
    if t == "issue_order":
        return f"hand:{p['colors'][0]}", None
    if t == "take_from_forum":
        return f"forum:{p['color']}", None
    if t == "trade":
        return f"stock:{p['color']}", None
    if t in ("start_building", "supply_building", "raid"):
        return f"building:{p['building_id']}", None
    if t == "plot" and p.get("copy_from") is not None:
        return f"residence:{list(view.get('turn_order') or []).index(p['copy_from'])}", None
    return None


def render_board(view: dict, viewer) -> str:
    """The whole board as an SVG string; tolerant of any view the game produces."""
    view = view if isinstance(view, dict) else {}
    players = view.get("players") if isinstance(view.get("players"), dict) else {}
    order = [p for p in view.get("turn_order") or [] if p in players] + \
        [p for p in players if p not in (view.get("turn_order") or [])]
    names_state = _names_state(view)
    head, status = _header(view)
    body = [head]
    svg, y = _legend(108)
    body.append(svg)
    svg, y = _shared(view, y + 4, names_state)
    body.append(svg)
    for seat, pid in enumerate(order):
        svg, y = _player(view, pid, players[pid], y, viewer, seat, names_state)
        body.append(svg)
    scores = ", ".join(f"{p} {(players[p] or {}).get('vp', 0) if isinstance(players[p], dict) else 0} VP"
                       for p in order)
    summary = f"Uchronia, round {view.get('round')}. {status}. Scores: {scores or 'none'}."
    height = y + 10
    return svg_root(WIDTH, height, "Uchronia board", summary, False,
                    f'<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>{"".join(body)}')
